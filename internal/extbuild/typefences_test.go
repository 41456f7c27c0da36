package extbuild

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// typeFenceTree is a small extension: one clean file per layer and tests
// that use what their projects give them, then one file per fence that
// crosses it. Crossing files import leaves (dom.ts, clock.ts), so the
// compiler's complaint is the crossing file's alone.
var typeFenceTree = map[string]string{
	"protocol/generated.ts": "export const VERSION = 1;\n",
	"shared/status.ts":      "import { VERSION } from \"../protocol/generated\";\nexport const STATUS = VERSION;\n",
	"page/dom.ts":           "export const body = (): Element | null => document.body;\n",
	"page/agent.ts":         "import { STATUS } from \"../shared/status\";\nimport { body } from \"./dom\";\nexport const status = STATUS;\nexport const found = body() !== null;\n",
	"page/agent.test.ts":    "import assert from \"node:assert/strict\";\nimport { status } from \"./agent\";\nassert.equal(status, 1);\n",
	"chrome/api.ts":         "export interface ChromeApi {\n  id(): string;\n}\n",
	"chrome/real.ts":        "import type { ChromeApi } from \"./api\";\nexport const realChrome = (): ChromeApi => ({ id: () => chrome.runtime.id });\n",
	"background/clock.ts":   "export const now = (): number => 0;\n",
	"background/main.ts":    "import { realChrome } from \"../chrome/real\";\nimport { STATUS } from \"../shared/status\";\nimport { now } from \"./clock\";\nexport const id = realChrome().id() + String(STATUS + now());\n",
	"popup/main.ts":         "import { realChrome } from \"../chrome/real\";\nimport { STATUS } from \"../shared/status\";\nexport const shown = `${realChrome().id()} ${STATUS}`;\n",
	"testing/kit.ts":        "import { Buffer } from \"node:buffer\";\nimport { id } from \"../background/main\";\nexport const kit = Buffer.from(id);\n",

	"page/imports-background.ts":  "import { now } from \"../background/clock\";\nexport const at = now();\n",
	"page/uses-chrome.ts":         "export const id = chrome.runtime.id;\n",
	"page/uses-node.ts":           "import { readFileSync } from \"node:fs\";\nexport const read = readFileSync;\n",
	"shared/uses-chrome.ts":       "export const id = chrome.runtime.id;\n",
	"protocol/imports-shared.ts":  "import { STATUS } from \"../shared/status\";\nexport const status = STATUS;\n",
	"background/imports-page.ts":  "import { body } from \"../page/dom\";\nexport const found = body();\n",
	"background/uses-chrome.ts":   "export const id = chrome.runtime.id;\n",
	"popup/imports-background.ts": "import { now } from \"../background/clock\";\nexport const at = now();\n",
	"page/uses-chrome.test.ts":    "export const id = chrome.runtime.id;\n",
}

// TestTypeFences: the compiler, with the real tsconfigs, refuses each
// crossing of typeFenceTree and nothing else. An import from outside a
// layer's referenced projects is TS6307 (the layer is composite); chrome's
// types exist only in src/chrome and node's only in the tests project,
// so `chrome` or `node:` elsewhere cannot be named (TS2304, TS2591).
func TestTypeFences(t *testing.T) {
	ext := extDir(t)
	tsc := filepath.Join(ext, "node_modules", ".bin", "tsc")
	if _, err := os.Stat(tsc); err != nil {
		t.Fatalf("no TypeScript compiler (%v): run scripts/deps.sh", err)
	}
	files := map[string]string{}
	configs, err := filepath.Glob(filepath.Join(ext, "tsconfig*.json"))
	if err != nil {
		t.Fatal(err)
	}
	layers, err := filepath.Glob(filepath.Join(ext, "src", "*", "tsconfig.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range append(configs, layers...) {
		raw, err := os.ReadFile(c)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(ext, c)
		files[filepath.ToSlash(rel)] = string(raw)
		// A layer the tree has no file for would fail as empty (TS18003).
		if layer := filepath.Dir(rel); layer != "." && !hasFileUnder(typeFenceTree, filepath.Base(layer)+"/") {
			files[filepath.ToSlash(layer)+"/empty.ts"] = "export {};\n"
		}
	}
	for name, code := range typeFenceTree {
		files["src/"+name] = code
	}
	tree := writeTree(t, files)
	if err := os.MkdirAll(filepath.Join(tree, "node_modules"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(ext, "node_modules", "@types"), filepath.Join(tree, "node_modules", "@types")); err != nil {
		t.Fatal(err)
	}

	cmd := exec.Command(tsc, "-b", ".", "--pretty", "false")
	cmd.Dir = tree
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("tsc: %v\n%s", err, out)
	}
	want := map[string][]string{
		"src/page/imports-background.ts":  {"TS6307"},
		"src/page/uses-chrome.ts":         {"TS2304"},
		"src/page/uses-node.ts":           {"TS2591"},
		"src/shared/uses-chrome.ts":       {"TS2304"},
		"src/protocol/imports-shared.ts":  {"TS6307"},
		"src/background/imports-page.ts":  {"TS6307"},
		"src/background/uses-chrome.ts":   {"TS2304"},
		"src/popup/imports-background.ts": {"TS6307"},
		"src/page/uses-chrome.test.ts":    {"TS2304"},
	}
	if diff := cmp.Diff(want, tscErrors(string(out))); diff != "" {
		t.Errorf("tsc's errors by file (-want +got):\n%s\ntsc said:\n%s", diff, out)
	}
}

// tscError is one diagnostic line of `tsc --pretty false`.
var tscError = regexp.MustCompile(`^(\S+)\(\d+,\d+\): error (TS\d+):`)

// tscErrors returns the error codes tsc reported, by file (sorted, each
// once); an error line without a file is filed under "".
func tscErrors(out string) map[string][]string {
	got := map[string][]string{}
	for _, line := range strings.Split(out, "\n") {
		if line == "" || strings.HasPrefix(line, " ") {
			continue
		}
		file, code := "", line
		if m := tscError.FindStringSubmatch(line); m != nil {
			file, code = filepath.ToSlash(m[1]), m[2]
		}
		if !slices.Contains(got[file], code) {
			got[file] = append(got[file], code)
			slices.Sort(got[file])
		}
	}
	return got
}

func hasFileUnder(files map[string]string, dir string) bool {
	for name := range files {
		if strings.HasPrefix(name, dir) {
			return true
		}
	}
	return false
}

// TestEveryFolderIsTypeChecked: every folder under src is a layer project
// the root tsconfig.json references, or is in the tests project's include;
// no .ts sits in src itself. A folder in neither would not be type-checked
// at all by `tsc -b`.
func TestEveryFolderIsTypeChecked(t *testing.T) {
	ext := extDir(t)
	var root struct {
		Include    []string
		References []struct{ Path string }
	}
	if err := json.Unmarshal(withoutLineComments(t, filepath.Join(ext, "tsconfig.json")), &root); err != nil {
		t.Fatalf("extension/tsconfig.json: %v", err)
	}
	entries, err := os.ReadDir(filepath.Join(ext, "src"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		rel := "src/" + e.Name()
		switch {
		case !e.IsDir():
			if strings.HasSuffix(e.Name(), ".ts") {
				t.Errorf("%s is in no layer: move it into the folder of its layer", rel)
			}
		case slices.Contains(root.Include, rel):
		case !slices.ContainsFunc(root.References, func(r struct{ Path string }) bool { return r.Path == rel }):
			t.Errorf("%s is neither referenced nor included by extension/tsconfig.json: tsc -b would not check it", rel)
		default:
			if _, err := os.Stat(filepath.Join(ext, rel, "tsconfig.json")); err != nil {
				t.Errorf("%s is referenced by extension/tsconfig.json but has no tsconfig.json: %v", rel, err)
			}
		}
	}
}

// withoutLineComments reads a tsconfig (JSON with comments) for
// encoding/json: the repository's tsconfigs comment in whole // lines only.
func withoutLineComments(t *testing.T, path string) []byte {
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var kept []string
	for _, line := range strings.Split(string(raw), "\n") {
		if !strings.HasPrefix(strings.TrimSpace(line), "//") {
			kept = append(kept, line)
		}
	}
	return []byte(strings.Join(kept, "\n"))
}
