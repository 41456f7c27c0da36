package doctor

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/agenttab/agenttab/extension"
)

// loadUnpacked is the exact way to load the extension by hand, as a
// clause; it names `agenttab install` first when the folder is not there.
func loadUnpacked(env Env) string {
	dir := env.State.Extension()
	click := "open chrome://extensions, turn on Developer mode (top right), click Load unpacked and choose " + dir
	if _, err := os.Stat(dir); err != nil {
		return "run `agenttab install`, then " + click
	}
	return click
}

// reloadFix replaces a copy loaded from elsewhere.
func reloadFix(env Env) string {
	return "In chrome://extensions click Remove on AgentTab's card, then " + loadUnpacked(env) + "."
}

func sentence(clause string) string { return strings.ToUpper(clause[:1]) + clause[1:] + "." }

// disableReasonText names Chrome's reason codes
// (extensions/browser/disable_reason.h) that a user can act on.
func disableReasonText(codes []int) string {
	var parts []string
	for _, c := range codes {
		switch c {
		case 0:
			parts = append(parts, "switched off")
		case 1:
			parts = append(parts, "switched off by the user")
		case 4:
			parts = append(parts, "waiting for the user to accept new permissions")
		default:
			parts = append(parts, fmt.Sprintf("Chrome's disable reason %d", c))
		}
	}
	return strings.Join(parts, ", ")
}

// checkExtension: the extension loaded, enabled, at the pinned id and from
// the folder `agenttab install` keeps current; one finding per profile
// that has it, or one failure when none does.
func checkExtension(env Env, profiles []profile) []Finding {
	var out []Finding
	for _, p := range profiles {
		s, ok := p.exts[extension.ID]
		if !ok {
			continue
		}
		out = append(out, extensionFinding(env, p, s))
	}
	if len(out) > 0 {
		return out
	}
	where := "no browser profile was found"
	if len(profiles) > 0 {
		var dirs []string
		for _, p := range profiles {
			dirs = append(dirs, p.dir)
		}
		where = "not in " + strings.Join(dirs, ", ")
	}
	return []Finding{fail(CheckExtension, fmt.Sprintf("AgentTab (id %s) is not loaded: %s", extension.ID, where), sentence(loadUnpacked(env)))}
}

func extensionFinding(env Env, p profile, s extSetting) Finding {
	how := "loaded"
	switch s.Location {
	case locationUnpacked:
		how = "loaded unpacked"
	case locationCommandLine:
		how = "loaded by --load-extension"
	}
	if reasons := s.disabledReasons(); reasons != nil {
		return fail(CheckExtension, fmt.Sprintf("AgentTab is %s in %s but disabled (%s)", how, p.dir, disableReasonText(reasons)),
			"Open chrome://extensions and switch AgentTab on (the toggle on its card).")
	}
	folder := p.folder(s)
	if _, err := os.Stat(filepath.Join(folder, "manifest.json")); err != nil {
		return fail(CheckExtension, fmt.Sprintf("AgentTab in %s is loaded from %s, which has no manifest.json any more", p.dir, folder),
			reloadFix(env))
	}
	if (s.Location == locationUnpacked || s.Location == locationCommandLine) && !samePath(folder, env.State.Extension()) {
		return warn(CheckExtension, fmt.Sprintf("AgentTab in %s is %s from %s, not from %s, which `agenttab install` keeps current for this state directory", p.dir, how, folder, env.State.Extension()),
			reloadFix(env))
	}
	return ok(CheckExtension, fmt.Sprintf("AgentTab %s %s in %s, enabled, id %s", how, folder, p.dir, extension.ID))
}

// samePath compares two folders after resolving symlinks.
func samePath(a, b string) bool {
	ra, err1 := filepath.EvalSymlinks(a)
	rb, err2 := filepath.EvalSymlinks(b)
	if err1 != nil || err2 != nil {
		return filepath.Clean(a) == filepath.Clean(b)
	}
	return ra == rb
}
