package extbuild

import (
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
)

// TestNoImportCycles: the extension's modules form a layering, not a web
// (issue 10: "the three import circles … are gone"). Type-only imports
// count too: they vanish at runtime but still tie the two files' designs
// together, which is the tangle the layering is meant to prevent.
func TestNoImportCycles(t *testing.T) {
	for _, c := range importCycles(t, filepath.Join(extDir(t), "src")) {
		t.Errorf("import cycle: %s", c)
	}
}

// TestImportCyclesFound: a cycle through a type-only, a multi-line and an
// export-from import is reported with its path; tests and imports outside
// the tree are not followed.
func TestImportCyclesFound(t *testing.T) {
	src := writeTree(t, map[string]string{
		"a.ts":        "import type { B } from \"./b\";\nexport type A = B;\n",
		"b.ts":        "import {\n  c,\n} from \"./dir/c\";\nexport type B = number;\nexport const b = c;\n",
		"dir/c.ts":    "export { a } from \"../a\";\nimport { x } from \"node:x\";\nexport const c = 1;\n",
		"d.ts":        "import { a } from \"./a\";\nconst s = \"import { d } from './d'\";\n",
		"a.test.ts":   "import { d } from \"./d\";\n",
		"dir/e.ts":    "import { f } from \"./f\";\n",
		"dir/f.ts":    "export const f = 1;\n",
		"self.ts":     "import { self } from \"./self\";\n",
		"virtual.ts":  "import page from \"page-agent\";\n",
		"readme.d.ts": "declare module \"page-agent\";\n",
	})
	got := importCycles(t, src)
	want := []string{"a.ts → b.ts → dir/c.ts → a.ts", "self.ts → self.ts"}
	if !slices.Equal(got, want) {
		t.Errorf("cycles %q, want %q", got, want)
	}
}

// importSpec is the module specifier of an import or export-from
// statement (static, side-effect, type-only, multi-line) at a line start.
var importSpec = regexp.MustCompile(`(?m)^[ \t]*(?:import|export)\s+(?:type\s+)?(?:[\w$]+\s*,?\s*)?(?:\{[^}]*\}|\*(?:\s+as\s+[\w$]+)?)?\s*(?:from\s*)?["']([^"'\n]+)["']`)

// importCycles returns the import cycles among the non-test .ts files
// under src, one per file in a strongly connected set (the shortest cycle
// through it), each as "a.ts → b.ts → a.ts", deduplicated and sorted.
func importCycles(t *testing.T, src string) []string {
	graph := map[string][]string{}
	eachTS(t, src, func(rel, code string) {
		if strings.HasSuffix(rel, ".test.ts") || strings.HasSuffix(rel, ".d.ts") {
			return
		}
		graph[rel] = nil
		for _, m := range importSpec.FindAllStringSubmatch(code, -1) {
			if to, ok := resolveImport(src, rel, m[1]); ok && !slices.Contains(graph[rel], to) {
				graph[rel] = append(graph[rel], to)
			}
		}
	})
	seen := map[string]bool{}
	var cycles []string
	files := make([]string, 0, len(graph))
	for f := range graph {
		files = append(files, f)
	}
	sort.Strings(files)
	for _, f := range files {
		c := shortestCycle(graph, f)
		if c == nil {
			continue
		}
		// Rotate to start at its least file so one cycle is reported once.
		least := 0
		for i := range c {
			if c[i] < c[least] {
				least = i
			}
		}
		c = append(c[least:], c[:least]...)
		key := strings.Join(append(c, c[0]), " → ")
		if !seen[key] {
			seen[key] = true
			cycles = append(cycles, key)
		}
	}
	sort.Strings(cycles)
	return cycles
}

// resolveImport maps a relative specifier in file from to the .ts file it
// names (as esbuild resolves this tree: extensionless, or a folder's
// index.ts); bare specifiers (node:, virtual modules) are outside it.
func resolveImport(src, from, spec string) (string, bool) {
	if !strings.HasPrefix(spec, "./") && !strings.HasPrefix(spec, "../") {
		return "", false
	}
	base := path.Join(path.Dir(from), spec)
	for _, cand := range []string{base + ".ts", base, base + "/index.ts"} {
		if st, err := os.Stat(filepath.Join(src, filepath.FromSlash(cand))); err == nil && !st.IsDir() && strings.HasSuffix(cand, ".ts") {
			return cand, true
		}
	}
	return "", false
}

// shortestCycle returns the shortest import path from f back to f
// (without repeating f at the end), or nil when f is on no cycle.
func shortestCycle(graph map[string][]string, f string) []string {
	prev := map[string]string{}
	queue := []string{f}
	for len(queue) > 0 {
		at := queue[0]
		queue = queue[1:]
		for _, to := range graph[at] {
			if to == f {
				c := []string{at}
				for c[0] != f {
					c = append([]string{prev[c[0]]}, c...)
				}
				return c
			}
			if _, ok := prev[to]; !ok {
				prev[to] = at
				queue = append(queue, to)
			}
		}
	}
	return nil
}
