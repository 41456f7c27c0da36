package extbuild

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
)

// TestSourceFences enforces the extension's house rules that tsc cannot
// (which layer may import which, and chrome.* only in src/chrome, are the
// compiler's: TestTypeFences): the profile-only APIs only in profile
// modules (spec 000), the worker's time only from its injected Clock
// (issue 10: so tests drive it with a fake clock), and no `any`, non-null
// `!` or ts-ignore comments (DESIGN.md "House style").
func TestSourceFences(t *testing.T) {
	checkFences(t, filepath.Join(extDir(t), "src"), t.Errorf)
}

// TestProfileFence: chrome.downloads (and the other profile-only APIs) in
// a wrapper outside a profile module is caught; in one it is not.
func TestProfileFence(t *testing.T) {
	got := fenceReports(t, map[string]string{
		"chrome/real.ts":              "export const search = (q: string) => chrome.downloads.search({ query: [q] });\n",
		"chrome/profile.ts":           "export const recent = () => chrome.history.search({ text: \"\" });\n",
		"chrome/api.ts":               "// chrome.downloads is for browser_profile only.\nexport const page = \"chrome.bookmarks\";\n",
		"background/profile/reads.ts": "export const f = (ctx: C) => ctx.chrome.profile.history;\n",
		"background/methods/open.ts":  "export const f = (ctx: C) => ctx.chrome.profile.downloads;\n",
		"background/profiles.ts":      "export const g = () => chrome.history.search({ text: \"\" });\n",
	})
	sort.Strings(got)
	if len(got) != 3 || !strings.HasPrefix(got[0], "src/background/methods/open.ts:1 ") || !strings.HasPrefix(got[1], "src/background/profiles.ts:1 ") || !strings.HasPrefix(got[2], "src/chrome/real.ts:1 ") {
		t.Errorf("fence reports %q, want reports for src/background/methods/open.ts:1, src/background/profiles.ts:1 and src/chrome/real.ts:1", got)
	}
}

// TestClockFence: background code reading the wall clock is caught, in
// tests too; clock.ts, the one real Clock, is not.
func TestClockFence(t *testing.T) {
	got := fenceReports(t, map[string]string{
		"background/clock.ts":         "export const realClock = { now: () => Date.now() };\n",
		"background/pagework/wait.ts": "// Date.now() is not read here.\nconst s = \"performance.now()\";\nconst started = Date.now();\n",
		"background/x.test.ts":        "const t = performance.now();\nconst d = new Date( );\nconst fixed = new Date(0);\n",
		"page/agent.ts":               "export const at = () => Date.now();\n",
	})
	var where []string
	for _, g := range got {
		where = append(where, strings.Fields(g)[0])
	}
	sort.Strings(where)
	if want := []string{"src/background/pagework/wait.ts:3", "src/background/x.test.ts:1", "src/background/x.test.ts:2"}; !slices.Equal(where, want) {
		t.Errorf("fence reports %q, want reports at %q", got, want)
	}
}

// fenceReports runs the fences over a source tree of the given files
// (paths under src) and returns what they report.
func fenceReports(t *testing.T, files map[string]string) []string {
	src := writeTree(t, files)
	var got []string
	checkFences(t, src, func(format string, args ...any) { got = append(got, fmt.Sprintf(format, args...)) })
	return got
}

// writeTree writes the files (paths under the tree) into a new temporary
// source tree and returns its path.
func writeTree(t *testing.T, files map[string]string) string {
	src := t.TempDir()
	for name, code := range files {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(src, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(src, name), []byte(code), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return src
}

// eachTS calls f with the slash path (relative to src) and text of every
// .ts file under src.
func eachTS(t *testing.T, src string, f func(rel, code string)) {
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".ts") {
			return err
		}
		raw, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		f(filepath.ToSlash(rel), string(raw))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// clockRead is a read of the wall clock that bypasses the injected Clock.
var clockRead = regexp.MustCompile(`(^|[^\w$.])(Date|performance)\s*\.\s*now\s*\(|\bnew\s+Date\s*\(\s*\)`)

// wallClockReaders: the background files that may read the wall clock, and why.
var wallClockReaders = map[string]string{
	"background/clock.ts":         "the one real Clock (realClock)",
	"background/act/open-trap.ts": "installOpenTrap runs in the page's main world, serialized with toString: it has no worker clock to ask",
}

// profileAPI is a chrome.<api> of a permission that backs browser_profile only.
var profileAPI = regexp.MustCompile(`(^|[^\w$.])chrome\s*\.\s*(` + strings.Join(ProfilePermissions, "|") + `)\b`)

// profileAPIUse is background code reaching those APIs through ChromeApi
// (ctx.chrome.profile: chrome/api.ts ProfileApi).
var profileAPIUse = regexp.MustCompile(`\bchrome\s*\.\s*profile\b`)

// profileModule: where browser_profile's operations may call those APIs:
// the real wrappers (chrome/profile.ts) and the operations
// (background/profile/, issue 14).
func profileModule(rel string) bool {
	return rel == "chrome/profile.ts" || strings.HasPrefix(rel, "background/profile/")
}

func checkFences(t *testing.T, src string, errorf func(format string, args ...any)) {
	var (
		anyType  = regexp.MustCompile(`(^|[^\w$.])any\b`)
		nonNull  = regexp.MustCompile(`[\w$)\]]!($|[^=])`)
		suppress = regexp.MustCompile(`@ts-(ignore|expect-error|nocheck)`)
	)
	eachTS(t, src, func(rel, raw string) {
		code := strings.Split(codeOnly(raw), "\n")
		for i, line := range strings.Split(raw, "\n") {
			if suppress.MatchString(line) {
				errorf("src/%s:%d suppresses a type error", rel, i+1)
			}
		}
		for i, line := range code {
			if !profileModule(rel) && (profileAPI.MatchString(line) || profileAPIUse.MatchString(line)) {
				errorf("src/%s:%d uses an API that backs browser_profile only (spec 000) outside a profile module: %s", rel, i+1, strings.TrimSpace(line))
			}
			if _, ok := wallClockReaders[rel]; !ok && strings.HasPrefix(rel, "background/") && clockRead.MatchString(line) {
				errorf("src/%s:%d reads the wall clock; use the injected Clock (clock.ts): %s", rel, i+1, strings.TrimSpace(line))
			}
			if anyType.MatchString(line) {
				errorf("src/%s:%d uses any: %s", rel, i+1, strings.TrimSpace(line))
			}
			if nonNull.MatchString(line) {
				errorf("src/%s:%d has a non-null assertion: %s", rel, i+1, strings.TrimSpace(line))
			}
		}
	})
}

func TestCodeOnly(t *testing.T) {
	for in, want := range map[string]string{
		`a // chrome.tabs`:                  `a`,
		"a /* x\ny */ b":                    "a b",
		`f("chrome.tabs", 'it''s')`:         `f( , )`,
		"`x ${chrome.tabs} y`":              "chrome.tabs",
		"`a ${f(`b ${c}`)} d`":              "f( c )",
		`x = /"[/]"/.test(y) // z`:          `x = .test(y)`,
		`a / b / c`:                         `a / b / c`,
		`const u = "https://x/"; chrome.id`: `const u = ; chrome.id`,
	} {
		got := codeOnly(in)
		if len(got) != len(in) || strings.Count(got, "\n") != strings.Count(in, "\n") {
			t.Errorf("codeOnly(%q) = %q moved the code", in, got)
		}
		if strings.Join(strings.Fields(got), " ") != want {
			t.Errorf("codeOnly(%q) = %q, want the code %q", in, got, want)
		}
	}
}

// codeOnly blanks out comments, string and regular-expression literals
// (keeping line breaks and the code inside template ${…}), so the fences
// above see only code. It is a scanner for this repository's TypeScript,
// not a full tokenizer.
func codeOnly(s string) string {
	out := []byte(s)
	blank := func(i int) {
		if out[i] != '\n' {
			out[i] = ' '
		}
	}
	// braces counts open { per template nesting level: a } that closes a
	// ${ returns to the enclosing template.
	var templates []int
	braces := 0
	// prev is the last significant code character, to tell a regular
	// expression from a division.
	prev := byte(0)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '/' && i+1 < len(s) && s[i+1] == '/':
			for ; i < len(s) && s[i] != '\n'; i++ {
				blank(i)
			}
			i--
		case c == '/' && i+1 < len(s) && s[i+1] == '*':
			end := strings.Index(s[i+2:], "*/")
			stop := len(s)
			if end >= 0 {
				stop = i + 2 + end + 2
			}
			for ; i < stop; i++ {
				blank(i)
			}
			i--
		case c == '"' || c == '\'':
			blank(i)
			for i++; i < len(s) && s[i] != c; i++ {
				if s[i] == '\\' {
					blank(i)
					i++
				}
				blank(i)
			}
			if i < len(s) {
				blank(i)
			}
			prev = '"'
		case c == '/' && strings.IndexByte("(,=:[!&|?{};+-*%<>~^", prev) >= 0 || c == '/' && prev == 0:
			inClass := false
			blank(i)
			for i++; i < len(s) && s[i] != '\n'; i++ {
				if s[i] == '\\' {
					blank(i)
					i++
				} else if s[i] == '[' {
					inClass = true
				} else if s[i] == ']' {
					inClass = false
				} else if s[i] == '/' && !inClass {
					blank(i)
					break
				}
				blank(i)
			}
			prev = '/'
		case c == '`' || c == '}' && len(templates) > 0 && braces == templates[len(templates)-1]:
			if c == '}' {
				templates = templates[:len(templates)-1]
			}
			blank(i)
			for i++; i < len(s) && s[i] != '`'; i++ {
				if s[i] == '\\' {
					blank(i)
					i++
				} else if s[i] == '$' && i+1 < len(s) && s[i+1] == '{' {
					blank(i)
					blank(i + 1)
					i++
					templates = append(templates, braces)
					break
				}
				blank(i)
			}
			if i < len(s) && s[i] == '`' {
				blank(i)
			}
			prev = '"'
		default:
			if c == '{' {
				braces++
			} else if c == '}' {
				braces--
			}
			if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
				prev = c
			}
		}
	}
	return string(out)
}
