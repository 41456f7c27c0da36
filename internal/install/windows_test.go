package install

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/agenttab/agenttab/extension"
	"github.com/google/go-cmp/cmp"
)

const (
	chromeKey   = `Software\Google\Chrome\NativeMessagingHosts\com.agenttab.host`
	chromiumKey = `Software\Chromium\NativeMessagingHosts\com.agenttab.host`
	edgeKey     = `Software\Microsoft\Edge\NativeMessagingHosts\com.agenttab.host`
	braveKey    = `Software\BraveSoftware\Brave-Browser\NativeMessagingHosts\com.agenttab.host`
)

// On Windows the manifest goes to the state directory, and each selected
// browser's HKCU key gets its path as default value: detected browsers
// (their User Data under %LOCALAPPDATA%) plus named ones.
func TestInstallWindows(t *testing.T) {
	reg := newFakeRegistry()
	sys, home := fakeMachine{goos: "windows", reg: reg, profiles: []string{
		"AppData/Local/Microsoft/Edge/User Data",
		"AppData/Local/BraveSoftware/Brave-Browser/User Data",
	}}.system(t)
	state := filepath.Join(home, "AppData", "Local", "AgentTab")
	res, err := sys.install(Options{Browsers: []string{"all", "chrome"}, StateDir: state, HostPath: hostPath})
	if err != nil {
		t.Fatal(err)
	}
	manifest := filepath.Join(state, "com.agenttab.host.json")
	want := Result{
		ExtensionDir: filepath.Join(state, "extension"),
		ExtensionID:  extension.ID,
		Manifests:    []string{manifest},
		RegistryKeys: []string{`HKCU\` + chromeKey, `HKCU\` + edgeKey, `HKCU\` + braveKey},
	}
	if d := cmp.Diff(want, res); d != "" {
		t.Errorf("result (-want +got):\n%s", d)
	}
	if d := cmp.Diff(map[string]string{chromeKey: manifest, edgeKey: manifest, braveKey: manifest}, reg.values); d != "" {
		t.Errorf("registry (-want +got):\n%s", d)
	}
	data, err := os.ReadFile(manifest)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(string(manifestJSON(hostPath)), string(data)); d != "" {
		t.Errorf("manifest (-want +got):\n%s", d)
	}
	if _, err := os.Stat(filepath.Join(state, "extension", "manifest.json")); err != nil {
		t.Errorf("extension not written: %v", err)
	}
	regs, err := sys.registrations()
	if err != nil {
		t.Fatal(err)
	}
	wantRegs := []Registration{
		{Browser: "chrome", Key: `HKCU\` + chromeKey, Manifest: manifest},
		{Browser: "chromium", Key: `HKCU\` + chromiumKey},
		{Browser: "edge", Key: `HKCU\` + edgeKey, Manifest: manifest},
		{Browser: "brave", Key: `HKCU\` + braveKey, Manifest: manifest},
	}
	if d := cmp.Diff(wantRegs, regs); d != "" {
		t.Errorf("registrations (-want +got):\n%s", d)
	}
	// No NativeMessagingHosts folder anywhere: Windows reads none.
	filepath.WalkDir(home, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Name() == hostsDirName {
			t.Errorf("wrote a NativeMessagingHosts folder on Windows: %s", p)
		}
		return nil
	})
}

// Uninstall deletes only keys whose value is our manifest's path (compared
// as Windows compares paths), keeps another program's value under our
// name, and removes the manifest once no key points at it.
func TestUninstallWindowsRemovesOnlyOurKeys(t *testing.T) {
	reg := newFakeRegistry()
	sys, home := fakeMachine{goos: "windows", reg: reg}.system(t)
	state := filepath.Join(home, "AppData", "Local", "AgentTab")
	if _, err := sys.install(Options{Browsers: []string{"chrome", "chromium", "edge"}, StateDir: state, HostPath: hostPath}); err != nil {
		t.Fatal(err)
	}
	manifest := filepath.Join(state, "com.agenttab.host.json")
	foreign := `C:\Program Files\Impostor\host.json`
	reg.values[braveKey] = foreign
	reg.values[chromiumKey] = filepath.Join(filepath.Dir(manifest), ".", "COM.AGENTTAB.HOST.JSON")
	unrelated := `Software\Google\Chrome\NativeMessagingHosts\com.example.other`
	reg.values[unrelated] = `C:\other.json`

	// Chrome alone first: the manifest stays, the others still use it.
	removed, err := sys.uninstall(Options{Browsers: []string{"chrome"}, StateDir: state})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{`HKCU\` + chromeKey, filepath.Join(state, "extension")}, removed); d != "" {
		t.Errorf("removed (-want +got):\n%s", d)
	}
	if _, err := os.Stat(manifest); err != nil {
		t.Errorf("manifest removed while edge still points at it: %v", err)
	}

	removed, err = sys.uninstall(Options{StateDir: state})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{`HKCU\` + chromiumKey, `HKCU\` + edgeKey, manifest}, removed); d != "" {
		t.Errorf("removed (-want +got):\n%s", d)
	}
	if d := cmp.Diff(map[string]string{braveKey: foreign, unrelated: `C:\other.json`}, reg.values); d != "" {
		t.Errorf("registry after uninstall (-want +got):\n%s", d)
	}
	if _, err := os.Stat(manifest); !os.IsNotExist(err) {
		t.Errorf("manifest still there: %v", err)
	}
	removed, err = sys.uninstall(Options{StateDir: state})
	if err != nil || len(removed) != 0 {
		t.Errorf("second uninstall = %v, %v; want nothing", removed, err)
	}
}

// macOS: per-user folders under ~/Library/Application Support (Chrome's
// native-messaging page), installed and removed again.
func TestInstallAndUninstallDarwin(t *testing.T) {
	sys, home := fakeMachine{goos: "darwin", profiles: []string{
		"Library/Application Support/Chromium",
		"Library/Application Support/BraveSoftware/Brave-Browser",
	}}.system(t)
	state := filepath.Join(home, "Library", "Application Support", "AgentTab")
	res, err := sys.install(Options{StateDir: state, HostPath: hostPath})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		filepath.Join(home, "Library/Application Support/Chromium/NativeMessagingHosts/com.agenttab.host.json"),
		filepath.Join(home, "Library/Application Support/BraveSoftware/Brave-Browser/NativeMessagingHosts/com.agenttab.host.json"),
	}
	if d := cmp.Diff(want, res.Manifests); d != "" {
		t.Errorf("manifests (-want +got):\n%s", d)
	}
	if len(res.RegistryKeys) != 0 {
		t.Errorf("registry keys on macOS: %v", res.RegistryKeys)
	}
	removed, err := sys.uninstall(Options{StateDir: state})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(append(want, filepath.Join(state, "extension")), removed); d != "" {
		t.Errorf("removed (-want +got):\n%s", d)
	}
}

// On Windows doctor's places are the files each detected browser's HKCU
// key names, not NativeMessagingHosts folders, which Chrome does not read
// there: a detected browser without a key has an empty manifest path.
func TestPlacesOnWindowsFollowTheRegistry(t *testing.T) {
	reg := newFakeRegistry()
	sys, home := fakeMachine{goos: "windows", reg: reg, profiles: []string{
		"AppData/Local/Google/Chrome/User Data",
		"AppData/Local/Microsoft/Edge/User Data",
	}}.system(t)
	reg.values[chromeKey] = `C:\Somewhere\com.agenttab.host.json`
	got, err := sys.places("")
	if err != nil {
		t.Fatal(err)
	}
	local := filepath.Join(home, "AppData", "Local")
	want := []Place{
		{Browser: "chrome", UserDataDir: filepath.Join(local, "Google", "Chrome", "User Data"), Manifest: `C:\Somewhere\com.agenttab.host.json`},
		{Browser: "edge", UserDataDir: filepath.Join(local, "Microsoft", "Edge", "User Data")},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("places (-want +got):\n%s", d)
	}
}
