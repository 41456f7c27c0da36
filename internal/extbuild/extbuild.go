// Package extbuild turns extension/src into the loadable extension
// (extension/dist): it bundles the TypeScript with esbuild's Go API, copies
// the popup page and writes manifest.json, so that `go install` yields a
// complete product with no Node (DESIGN.md "Chosen dependencies"). It also
// bundles the unit tests for `node --test`.
//
// Its output must be a pure function of the sources: no timestamps, no
// absolute paths, no source maps. It never writes into extension/src.
package extbuild

import (
	"errors"
	"fmt"
	"go/build"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
)

// ExtensionPath is the Go package that holds the extension's sources.
const ExtensionPath = "github.com/agenttab/agenttab/extension"

// Command regenerates extension/dist; failures name it.
const Command = "go generate ./extension"

// entries maps each bundle in dist to its TypeScript entry point.
var entries = []api.EntryPoint{
	{InputPath: "src/background/main.ts", OutputPath: "background"},
	{InputPath: "src/popup/main.ts", OutputPath: "popup"},
}

// copied are files taken as they are, from extension/ to dist.
var copied = map[string]string{
	"src/popup/popup.html": "popup.html",
}

// ExtensionDir finds extension/ through the go command, so the generator
// and the tests work from any directory inside the module.
func ExtensionDir() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	pkg, err := build.Import(ExtensionPath, wd, build.FindOnly)
	if err != nil {
		return "", fmt.Errorf("locate %s: %w", ExtensionPath, err)
	}
	return pkg.Dir, nil
}

// baseOptions are the esbuild options every bundle shares: in memory,
// deterministic (no source maps, no legal comments), for the minimum Chrome.
func baseOptions(extDir string, format api.Format) api.BuildOptions {
	return api.BuildOptions{
		AbsWorkingDir: extDir,
		Bundle:        true,
		Format:        format,
		Platform:      api.PlatformBrowser,
		Engines:       []api.Engine{{Name: api.EngineChrome, Version: MinimumChromeVersion}},
		Charset:       api.CharsetUTF8,
		LegalComments: api.LegalCommentsNone,
		Sourcemap:     api.SourceMapNone,
		LogLevel:      api.LogLevelSilent,
		Write:         false,
	}
}

// Build returns the contents of dist, keyed by slash-separated path.
func Build(extDir string) (map[string][]byte, error) {
	extDir, err := filepath.Abs(extDir)
	if err != nil {
		return nil, err
	}
	const out = "dist"
	opts := baseOptions(extDir, api.FormatESModule)
	opts.EntryPointsAdvanced = entries
	opts.Outdir = out
	opts.Plugins = []api.Plugin{pageAgentPlugin(extDir)}
	res := api.Build(opts)
	if err := buildError(res); err != nil {
		return nil, err
	}
	files := map[string][]byte{}
	for _, f := range res.OutputFiles {
		rel, err := filepath.Rel(filepath.Join(extDir, out), f.Path)
		if err != nil {
			return nil, err
		}
		files[filepath.ToSlash(rel)] = f.Contents
	}
	for src, dst := range copied {
		b, err := os.ReadFile(filepath.Join(extDir, filepath.FromSlash(src)))
		if err != nil {
			return nil, err
		}
		files[dst] = b
	}
	// The scripting route injects the page agent as a file: the extension's
	// CSP forbids evaluating the bundled string in a content-script world.
	agent, err := PageAgentBundle(extDir)
	if err != nil {
		return nil, err
	}
	files["page-agent.js"] = []byte(agent)
	m, err := Manifest()
	if err != nil {
		return nil, err
	}
	files["manifest.json"] = m
	return files, nil
}

// Write replaces the contents of dir with files. Everything is built before
// this is called, so a failed build leaves dir as it was; files no longer
// produced are removed.
func Write(dir string, files map[string][]byte) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	existing, err := List(dir)
	if err != nil {
		return err
	}
	for _, name := range existing {
		if _, ok := files[name]; !ok {
			if err := os.Remove(filepath.Join(dir, filepath.FromSlash(name))); err != nil {
				return err
			}
		}
	}
	for name, b := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// List returns the regular files under dir, slash-separated and sorted.
func List(dir string) ([]string, error) {
	var names []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		names = append(names, filepath.ToSlash(rel))
		return err
	})
	sort.Strings(names)
	return names, err
}

// BuildTests bundles every src/**/*.test.ts into outDir as .mjs files
// (keeping their folders), for `node --test outDir`, after removing the
// .test.mjs files an earlier run left there (a deleted test must not keep
// running). It returns the bundles' paths relative to outDir. The bundles
// carry inline source maps, so failures point into the TypeScript.
func BuildTests(extDir, outDir string) ([]string, error) {
	extDir, err := filepath.Abs(extDir)
	if err != nil {
		return nil, err
	}
	outDir, err = filepath.Abs(outDir)
	if err != nil {
		return nil, err
	}
	src := filepath.Join(extDir, "src")
	var tests []string
	err = filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".test.ts") {
			tests = append(tests, p)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	if len(tests) == 0 {
		return nil, fmt.Errorf("no *.test.ts under %s", src)
	}
	if err := removeTestBundles(outDir); err != nil {
		return nil, err
	}
	res := api.Build(api.BuildOptions{
		AbsWorkingDir: extDir,
		EntryPoints:   tests,
		Outbase:       src,
		Outdir:        outDir,
		OutExtension:  map[string]string{".js": ".mjs"},
		Bundle:        true,
		Format:        api.FormatESModule,
		Platform:      api.PlatformNode,
		Engines:       []api.Engine{{Name: api.EngineNode, Version: "20"}},
		Sourcemap:     api.SourceMapInline,
		LogLevel:      api.LogLevelSilent,
		Write:         true,
	})
	if err := buildError(res); err != nil {
		return nil, err
	}
	var out []string
	for _, f := range res.OutputFiles {
		rel, err := filepath.Rel(outDir, f.Path)
		if err != nil {
			return nil, err
		}
		out = append(out, filepath.ToSlash(rel))
	}
	sort.Strings(out)
	return out, nil
}

func removeTestBundles(dir string) error {
	names, err := List(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	for _, name := range names {
		if strings.HasSuffix(name, ".test.mjs") {
			if err := os.Remove(filepath.Join(dir, filepath.FromSlash(name))); err != nil {
				return err
			}
		}
	}
	return nil
}

func buildError(res api.BuildResult) error {
	if len(res.Errors) == 0 {
		return nil
	}
	msgs := api.FormatMessages(res.Errors, api.FormatMessagesOptions{Kind: api.ErrorMessage})
	return fmt.Errorf("esbuild:\n%s", strings.Join(msgs, ""))
}
