// Package optest builds the fake 1Password CLI (../fakeop) for tests and
// writes its vault and mode. It owns nothing a running host uses; it never
// reaches a real 1Password account.
package optest

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// FakeOp is one built fake op in a directory of its own: its vault.json,
// mode and calls.log sit beside it.
type FakeOp struct {
	// Path is the executable: give it to policy one_password.executable.
	Path string
	Dir  string
}

// Item is one Login (or other) item of the fake vault. Empty fields are
// left out of the item, as 1Password leaves them.
type Item struct {
	ID       string
	Title    string
	Vault    string   // vault id; "vlt_private" when empty
	Category string   // op's category; "LOGIN" when empty
	URLs     []string // the first is primary
	Username string
	Password string
	// TOTP is the current one-time code op computes (field "totp").
	TOTP string
}

// Mode is the fake's behaviour (fakeop's header).
type Mode string

const (
	ModeSignedIn      Mode = ""
	ModeSignedOut     Mode = "signed_out"
	ModeDismissed     Mode = "dismissed"
	ModeHang          Mode = "hang"
	ModeProviderError Mode = "provider_error"
	// ModeStderrHelper answers, then leaves a helper holding stderr open.
	ModeStderrHelper Mode = "stderr_helper"
)

// Build compiles the fake op into a fresh directory of t's.
func Build(t testing.TB) *FakeOp {
	t.Helper()
	dir := t.TempDir()
	bin := filepath.Join(dir, "op")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	// `go test` puts its own GOROOT/bin first on PATH: the same toolchain.
	out, err := exec.Command("go", "build", "-o", bin, "github.com/agenttab/agenttab/internal/onepassword/fakeop").CombinedOutput()
	if err != nil {
		t.Fatalf("building the fake op: %v\n%s", err, out)
	}
	return &FakeOp{Path: bin, Dir: dir}
}

// WriteVault replaces the fake's vault with items, in op's item JSON.
func (f *FakeOp) WriteVault(t testing.TB, items []Item) {
	t.Helper()
	out := make([]map[string]any, 0, len(items))
	for _, it := range items {
		out = append(out, opItem(it))
	}
	b, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(f.Dir, "vault.json"), b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// SetMode sets how the fake answers from its next call on.
func (f *FakeOp) SetMode(t testing.TB, m Mode) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(f.Dir, "mode"), []byte(m), 0o600); err != nil {
		t.Fatal(err)
	}
}

// Calls are the argument lists the fake was called with, in order.
func (f *FakeOp) Calls(t testing.TB) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(f.Dir, "calls.log"))
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

// opItem is it as `op item get --format json` prints a Login item.
func opItem(it Item) map[string]any {
	vault, category := it.Vault, it.Category
	if vault == "" {
		vault = "vlt_private"
	}
	if category == "" {
		category = "LOGIN"
	}
	ref := func(label string) string { return "op://" + vault + "/" + it.ID + "/" + label }
	fields := []map[string]any{}
	if it.Username != "" {
		fields = append(fields, map[string]any{"id": "username", "type": "STRING", "purpose": "USERNAME", "label": "username", "value": it.Username, "reference": ref("username")})
	}
	if it.Password != "" {
		fields = append(fields, map[string]any{"id": "password", "type": "CONCEALED", "purpose": "PASSWORD", "label": "password", "value": it.Password, "reference": ref("password"),
			"password_details": map[string]any{"strength": "FANTASTIC"}})
	}
	fields = append(fields, map[string]any{"id": "notesPlain", "type": "STRING", "purpose": "NOTES", "label": "notesPlain", "reference": ref("notesPlain")})
	var sections []map[string]any
	if it.TOTP != "" {
		sections = []map[string]any{{"id": "add more"}}
		fields = append(fields, map[string]any{"id": "TOTP_" + it.ID, "section": map[string]any{"id": "add more"}, "type": "OTP", "label": "one-time password",
			"value": "otpauth://totp/" + it.ID + "?secret=JBSWY3DPEHPK3PXP", "totp": it.TOTP, "reference": ref("one-time password")})
	}
	urls := []map[string]any{}
	for i, u := range it.URLs {
		e := map[string]any{"label": "website", "href": u}
		if i == 0 {
			e["primary"] = true
		}
		urls = append(urls, e)
	}
	m := map[string]any{
		"id": it.ID, "title": it.Title, "version": 1, "vault": map[string]any{"id": vault, "name": "Private"},
		"category": category, "last_edited_by": "USR0000000000000000000000", "created_at": "2025-01-02T03:04:05Z", "updated_at": "2025-01-02T03:04:05Z",
		"fields": fields, "urls": urls,
	}
	if it.Username != "" {
		m["additional_information"] = it.Username
	}
	if sections != nil {
		m["sections"] = sections
	}
	return m
}
