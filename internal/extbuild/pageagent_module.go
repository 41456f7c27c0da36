package extbuild

import (
	"bytes"
	"encoding/json"
	"regexp"

	"github.com/evanw/esbuild/pkg/api"
)

// PageAgentModule is the import path under which the service worker gets
// the page agent's bundled source (src/background/virtual-modules.d.ts):
// `import pageAgent from "virtual:page-agent"` is a string holding the
// IIFE that PageAgentBundle builds, evaluated in each frame's isolated
// world through chrome.debugger. Building it into the background bundle
// keeps dist one pure function of the sources, with no extra file to load
// at run time.
const PageAgentModule = "virtual:page-agent"

const pageAgentNamespace = "agenttab-page-agent"

// pageAgentPlugin resolves PageAgentModule to `export default "<source>"`.
func pageAgentPlugin(extDir string) api.Plugin {
	return api.Plugin{
		Name: "page-agent",
		Setup: func(b api.PluginBuild) {
			b.OnResolve(api.OnResolveOptions{Filter: "^" + regexp.QuoteMeta(PageAgentModule) + "$"},
				func(api.OnResolveArgs) (api.OnResolveResult, error) {
					return api.OnResolveResult{Path: PageAgentModule, Namespace: pageAgentNamespace}, nil
				})
			b.OnLoad(api.OnLoadOptions{Filter: ".*", Namespace: pageAgentNamespace},
				func(api.OnLoadArgs) (api.OnLoadResult, error) {
					src, err := PageAgentBundle(extDir)
					if err != nil {
						return api.OnLoadResult{}, err
					}
					var lit bytes.Buffer
					enc := json.NewEncoder(&lit)
					enc.SetEscapeHTML(false)
					if err := enc.Encode(src); err != nil {
						return api.OnLoadResult{}, err
					}
					contents := "export default " + string(bytes.TrimSpace(lit.Bytes())) + ";\n"
					return api.OnLoadResult{Contents: &contents, Loader: api.LoaderJS}, nil
				})
		},
	}
}
