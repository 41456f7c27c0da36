package doctor

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/agenttab/agenttab/extension"
	"github.com/agenttab/agenttab/internal/install"
	"github.com/agenttab/agenttab/protocol"
)

// checkNameConflicts: another native host or extension claiming our name
// (the "two apps fight over one extension" complaint): a machine-wide
// manifest under our host name that is not ours, per-user manifests that
// start different binaries, and another extension that calls itself
// AgentTab or connects to our host name from a different id.
func checkNameConflicts(env Env, places []install.Place, profiles []profile) []Finding {
	var out []Finding
	for _, path := range env.SystemManifests {
		if _, exists, _ := readManifest(path); !exists {
			continue
		}
		if problem := machineWideProblem(env, path); problem != "" {
			out = append(out, fail(CheckNameConflict, fmt.Sprintf("a machine-wide manifest %s claims the host name %s: %s; Chrome uses it when the per-user one is missing or user-level hosts are turned off by policy", path, protocol.NativeHostName, problem),
				fmt.Sprintf("Remove it: `sudo rm %s` (AgentTab registers per user only).", path)))
		}
	}
	out = append(out, machineRegistrationConflicts(env)...)
	paths := map[string][]string{}
	for _, pl := range places {
		if m, exists, err := readManifest(pl.Manifest); exists && err == nil {
			paths[filepath.Clean(m.Path)] = append(paths[filepath.Clean(m.Path)], pl.Manifest)
		}
	}
	if len(paths) > 1 {
		var parts []string
		for bin, ms := range paths {
			parts = append(parts, fmt.Sprintf("%s (%s)", bin, strings.Join(ms, ", ")))
		}
		out = append(out, fail(CheckNameConflict, "the per-user manifests start different binaries: "+strings.Join(parts, "; "),
			fmt.Sprintf("Run `%s install` so every browser starts this agenttab.", env.Self)))
	}
	for _, p := range profiles {
		for id, s := range p.exts {
			if id == extension.ID || s.Location == locationComponent || s.Location == locationExtComp {
				continue
			}
			if why := claimsAgentTab(p, s); why != "" {
				out = append(out, warn(CheckNameConflict, fmt.Sprintf("extension %s in %s (from %s) %s, but AgentTab's id is %s: Chrome starts the host only for %s", id, p.dir, p.folder(s), why, extension.ID, extension.Origin),
					fmt.Sprintf("Open chrome://extensions/?id=%s and click Remove (keep the AgentTab card whose ID is %s).", id, extension.ID)))
			}
		}
	}
	if len(out) == 0 {
		return []Finding{ok(CheckNameConflict, "no other host manifest or extension claims "+protocol.NativeHostName)}
	}
	return out
}

// machineWideProblem says why the machine-wide manifest at path would not
// start this agenttab for AgentTab's extension, or "" when it would.
func machineWideProblem(env Env, path string) string {
	m, exists, err := readManifest(path)
	switch {
	case !exists:
		return "the manifest it names, " + path + ", does not exist"
	case err != nil:
		return err.Error()
	case install.ManifestProblem(m) != "":
		return install.ManifestProblem(m)
	case env.Self != "" && !samePath(m.Path, env.Self):
		return "it starts " + m.Path + ", not this agenttab (" + env.Self + ")"
	}
	return ""
}

// machineRegistrationConflicts: on Windows Chrome falls back to
// HKLM\…\NativeMessagingHosts\<name> when the user's HKCU key is
// missing or user-level hosts are turned off by policy
// (install.MachineRegistrations says which keys, in Chrome's order). A
// machine-wide key that names another manifest than ours, one that would
// not start this agenttab, is someone else's claim on our name. Only an
// administrator can remove it.
func machineRegistrationConflicts(env Env) []Finding {
	if env.MachineRegistrations == nil {
		return nil
	}
	regs, err := env.MachineRegistrations()
	if err != nil {
		return []Finding{warn(CheckNameConflict, "cannot read the machine-wide native-host registrations: "+err.Error(),
			fmt.Sprintf("List them by hand: `reg query HKLM\\Software /s /f %s /k`, and remove any that is not AgentTab's from an elevated prompt with `reg delete \"KEY\" /f`.", protocol.NativeHostName))}
	}
	var out []Finding
	for _, r := range regs {
		if install.IsOurWindowsManifest(string(env.State), r.Manifest) {
			continue
		}
		problem := "its default value is not a manifest path"
		if r.Manifest != "" {
			problem = machineWideProblem(env, r.Manifest)
		}
		if problem == "" {
			continue
		}
		out = append(out, fail(CheckNameConflict, fmt.Sprintf("the machine-wide registry key %s claims the host name %s for %s and names %q: %s; %s uses it when the per-user key is missing or user-level hosts are turned off by policy", r.Key, protocol.NativeHostName, r.Browser, r.Manifest, problem, r.Browser),
			fmt.Sprintf("From an elevated prompt (Run as administrator): `reg delete \"%s\" /f` (AgentTab registers per user only).", r.Key)))
	}
	return out
}

// ourName is the extension's manifest name, read from the embedded build.
func ourName() string {
	var m struct {
		Name string `json:"name"`
	}
	data, _ := fs.ReadFile(extension.Dist(), "manifest.json")
	json.Unmarshal(data, &m)
	return m.Name
}

// Bounds on reading another extension's files for our host name.
const (
	maxScanFiles = 200
	maxScanBytes = 4 << 20
)

// claimsAgentTab says how another extension claims to be AgentTab, or "".
func claimsAgentTab(p profile, s extSetting) string {
	folder := p.folder(s)
	name := ""
	if s.Manifest != nil {
		name = s.Manifest.Name
	} else if data, err := os.ReadFile(filepath.Join(folder, "manifest.json")); err == nil {
		var m struct {
			Name string `json:"name"`
		}
		json.Unmarshal(data, &m)
		name = m.Name
	}
	if want := ourName(); want != "" && strings.EqualFold(name, want) {
		return "calls itself " + name
	}
	files := 0
	found := false
	filepath.WalkDir(folder, func(path string, d fs.DirEntry, err error) error {
		if found || files >= maxScanFiles {
			return fs.SkipAll
		}
		if err != nil {
			return nil
		}
		if d.IsDir() || !strings.HasSuffix(path, ".js") {
			return nil
		}
		files++
		if fi, err := d.Info(); err != nil || fi.Size() > maxScanBytes {
			return nil
		}
		data, err := os.ReadFile(path)
		found = err == nil && strings.Contains(string(data), protocol.NativeHostName)
		return nil
	})
	if found {
		return "connects to the native host " + protocol.NativeHostName
	}
	return ""
}
