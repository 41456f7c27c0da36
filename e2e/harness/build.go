package harness

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// modulePath identifies the module root when walking up from the test's
// working directory, so a go.mod of some other module is never mistaken
// for ours.
const modulePath = "github.com/agenttab/agenttab"

var built struct {
	once sync.Once
	dir  string
	bin  string
	err  error
}

// BuildBinary builds ./cmd/agenttab once per test process and returns the
// binary's path. Every test of the process shares it: building takes
// seconds, and the binary cannot change while tests run.
func BuildBinary(tb testing.TB) string {
	tb.Helper()
	built.once.Do(func() { built.dir, built.bin, built.err = buildBinary() })
	if built.err != nil {
		tb.Fatalf("building agenttab: %v", built.err)
	}
	return built.bin
}

// Main runs the tests of an e2e package and then removes the binary
// BuildBinary built, which outlives any one test. Call it from TestMain.
func Main(m *testing.M) {
	code := m.Run()
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

func buildBinary() (dir, bin string, err error) {
	root, err := moduleRoot()
	if err != nil {
		return "", "", err
	}
	dir, err = os.MkdirTemp("", "agenttab-e2e-bin-")
	if err != nil {
		return "", "", err
	}
	bin = filepath.Join(dir, "agenttab")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	// `go test` puts its own GOROOT/bin first on PATH, so this is the same
	// toolchain that builds the tests.
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/agenttab")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		os.RemoveAll(dir)
		return "", "", fmt.Errorf("go build ./cmd/agenttab in %s: %v\n%s", root, err, out)
	}
	return dir, bin, nil
}

// moduleRoot walks up from the working directory to the go.mod of this
// module.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if path, ok := goModPath(filepath.Join(dir, "go.mod")); ok && path == modulePath {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod of " + modulePath + " above the working directory")
		}
		dir = parent
	}
}

// goModPath reads the module path from a go.mod file.
func goModPath(file string) (string, bool) {
	f, err := os.Open(file)
	if err != nil {
		return "", false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "module "); ok {
			return strings.Trim(strings.TrimSpace(rest), `"`), true
		}
	}
	return "", false
}
