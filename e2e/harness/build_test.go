package harness

import (
	"os"
	"path/filepath"
	"testing"
)

func TestGoModPath(t *testing.T) {
	tests := []struct {
		content string
		want    string
		ok      bool
	}{
		{"module github.com/agenttab/agenttab\n\ngo 1.26\n", "github.com/agenttab/agenttab", true},
		{"// comment\nmodule \"example.com/quoted\"\n", "example.com/quoted", true},
		{"go 1.26\n", "", false},
	}
	for _, tt := range tests {
		file := filepath.Join(t.TempDir(), "go.mod")
		if err := os.WriteFile(file, []byte(tt.content), 0o600); err != nil {
			t.Fatal(err)
		}
		got, ok := goModPath(file)
		if got != tt.want || ok != tt.ok {
			t.Errorf("goModPath(%q) = %q, %v; want %q, %v", tt.content, got, ok, tt.want, tt.ok)
		}
	}
}

func TestModuleRoot(t *testing.T) {
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "e2e", "harness", "build.go")); err != nil {
		t.Errorf("moduleRoot() = %s, which does not hold this package: %v", root, err)
	}
}
