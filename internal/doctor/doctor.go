package doctor

import (
	"context"

	"github.com/agenttab/agenttab/internal/chromium"
	"github.com/agenttab/agenttab/internal/install"
	"github.com/agenttab/agenttab/internal/statedir"
	"github.com/agenttab/agenttab/protocol"
)

// Env is what the checks read; System fills it for this machine, tests
// point it at a temporary one.
type Env struct {
	// State is the state directory (resolved, never created here).
	State statedir.Dir
	// UserDataDir is `--user-data-dir`: the one profile to check, for a
	// browser started with it (as `agenttab install --user-data-dir`).
	UserDataDir string
	Finder      chromium.Finder
	// Places lists the browsers' user-data dirs and manifest paths
	// (install.Places).
	Places func(userDataDir string) ([]install.Place, error)
	// SystemManifests are the machine-wide manifest paths under our name
	// (install.SystemManifests).
	SystemManifests []string
	// MachineRegistrations lists the machine-wide registry keys under our
	// name (install.MachineRegistrations; none off Windows). Nil reads
	// none.
	MachineRegistrations func() ([]install.Registration, error)
	// Self is this agenttab's absolute path; Version its version.
	Self    string
	Version string
	// Status asks the running host for its status over Core RPC.
	Status func(ctx context.Context) (protocol.StatusResult, error)
}

// System is the Env for this machine and state directory.
func System(state statedir.Dir, userDataDir, self, version string, status func(context.Context) (protocol.StatusResult, error)) Env {
	return Env{
		State: state, UserDataDir: userDataDir, Finder: chromium.System(),
		Places: install.Places, SystemManifests: install.SystemManifests(), MachineRegistrations: install.MachineRegistrations,
		Self: self, Version: version, Status: status,
	}
}

// Run runs every check in Checks' order and returns the findings in that
// order (a check may give more than one).
func Run(ctx context.Context, env Env) []Finding {
	var out []Finding
	out = append(out, checkBrowser(env.Finder))

	places, err := env.Places(env.UserDataDir)
	if err != nil {
		out = append(out, fail(CheckExtension, "cannot list the browsers' profiles: "+err.Error(), "Pass --user-data-dir DIR with the profile folder your browser uses."))
	}
	profiles := readProfiles(places)
	out = append(out, checkExtension(env, profiles)...)
	out = append(out, checkManifests(env, places)...)
	out = append(out, checkNameConflicts(env, places, profiles)...)

	st, stErr := env.Status(ctx)
	out = append(out, checkHost(env, st, stErr)...)
	out = append(out, checkStateFiles(env.State)...)
	out = append(out, checkPolicy(env.State))
	out = append(out, checkPause(st, stErr))
	out = append(out, checkAutomation(profiles))
	out = append(out, checkHostLog(env.State))
	return out
}
