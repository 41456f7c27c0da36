package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/agenttab/agenttab/internal/install"
)

func init() {
	register("install", "write the extension to STATE/extension and register the native host with your browsers", runInstall)
	register("uninstall", "remove the native-host registrations and STATE/extension", runUninstall)
}

// installFlags are shared by install and uninstall, which must agree on
// where things go.
func installFlags(name string, stderr io.Writer) (*flag.FlagSet, *string, *string, *bool) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	browser := fs.String("browser", "all", "chrome, chromium, edge, brave, or all (every detected browser); comma-separated for several")
	udd := fs.String("user-data-dir", "", "register only in this browser profile directory (DIR/NativeMessagingHosts), for a browser started with --user-data-dir (not on Windows, where Chrome reads the registry)")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	return fs, browser, udd, asJSON
}

func installOptions(browser, udd string) (install.Options, error) {
	dir, err := stateDir()
	if err != nil {
		return install.Options{}, err
	}
	self, err := selfPath()
	if err != nil {
		return install.Options{}, err
	}
	return install.Options{Browsers: strings.Split(browser, ","), UserDataDir: udd, StateDir: string(dir), HostPath: self}, nil
}

func runInstall(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs, browser, udd, asJSON := installFlags("install", stderr)
	if err := fs.Parse(args); err != nil {
		return 2
	}
	opts, err := installOptions(*browser, *udd)
	if err != nil {
		return exitErr(stderr, err)
	}
	res, err := install.Install(opts)
	if err != nil {
		return exitErr(stderr, err)
	}
	if *asJSON {
		json.NewEncoder(stdout).Encode(res)
		return 0
	}
	fmt.Fprintf(stdout, "extension written to %s (id %s)\n", res.ExtensionDir, res.ExtensionID)
	// On Linux and macOS the manifest's folder is the registration; on
	// Windows a registry key points at the manifest.
	label := "native host registered"
	if len(res.RegistryKeys) > 0 {
		label = "native host manifest"
	}
	for _, m := range res.Manifests {
		fmt.Fprintf(stdout, "%s: %s\n", label, m)
	}
	for _, k := range res.RegistryKeys {
		fmt.Fprintf(stdout, "native host registered: %s\n", k)
	}
	fmt.Fprintf(stdout, "Next: open chrome://extensions, turn on Developer mode, Load unpacked → %s\n", res.ExtensionDir)
	return 0
}

func runUninstall(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs, browser, udd, asJSON := installFlags("uninstall", stderr)
	if err := fs.Parse(args); err != nil {
		return 2
	}
	opts, err := installOptions(*browser, *udd)
	if err != nil {
		return exitErr(stderr, err)
	}
	removed, err := install.Uninstall(opts)
	if err != nil {
		return exitErr(stderr, err)
	}
	if *asJSON {
		json.NewEncoder(stdout).Encode(map[string][]string{"removed": removed})
		return 0
	}
	for _, r := range removed {
		fmt.Fprintf(stdout, "removed %s\n", r)
	}
	fmt.Fprintln(stdout, "Remove the extension from chrome://extensions as well.")
	return 0
}
