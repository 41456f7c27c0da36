package doctor

import (
	"errors"
	"fmt"
	"os"

	"github.com/agenttab/agenttab/extension"
	"github.com/agenttab/agenttab/protocol"
)

// updateFix is the one fix for any version or id mismatch between this
// CLI, the host and the extension (protocol.RecoveryUpdate says the same to
// agents).
const updateFix = "Run `agenttab install`, then click the reload button on AgentTab's card in chrome://extensions."

// checkHost: the host's lifecycle and the three versions.
func checkHost(env Env, st protocol.StatusResult, err error) []Finding {
	sock := env.State.Socket()
	var refusal *protocol.Error
	switch {
	case errors.As(err, &refusal):
		return []Finding{fail(CheckHost, fmt.Sprintf("the host at %s refused doctor's status request: %s: %s", sock, refusal.Code, refusal.Message), refusal.Recovery)}
	case err != nil:
		why := "no socket: the host is not running"
		if _, serr := os.Stat(sock); serr == nil {
			why = "the socket is there but nobody answers (a host that exited uncleanly): " + err.Error()
		}
		return []Finding{fail(CheckHost, fmt.Sprintf("host not reachable at %s (%s)", sock, why),
			"Fix the failures above, then start Chrome (or click the reload button on AgentTab's card in chrome://extensions): the extension starts the host, and this check turns ok.")}
	}
	var out []Finding
	if st.HostVersion != env.Version {
		out = append(out, fail(CheckHost, fmt.Sprintf("the host (%s) is version %s, this agenttab is %s", st.Lifecycle, st.HostVersion, env.Version), updateFix))
	}
	if st.ExtensionVersion != "" && st.ExtensionVersion != extension.Version {
		out = append(out, fail(CheckHost, fmt.Sprintf("the extension is version %s, this agenttab carries %s", st.ExtensionVersion, extension.Version), updateFix))
	}
	if st.ExtensionID != "" && st.ExtensionID != extension.ID {
		out = append(out, fail(CheckHost, fmt.Sprintf("the host serves extension %s, not AgentTab's id %s", st.ExtensionID, extension.ID), updateFix))
	}
	switch st.Lifecycle {
	case protocol.LifecycleReady, protocol.LifecyclePausing, protocol.LifecyclePaused:
		if len(out) == 0 {
			out = append(out, ok(CheckHost, fmt.Sprintf("host %s, lifecycle %s, extension %s %s", st.HostVersion, st.Lifecycle, st.ExtensionID, st.ExtensionVersion)))
		}
	default:
		out = append([]Finding{warn(CheckHost, fmt.Sprintf("host %s is %s: it is not ready yet (it waits for the extension's handshake and reconciles ownership)", st.HostVersion, st.Lifecycle),
			"Wait a few seconds and run `agenttab doctor` again; if it stays there, click the reload button on AgentTab's card in chrome://extensions.")}, out...)
	}
	return out
}

// checkPause: the Pause and who set it, from the running host.
func checkPause(st protocol.StatusResult, err error) Finding {
	if err != nil {
		return warn(CheckPause, "cannot tell whether agents are paused: the host is not reachable (a Pause is kept and applies when it starts)", "Fix the host finding above, then run `agenttab doctor` again.")
	}
	switch st.Lifecycle {
	case protocol.LifecyclePaused, protocol.LifecyclePausing:
		who := "by the user (the popup's Pause or `agenttab pause`)"
		if st.PauseReason == protocol.PauseByDebuggerCancel {
			who = "because Cancel was clicked on Chrome's debugging banner"
		}
		return warn(CheckPause, fmt.Sprintf("agents are %s %s: no browser work runs", st.Lifecycle, who),
			"Run `agenttab resume`, or click AgentTab's toolbar button and then Resume agents.")
	}
	return ok(CheckPause, "agents are not paused")
}

// checkAutomation: the optional scripting permission (the scripting
// route serves top-frame work when Chrome refuses the debugger), as Chrome
// recorded it in the profile where AgentTab is loaded.
func checkAutomation(profiles []profile) Finding {
	for _, p := range profiles {
		s, found := p.exts[extension.ID]
		if !found {
			continue
		}
		if s.hasAPI("scripting") {
			return ok(CheckAutomation, "automation through scripting is on (the optional scripting permission is granted in "+p.dir+")")
		}
		return ok(CheckAutomation, "automation through scripting is off: when Chrome refuses the debugger, page work fails instead of using the scripting route; to turn it on, click AgentTab's toolbar button and tick \"Automation through scripting when Chrome refuses the debugger\"")
	}
	return warn(CheckAutomation, "cannot tell whether automation through scripting is on: AgentTab is not in any profile found", "Fix the extension finding above, then run `agenttab doctor` again.")
}
