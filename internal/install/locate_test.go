package install

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Doctor reads the machine-wide keys Chrome falls back to on Windows, in
// both registry views and Chrome's order, and only reads them; off Windows
// there are none.
func TestMachineRegistrations(t *testing.T) {
	hklm := newFakeRegistry()
	chrome32 := `Software\WOW6432Node\Google\Chrome\NativeMessagingHosts\com.agenttab.host`
	hklm.values[chrome32] = `C:\Other\host.json`
	hklm.values[chromeKey] = `C:\Other64\host.json`
	hklm.values[edgeKey] = `C:\Edge\host.json`
	before := map[string]string{chrome32: `C:\Other\host.json`, chromeKey: `C:\Other64\host.json`, edgeKey: `C:\Edge\host.json`}

	got, err := machineRegistrations("windows", hklm)
	if err != nil {
		t.Fatal(err)
	}
	want := []Registration{
		{Browser: "chrome", Key: `HKLM\` + chrome32, Manifest: `C:\Other\host.json`},
		{Browser: "chrome", Key: `HKLM\` + chromeKey, Manifest: `C:\Other64\host.json`},
		{Browser: "edge", Key: `HKLM\` + edgeKey, Manifest: `C:\Edge\host.json`},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("registrations (-want +got):\n%s", d)
	}
	if d := cmp.Diff(before, hklm.values); d != "" {
		t.Errorf("HKLM changed (-before +after):\n%s", d)
	}

	if got, err := machineRegistrations("linux", hklm); err != nil || got != nil {
		t.Errorf("on linux: %v, %v", got, err)
	}
}

func TestIsOurWindowsManifest(t *testing.T) {
	state := `C:\Users\u\AppData\Local\AgentTab`
	if !IsOurWindowsManifest(state, windowsManifest(state)) {
		t.Error("our own manifest is not ours")
	}
	if IsOurWindowsManifest(state, `C:\Other\`+ManifestFile) {
		t.Error("another folder's manifest is ours")
	}
}
