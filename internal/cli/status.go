package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"github.com/agenttab/agenttab/internal/buildinfo"
	"io"
	"os"
	"time"

	"github.com/agenttab/agenttab/internal/corerpc"
	"github.com/agenttab/agenttab/internal/policy"
	"github.com/agenttab/agenttab/internal/statedir"
	"github.com/agenttab/agenttab/protocol"
)

func init() {
	register("status", "show the host's lifecycle, tasks and owned tabs, or why it cannot be reached", runStatus)
}

func runStatus(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("status", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print the status as JSON")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	dir, err := stateDir()
	if err != nil {
		return exitErr(stderr, err)
	}
	st, err := fetchStatus(ctx, dir)
	var refusal *protocol.Error
	if errors.As(err, &refusal) {
		explainRefusal(stdout, dir, refusal)
		return 1
	}
	if err != nil {
		explainUnreachable(stdout, dir, err)
		return 1
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.Encode(st)
		return 0
	}
	fmt.Fprintf(stdout, "host: %s (host %s, extension %s %s)\n", st.Lifecycle, buildinfo.Describe(st.HostVersion), st.ExtensionID, st.ExtensionVersion)
	if st.PauseReason == protocol.PauseByDebuggerCancel {
		fmt.Fprintln(stdout, "paused because the user clicked Cancel on Chrome's debugging banner; `agenttab resume` or the popup's Resume lifts it")
	}
	fmt.Fprintf(stdout, "tasks: %d\n", len(st.Tasks))
	for _, t := range st.Tasks {
		state := "attached"
		if !t.Attached {
			state = "detached (resumable)"
		}
		fmt.Fprintf(stdout, "  %s  %-10s %-8s %d owned tab(s), %s\n", t.ID, t.Label, t.Color, t.OwnedTabs, state)
	}
	return 0
}

func fetchStatus(ctx context.Context, dir statedir.Dir) (protocol.StatusResult, error) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	var st protocol.StatusResult
	c, err := corerpc.DialClient(ctx, dir.Socket(), nil)
	if err != nil {
		return st, err
	}
	defer c.Close()
	err = c.Call(ctx, protocol.MethodStatus, nil, &st)
	return st, err
}

// explainRefusal says what the running host answered instead of its
// status (too_many_connections, say) and what to do: that error's own
// recovery, which knows the case, not the advice for a host that is not
// running.
func explainRefusal(w io.Writer, dir statedir.Dir, e *protocol.Error) {
	fmt.Fprintf(w, "host: running at %s, but it refused this request: %s: %s\n", dir.Socket(), e.Code, e.Message)
	fmt.Fprintln(w, e.Recovery)
}

// explainUnreachable says why the host cannot be reached and what to do.
func explainUnreachable(w io.Writer, dir statedir.Dir, err error) {
	fmt.Fprintf(w, "host: not reachable at %s (%v)\n", dir.Socket(), err)
	if _, perr := policy.Load(dir.Policy()); perr != nil {
		fmt.Fprintf(w, "the host refuses to start because of the policy: %v\n", perr)
	}
	if _, serr := os.Stat(dir.Extension()); serr != nil {
		fmt.Fprintln(w, "AgentTab is not installed for this state directory: run `agenttab install`.")
	} else {
		fmt.Fprintf(w, "Open Chrome with the AgentTab extension loaded (unpacked from %s); Chrome starts the host.\n", dir.Extension())
	}
	if last := lastLine(dir.HostLog()); last != "" {
		fmt.Fprintf(w, "last host log line: %s\n", last)
	}
}

func lastLine(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	var last string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		last = sc.Text()
	}
	return last
}
