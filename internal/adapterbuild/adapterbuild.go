// Package adapterbuild bundles the adapters' TypeScript (adapters/core and
// the adapters on it) for Node with esbuild's Go API, so that their unit
// tests and the Go tests that drive the client (the conformance test) need
// no Node toolchain beyond node itself. It bundles in memory and never
// writes into adapters/.
package adapterbuild

import (
	"errors"
	"fmt"
	"go/build"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
)

// CorePath is the Go package (generate.go) that holds the core client.
const CorePath = "github.com/agenttab/agenttab/adapters/core"

// CoreDir finds adapters/core through the go command, from any directory
// inside the module.
func CoreDir() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	pkg, err := build.Import(CorePath, wd, build.FindOnly)
	if err != nil {
		return "", fmt.Errorf("locate %s: %w", CorePath, err)
	}
	return pkg.Dir, nil
}

// options are what every bundle shares: ES modules for Node 20 (the
// minimum the adapters support), deterministic, in memory.
func options(dir string) api.BuildOptions {
	return api.BuildOptions{
		AbsWorkingDir: dir,
		Bundle:        true,
		Format:        api.FormatESModule,
		Platform:      api.PlatformNode,
		Engines:       []api.Engine{{Name: api.EngineNode, Version: "20"}},
		Charset:       api.CharsetUTF8,
		LegalComments: api.LegalCommentsNone,
		Sourcemap:     api.SourceMapNone,
		LogLevel:      api.LogLevelSilent,
		Write:         false,
	}
}

// Bundle returns entry (a path relative to dir, or absolute) bundled into
// one ES module.
func Bundle(dir, entry string) ([]byte, error) {
	opts := options(dir)
	opts.EntryPoints = []string{entry}
	opts.Outfile = "out.mjs"
	res := api.Build(opts)
	if err := buildError(res); err != nil {
		return nil, err
	}
	if len(res.OutputFiles) != 1 {
		return nil, fmt.Errorf("adapterbuild: %s: %d output files", entry, len(res.OutputFiles))
	}
	return res.OutputFiles[0].Contents, nil
}

// Tests bundles every src/*.test.ts under dir into out as NAME.test.mjs,
// for `node --test out`.
func Tests(dir, out string) error {
	tests, err := filepath.Glob(filepath.Join(dir, "src", "*.test.ts"))
	if err != nil {
		return err
	}
	if len(tests) == 0 {
		return fmt.Errorf("adapterbuild: no tests in %s/src", dir)
	}
	sort.Strings(tests)
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	for _, t := range tests {
		b, err := Bundle(dir, t)
		if err != nil {
			return err
		}
		name := strings.TrimSuffix(filepath.Base(t), ".ts") + ".mjs"
		if err := os.WriteFile(filepath.Join(out, name), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

func buildError(res api.BuildResult) error {
	if len(res.Errors) == 0 {
		return nil
	}
	var msgs []string
	for _, m := range res.Errors {
		loc := ""
		if m.Location != nil {
			loc = fmt.Sprintf("%s:%d: ", m.Location.File, m.Location.Line)
		}
		msgs = append(msgs, loc+m.Text)
	}
	return errors.New("adapterbuild: " + strings.Join(msgs, "\n"))
}
