package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/agenttab/agenttab/internal/buildinfo"
	"github.com/agenttab/agenttab/internal/doctor"
	"github.com/agenttab/agenttab/internal/statedir"
	"github.com/agenttab/agenttab/protocol"
)

func init() {
	register("doctor", "check the browser, extension, host manifests, host, state files, policy and Pause, each with its fix", runDoctor)
}

func runDoctor(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("doctor", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print the findings as a JSON array")
	udd := fs.String("user-data-dir", "", "check only this browser profile folder (for a browser started with --user-data-dir)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	// Resolve, never Ensure: Ensure would create the folder or narrow its
	// mode, and doctor reports what it finds.
	d, err := statedir.Resolve()
	if err != nil {
		return exitErr(stderr, err)
	}
	dir := statedir.Dir(d)
	self, err := selfPath()
	if err != nil {
		return exitErr(stderr, err)
	}
	status := func(ctx context.Context) (protocol.StatusResult, error) { return fetchStatus(ctx, dir) }
	findings := doctor.Run(ctx, doctor.System(dir, *udd, self, buildinfo.Version, status))
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.Encode(findings)
	} else {
		printFindings(stdout, findings)
	}
	if doctor.Failed(findings) {
		return 1
	}
	return 0
}

func printFindings(w io.Writer, findings []doctor.Finding) {
	for _, f := range findings {
		fmt.Fprintf(w, "%-4s  %-13s %s\n", strings.ToUpper(string(f.Status)), f.Check, strings.ReplaceAll(f.Message, "\n", "\n"+strings.Repeat(" ", 20)))
		if f.Fix != "" {
			fmt.Fprintf(w, "%20sfix: %s\n", "", f.Fix)
		}
	}
}
