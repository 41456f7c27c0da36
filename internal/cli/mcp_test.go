package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// stateFor points AGENTTAB_STATE_DIR at a new directory for the test.
func stateFor(t *testing.T) string {
	dir := filepath.Join(t.TempDir(), "state")
	t.Setenv("AGENTTAB_STATE_DIR", dir)
	return dir
}

func TestPrintHTTPConfig(t *testing.T) {
	dir := stateFor(t)
	for _, tc := range []struct {
		args    []string
		wantURL string
	}{
		{[]string{"--print-http-config"}, "http://127.0.0.1:8765/mcp"},
		{[]string{"--print-http-config", "--http", "127.0.0.1:9000"}, "http://127.0.0.1:9000/mcp"},
		{[]string{"--http", "[::1]:9000", "--print-http-config"}, "http://[::1]:9000/mcp"},
	} {
		var stdout, stderr bytes.Buffer
		if code := runMCP(context.Background(), tc.args, &stdout, &stderr); code != 0 {
			t.Fatalf("%v: exit %d: %s", tc.args, code, &stderr)
		}
		var cfg struct {
			MCPServers map[string]struct {
				Type    string            `json:"type"`
				URL     string            `json:"url"`
				Headers map[string]string `json:"headers"`
			} `json:"mcpServers"`
		}
		if err := json.Unmarshal(stdout.Bytes(), &cfg); err != nil {
			t.Fatalf("%v printed %s: %v", tc.args, &stdout, err)
		}
		token, err := os.ReadFile(filepath.Join(dir, "adapters", "http-token"))
		if err != nil {
			t.Fatal(err)
		}
		entry := cfg.MCPServers["agenttab"]
		if entry.Type != "http" || entry.URL != tc.wantURL || entry.Headers["Authorization"] != "Bearer "+strings.TrimSpace(string(token)) {
			t.Fatalf("%v printed %s", tc.args, &stdout)
		}
	}
}

func TestMCPHTTPRefusesNonLoopback(t *testing.T) {
	stateFor(t)
	for _, args := range [][]string{
		{"--http", "0.0.0.0:8765"},
		{"--http", ":8765"},
		{"--print-http-config", "--http", "192.168.1.2:8765"},
		{"--print-http-config", "--http", "127.0.0.1:0"},
	} {
		var stdout, stderr bytes.Buffer
		if code := runMCP(context.Background(), args, &stdout, &stderr); code != 2 || stdout.Len() != 0 || !strings.Contains(stderr.String(), "agenttab: address") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and why", args, code, &stdout, &stderr)
		}
	}
}

// --http 127.0.0.1:0 says where it listens, serves until cancelled, and
// exits 0.
func TestMCPHTTPServesUntilCancelled(t *testing.T) {
	stateFor(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r, w := io.Pipe()
	exited := make(chan int, 1)
	go func() { exited <- runMCP(ctx, []string{"--http", "127.0.0.1:0"}, io.Discard, w); w.Close() }()
	line, err := bufio.NewReader(r).ReadString('\n')
	if err != nil {
		t.Fatalf("reading stderr: %v", err)
	}
	go io.Copy(io.Discard, r)
	url := regexp.MustCompile(`http://127\.0\.0\.1:\d+/mcp`).FindString(line)
	if url == "" {
		t.Fatalf("stderr does not say where it serves: %q", line)
	}
	resp, err := http.Post(url, "application/json", strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("without a token: %s", resp.Status)
	}
	cancel()
	if code := <-exited; code != 0 {
		t.Fatalf("exit %d after cancel", code)
	}
}
