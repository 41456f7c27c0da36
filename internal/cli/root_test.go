package cli

import (
	"bytes"
	"context"
	"maps"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// helpCommands is the command names `agenttab help` lists, in its order.
func helpCommands(t *testing.T) []string {
	t.Helper()
	var out bytes.Buffer
	if code := Main(context.Background(), []string{"help"}, strings.NewReader(""), &out, &out); code != 0 {
		t.Fatalf("help exited %d: %s", code, out.String())
	}
	_, list, ok := strings.Cut(out.String(), "Commands:\n")
	if !ok {
		t.Fatalf("help has no command list:\n%s", out.String())
	}
	list, _, _ = strings.Cut(list, "\n\n")
	var names []string
	for _, line := range strings.Split(list, "\n") {
		if f := strings.Fields(line); len(f) > 0 {
			names = append(names, f[0])
		}
	}
	return names
}

func registered() []string { return slices.Sorted(maps.Keys(commands)) }

// Help is derived from the registry: every registered command is listed,
// once, with its summary, and nothing else (issue 10: pause and resume were
// missing from a hand-kept list).
func TestHelpListsEveryRegisteredCommand(t *testing.T) {
	got := helpCommands(t)
	want := registered()
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("help lists %v, the registry has %v", got, want)
	}
	for _, name := range []string{"pause", "resume"} {
		if _, ok := commands[name]; !ok {
			t.Fatalf("%s is not registered", name)
		}
	}
}

// README's Commands table names every registered command and no other.
func TestReadmeCommandsTableMatchesRegistry(t *testing.T) {
	raw, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(raw), "\n## Commands\n")
	if !ok {
		t.Fatal("README.md has no ## Commands section")
	}
	section, _, _ = strings.Cut(section, "\n#")
	seen := map[string]bool{}
	for _, line := range strings.Split(section, "\n") {
		if !strings.HasPrefix(line, "| `agenttab ") {
			continue
		}
		first, _, _ := strings.Cut(strings.TrimPrefix(line, "| "), " | ")
		for _, m := range regexp.MustCompile("`agenttab ([a-z-]+)").FindAllStringSubmatch(first, -1) {
			seen[m[1]] = true
		}
	}
	for _, name := range registered() {
		if !seen[name] {
			t.Errorf("README's Commands table does not list agenttab %s", name)
		}
		delete(seen, name)
	}
	for name := range seen {
		t.Errorf("README's Commands table lists agenttab %s, which is not a command", name)
	}
}
