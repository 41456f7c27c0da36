package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/agenttab/agenttab/internal/corerpc"
	"github.com/agenttab/agenttab/protocol"
)

func init() {
	register("pause", "pause all agents: no browser work is admitted until `agenttab resume`", func(ctx context.Context, args []string, stdout, stderr io.Writer) int {
		return runPause(ctx, "pause", protocol.MethodPause, args, stdout, stderr)
	})
	register("resume", "resume agents after a pause (ownership is reconciled first)", func(ctx context.Context, args []string, stdout, stderr io.Writer) int {
		return runPause(ctx, "resume", protocol.MethodUnpause, args, stdout, stderr)
	})
}

// pauseTimeout covers Pause waiting for dispatched work to settle (60 s)
// and the extension's part.
const pauseTimeout = 2 * time.Minute

func runPause(ctx context.Context, name, method string, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "agenttab %s takes no arguments\n", name)
		return 2
	}
	dir, err := stateDir()
	if err != nil {
		return exitErr(stderr, err)
	}
	ctx, cancel := context.WithTimeout(ctx, pauseTimeout)
	defer cancel()
	c, err := corerpc.DialClient(ctx, dir.Socket(), nil)
	if err != nil {
		explainUnreachable(stdout, dir, err)
		return 1
	}
	defer c.Close()
	if method == protocol.MethodPause {
		// The host answers once dispatched work has settled (spec 001:
		// a barrier, not a toggle), which can take a while.
		fmt.Fprintln(stdout, "pausing: no new browser work is admitted; waiting for work already running to finish…")
	}
	var res protocol.PauseResult
	if err := c.Call(ctx, method, nil, &res); err != nil {
		var pe *protocol.Error
		if errors.As(err, &pe) {
			fmt.Fprintf(stderr, "agenttab %s: %s: %s\n%s\n", name, pe.Code, pe.Message, pe.Recovery)
			return 1
		}
		return exitErr(stderr, err)
	}
	if res.Paused {
		fmt.Fprintln(stdout, "paused: no browser work is admitted until `agenttab resume`")
		return 0
	}
	fmt.Fprintf(stdout, "resumed: %s", res.Lifecycle)
	if res.Revoked > 0 {
		fmt.Fprintf(stdout, "; %d tab(s) closed or moved out of their group while paused were revoked", res.Revoked)
	}
	fmt.Fprintln(stdout)
	return 0
}
