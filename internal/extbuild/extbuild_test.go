package extbuild

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/agenttab/agenttab/extension"
	"github.com/agenttab/agenttab/internal/buildinfo"
	"github.com/google/go-cmp/cmp"
)

func extDir(t *testing.T) string {
	t.Helper()
	dir, err := ExtensionDir()
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestDistIsFresh fails when the committed extension/dist is not what the
// sources build to.
func TestDistIsFresh(t *testing.T) {
	ext := extDir(t)
	want, err := Build(ext)
	if err != nil {
		t.Fatal(err)
	}
	dist := filepath.Join(ext, "dist")
	names, err := List(dist)
	if err != nil {
		t.Fatal(err)
	}
	var wantNames []string
	for name := range want {
		wantNames = append(wantNames, name)
	}
	slices.Sort(wantNames)
	if d := cmp.Diff(wantNames, names); d != "" {
		t.Fatalf("extension/dist has other files than the build (-built +committed); regenerate with: %s\n%s", Command, d)
	}
	for _, name := range names {
		got, err := os.ReadFile(filepath.Join(dist, filepath.FromSlash(name)))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want[name]) {
			t.Errorf("extension/dist/%s is stale; regenerate with: %s", name, Command)
		}
	}
}

// TestBuildIsDeterministic: the same sources give the same bytes, and no
// output names the machine's paths.
func TestBuildIsDeterministic(t *testing.T) {
	ext := extDir(t)
	a, err := Build(ext)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Build(ext)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(a, b); d != "" {
		t.Errorf("two builds differ:\n%s", d)
	}
	for name, content := range a {
		if bytes.Contains(content, []byte(ext)) {
			t.Errorf("%s contains the absolute path %s", name, ext)
		}
		if bytes.Contains(content, []byte("sourceMappingURL")) {
			t.Errorf("%s carries a source map", name)
		}
	}
}

// TestManifest pins the permission set of spec 000 exactly, and the rest of
// what Chrome reads.
func TestManifest(t *testing.T) {
	raw, err := Manifest()
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		ManifestVersion      int               `json:"manifest_version"`
		Name                 string            `json:"name"`
		Version              string            `json:"version"`
		VersionName          string            `json:"version_name"`
		Description          string            `json:"description"`
		MinimumChromeVersion string            `json:"minimum_chrome_version"`
		Key                  string            `json:"key"`
		Permissions          []string          `json:"permissions"`
		OptionalPermissions  []string          `json:"optional_permissions"`
		HostPermissions      []string          `json:"host_permissions"`
		Background           map[string]string `json:"background"`
		Action               map[string]string `json:"action"`
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	// An unknown field would be a manifest key nobody reviewed here.
	if err := dec.Decode(&m); err != nil {
		t.Fatal(err)
	}
	sorted := func(s []string) []string { s = slices.Clone(s); slices.Sort(s); return s }
	wantPerms := []string{"alarms", "bookmarks", "debugger", "downloads", "history", "idle", "nativeMessaging", "sessions", "storage", "tabGroups", "tabs", "webNavigation"}
	if d := cmp.Diff(wantPerms, sorted(m.Permissions)); d != "" {
		t.Errorf("permissions (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{"scripting"}, m.OptionalPermissions); d != "" {
		t.Errorf("optional_permissions (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{"<all_urls>"}, m.HostPermissions); d != "" {
		t.Errorf("host_permissions (-want +got):\n%s", d)
	}
	for _, never := range []string{"cookies", "contentSettings", "activeTab"} {
		if bytes.Contains(raw, []byte(`"`+never+`"`)) {
			t.Errorf("manifest requests %s", never)
		}
	}
	if m.ManifestVersion != 3 || m.Name != "AgentTab" || m.Version != extension.Version || m.MinimumChromeVersion != "120" || m.Key != extension.PublicKey {
		t.Errorf("manifest header: %+v", m)
	}
	// Chrome's version is dotted integers; version_name carries the whole
	// version and calls it a prerelease (spec 000: "2.0.0-rc.1 is
	// prerelease and unreleased").
	if m.Version != buildinfo.Core(buildinfo.Version) || m.VersionName != buildinfo.Version+" (prerelease)" {
		t.Errorf("version %q, version_name %q: want %q and %q (prerelease)", m.Version, m.VersionName, buildinfo.Core(buildinfo.Version), buildinfo.Version)
	}
	if d := cmp.Diff(map[string]string{"service_worker": "background.js", "type": "module"}, m.Background); d != "" {
		t.Errorf("background (-want +got):\n%s", d)
	}
	if d := cmp.Diff(map[string]string{"default_popup": "popup.html", "default_title": "AgentTab"}, m.Action); d != "" {
		t.Errorf("action (-want +got):\n%s", d)
	}
}

// TestKeyPinsID checks that the manifest key gives extension.ID the way
// Chrome derives it: the first 32 hex digits of sha256(DER), 0-f → a-p
// (notes/chromium.md).
func TestKeyPinsID(t *testing.T) {
	der, err := base64.StdEncoding.DecodeString(extension.PublicKey)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(der)
	id := []byte(hex.EncodeToString(sum[:16]))
	for i, c := range id {
		if c >= 'a' {
			id[i] = c - 'a' + 10 + 'a'
		} else {
			id[i] = c - '0' + 'a'
		}
	}
	if string(id) != extension.ID {
		t.Errorf("key gives id %s, extension.ID is %s", id, extension.ID)
	}
}

// TestBuildTests bundles the unit tests the way `make ext-test` does.
func TestBuildTests(t *testing.T) {
	out := t.TempDir()
	stale := filepath.Join(out, "gone.test.mjs")
	if err := os.WriteFile(stale, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	files, err := BuildTests(extDir(t), out)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(files, "background/pagework/route.test.mjs") {
		t.Errorf("bundles %v lack background/pagework/route.test.mjs", files)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("a stale bundle was kept: %v", err)
	}
}
