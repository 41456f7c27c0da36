package cli

import (
	"context"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/agenttab/agenttab/internal/statedir"
)

// command is one subcommand.
type command struct {
	summary string
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer) int
}

// commands is the registry every subcommand adds itself to; help lists it
// (sorted), so a new command cannot be left out of help.
var commands = map[string]command{}

func register(name, summary string, run func(ctx context.Context, args []string, stdout, stderr io.Writer) int) {
	commands[name] = command{summary: summary, run: run}
}

// Main runs agenttab with args (without the program name) and returns the
// exit code.
func Main(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	// Chrome starts a native host as `agenttab chrome-extension://ID/`
	// (plus `--parent-window=N` on Windows).
	for _, a := range args {
		if strings.HasPrefix(a, "chrome-extension://") {
			return runHost(ctx, a, stdin, stdout, stderr)
		}
	}
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		usage(stdout)
		return 0
	}
	if args[0] == "--version" {
		args = []string{"version"}
	}
	cmd, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "agenttab: unknown command %q\n\n", args[0])
		usage(stderr)
		return 2
	}
	return cmd.run(ctx, args[1:], stdout, stderr)
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "AgentTab: task-owned tabs for AI agents in your own Chrome.")
	fmt.Fprintln(w, "\nUsage: agenttab <command> [flags]\n\nCommands:")
	for _, name := range slices.Sorted(maps.Keys(commands)) {
		fmt.Fprintf(w, "  %-10s %s\n", name, commands[name].summary)
	}
	fmt.Fprintln(w, "\nEvery command uses the state directory in AGENTTAB_STATE_DIR when it is set.")
}

// stateDir resolves and creates the state directory.
func stateDir() (statedir.Dir, error) {
	d, err := statedir.Resolve()
	if err != nil {
		return "", err
	}
	if err := statedir.Ensure(d); err != nil {
		return "", err
	}
	return statedir.Dir(d), nil
}

// exitErr prints err and returns exit code 1.
func exitErr(stderr io.Writer, err error) int {
	fmt.Fprintf(stderr, "agenttab: %v\n", err)
	return 1
}

func selfPath() (string, error) {
	p, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("locating the agenttab binary: %w", err)
	}
	return p, nil
}
