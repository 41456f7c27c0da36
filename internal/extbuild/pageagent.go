package extbuild

import (
	"fmt"
	"path/filepath"

	"github.com/evanw/esbuild/pkg/api"
)

// PageAgentEntry is the page agent's entry point, relative to extension/.
const PageAgentEntry = "src/page/agent.ts"

// PageAgentBundle bundles the page agent (src/page/agent.ts) as one IIFE
// script. The service worker evaluates it in AgentTab's isolated world of
// each frame (Page.createIsolatedWorld + Runtime.evaluate), where it
// installs globalThis.__agenttab (src/shared/page-agent.ts); the page tests
// in e2e/pageagent evaluate the same string. Like Build, the output is a
// pure function of the sources.
func PageAgentBundle(extDir string) (string, error) {
	extDir, err := filepath.Abs(extDir)
	if err != nil {
		return "", err
	}
	opts := baseOptions(extDir, api.FormatIIFE)
	opts.EntryPoints = []string{PageAgentEntry}
	opts.Outfile = "page-agent.js"
	res := api.Build(opts)
	if err := buildError(res); err != nil {
		return "", err
	}
	if len(res.OutputFiles) != 1 {
		return "", fmt.Errorf("esbuild: page agent produced %d files, want 1", len(res.OutputFiles))
	}
	return string(res.OutputFiles[0].Contents), nil
}
