package doctor

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"

	"github.com/agenttab/agenttab/internal/install"
)

// profile is one browser profile's extension settings.
type profile struct {
	place install.Place
	dir   string
	exts  map[string]extSetting
}

// extSetting is the part of Chrome's extensions.settings.<id> entry doctor
// reads. Observed in Chromium 156 (Debian, Linux), a fresh --user-data-dir:
// the entries are in Preferences ("Secure Preferences" holds only its MAC
// there; branded Chrome on Windows and macOS keeps them in Secure
// Preferences, so both are read); there is no "state" key, "disable_reasons"
// is a list of reason codes ([] enabled, [1] after the user switched it off
// in chrome://extensions); "location" is 4 for Load unpacked (CDP's
// Extensions.loadUnpacked takes the same path) and 8 for --load-extension;
// "path" is the folder as given; an unpacked entry has no "manifest". Older
// Chrome wrote "state" (0 disabled) and "disable_reasons" as a bitmask int;
// both are understood.
type extSetting struct {
	DisableReasons json.RawMessage `json:"disable_reasons"`
	State          *int            `json:"state"`
	Path           string          `json:"path"`
	Location       int             `json:"location"`
	Manifest       *struct {
		Name string `json:"name"`
	} `json:"manifest"`
	ActivePermissions struct {
		API []json.RawMessage `json:"api"`
	} `json:"active_permissions"`
}

// Chrome's ManifestLocation values (extensions/common/mojom/manifest.mojom).
const (
	locationUnpacked    = 4
	locationCommandLine = 8
	locationComponent   = 5
	locationExtComp     = 10
)

// disabledReasons returns Chrome's reason codes when the extension is
// disabled, nil when it is enabled.
func (s extSetting) disabledReasons() []int {
	var list []int
	if json.Unmarshal(s.DisableReasons, &list) == nil && len(list) > 0 {
		return list
	}
	var mask int
	if json.Unmarshal(s.DisableReasons, &mask) == nil && mask != 0 {
		for bit := 1; bit <= mask; bit <<= 1 {
			if mask&bit != 0 {
				list = append(list, bit)
			}
		}
		return list
	}
	if s.State != nil && *s.State == 0 {
		return []int{0}
	}
	return nil
}

// hasAPI reports whether the active permissions hold name.
func (s extSetting) hasAPI(name string) bool {
	return slices.ContainsFunc(s.ActivePermissions.API, func(raw json.RawMessage) bool {
		var n string
		return json.Unmarshal(raw, &n) == nil && n == name
	})
}

// folder is the extension's files: an unpacked entry's path is absolute,
// an installed one's is relative to PROFILE/Extensions.
func (p profile) folder(s extSetting) string {
	if filepath.IsAbs(s.Path) {
		return s.Path
	}
	return filepath.Join(p.dir, "Extensions", s.Path)
}

// readProfiles reads every profile folder (Default, "Profile N") of each
// place; a place without one yields nothing.
func readProfiles(places []install.Place) []profile {
	var out []profile
	for _, pl := range places {
		dirs := []string{filepath.Join(pl.UserDataDir, "Default")}
		more, _ := filepath.Glob(filepath.Join(pl.UserDataDir, "Profile *"))
		for _, dir := range append(dirs, more...) {
			p := profile{place: pl, dir: dir, exts: map[string]extSetting{}}
			found := false
			for _, name := range []string{"Preferences", "Secure Preferences"} {
				found = readSettings(filepath.Join(dir, name), p.exts) || found
			}
			if found {
				out = append(out, p)
			}
		}
	}
	return out
}

// readSettings merges path's extensions.settings into into; it reports
// whether the file was there and parsed.
func readSettings(path string, into map[string]extSetting) bool {
	data, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	var prefs struct {
		Extensions struct {
			Settings map[string]extSetting `json:"settings"`
		} `json:"extensions"`
	}
	if json.Unmarshal(data, &prefs) != nil {
		return false
	}
	for id, s := range prefs.Extensions.Settings {
		into[id] = s
	}
	return true
}
