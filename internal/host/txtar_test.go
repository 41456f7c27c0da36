package host

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The txtar format (golang.org/x/tools/txtar, which is not among
// DESIGN.md's dependencies): a comment, then sections, each a line
// "-- name --" and the lines up to the next one. Names may repeat: a
// transcript has a "core request" per exchange.

type transcript struct {
	comment  string
	sections []section
}

type section struct {
	name, body string
}

func parseTxtar(text string) *transcript {
	tr := &transcript{}
	cur := &tr.comment
	for _, line := range strings.SplitAfter(text, "\n") {
		trimmed := strings.TrimRight(line, "\n")
		if name, ok := strings.CutPrefix(trimmed, "-- "); ok && strings.HasSuffix(name, " --") && len(name) > 3 {
			tr.sections = append(tr.sections, section{name: strings.TrimSuffix(name, " --")})
			cur = &tr.sections[len(tr.sections)-1].body
			continue
		}
		*cur += line
	}
	return tr
}

func (tr *transcript) format() string {
	var b strings.Builder
	b.WriteString(tr.comment)
	for _, s := range tr.sections {
		b.WriteString("-- " + s.name + " --\n" + s.body)
	}
	return b.String()
}

// after is the transcript named on the comment's "after: " line, if any.
func (tr *transcript) after() string {
	for _, line := range strings.Split(tr.comment, "\n") {
		if name, ok := strings.CutPrefix(line, afterPrefix); ok {
			return strings.TrimSpace(name)
		}
	}
	return ""
}

func readTranscript(t *testing.T, name string) *transcript {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(transcriptDir, name))
	if err != nil {
		t.Fatal(err)
	}
	return parseTxtar(string(b))
}

func writeTranscript(t *testing.T, name string, tr *transcript) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(transcriptDir, name), []byte(tr.format()), 0o644); err != nil {
		t.Fatal(err)
	}
}
