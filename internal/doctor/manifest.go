package doctor

import (
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"strings"

	"github.com/agenttab/agenttab/internal/install"
)

// installFix is the command that rewrites the manifest for place, with
// this agenttab's path.
func installFix(env Env, pl install.Place) string {
	switch {
	case env.UserDataDir != "":
		return fmt.Sprintf("Run `%s install --user-data-dir %s`.", env.Self, env.UserDataDir)
	case pl.Browser != "":
		return fmt.Sprintf("Run `%s install --browser %s`.", env.Self, pl.Browser)
	}
	return fmt.Sprintf("Run `%s install`.", env.Self)
}

// readManifest reads and decodes a manifest; exists is false when there is
// no file.
func readManifest(path string) (m install.Manifest, exists bool, err error) {
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return m, false, nil
	}
	if err != nil {
		return m, true, err
	}
	if err := json.Unmarshal(data, &m); err != nil {
		return m, true, fmt.Errorf("it is not JSON: %w", err)
	}
	return m, true, nil
}

// checkManifests: our manifest in each detected browser's location, with
// the exact name, type and origin and an absolute path to an existing
// executable, which should be this agenttab.
func checkManifests(env Env, places []install.Place) []Finding {
	if len(places) == 0 {
		return []Finding{fail(CheckManifest, "no browser location to register the host in: no supported browser was detected", "Install a browser (see the browser finding), start it once, then run `"+env.Self+" install`.")}
	}
	var out []Finding
	for _, pl := range places {
		out = append(out, manifestFinding(env, pl))
	}
	return out
}

func manifestFinding(env Env, pl install.Place) Finding {
	fix := installFix(env, pl)
	if pl.Manifest == "" {
		// Windows: the browser's HKCU key names no manifest
		// (install.Places).
		return fail(CheckManifest, fmt.Sprintf("%s has no native-host registration for AgentTab in the registry: Chrome cannot start the host", pl.Browser), fix)
	}
	m, exists, err := readManifest(pl.Manifest)
	switch {
	case !exists:
		return fail(CheckManifest, "no host manifest at "+pl.Manifest+": Chrome cannot start the host", fix)
	case err != nil:
		return fail(CheckManifest, fmt.Sprintf("host manifest %s: %v", pl.Manifest, err), fix)
	}
	if p := install.ManifestProblem(m); p != "" {
		return fail(CheckManifest, fmt.Sprintf("host manifest %s: %s", pl.Manifest, p), fix)
	}
	if p := executableProblem(m.Path); p != "" {
		return fail(CheckManifest, fmt.Sprintf("host manifest %s names %s, which %s", pl.Manifest, m.Path, p), fix)
	}
	if env.Self != "" && !samePath(m.Path, env.Self) {
		// Running another binary to ask its version is not doctor's to do;
		// say which one Chrome starts.
		return warn(CheckManifest, fmt.Sprintf("host manifest %s names %s, not this agenttab (%s, version %s): Chrome starts that one, whose version doctor cannot tell", pl.Manifest, m.Path, env.Self, env.Version),
			strings.TrimSuffix(fix, ".")+" to point Chrome at this agenttab, or run `"+m.Path+" doctor` if that is the one you use.")
	}
	return ok(CheckManifest, fmt.Sprintf("host manifest %s: origin %s, path %s", pl.Manifest, m.AllowedOrigins[0], m.Path))
}

// executableProblem says why Chrome could not start path, or "".
func executableProblem(path string) string {
	fi, err := os.Stat(path)
	switch {
	case err != nil:
		return "does not exist"
	case !fi.Mode().IsRegular():
		return "is not a regular file"
	case runtime.GOOS != "windows" && fi.Mode().Perm()&0o111 == 0:
		return fmt.Sprintf("is not executable (mode %04o)", fi.Mode().Perm())
	}
	return ""
}
