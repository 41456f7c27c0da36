package e2e

import (
	"context"
	"io"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agenttab/agenttab/e2e/harness"
	"github.com/agenttab/agenttab/protocol"
)

// `agenttab mcp --http`: every MCP session is its own Core connection and
// so its own task, on one server process; requests without the bearer
// token, or naming a foreign Host or Origin, are refused.
func TestHTTPSessionsAreSeparateTasks(t *testing.T) {
	e := harness.Start(t)
	base := e.ServePages(map[string]string{"/a": page("HTTP page A"), "/b": page("HTTP page B")})
	url := startHTTPMCP(t, e)
	bearer := httpBearer(t, e)
	a, b := httpSession(t, url, bearer), httpSession(t, url, bearer)

	openA := ok(t, a, protocol.MethodOpen, map[string]any{"url": base + "/a"})
	openB := ok(t, b, protocol.MethodOpen, map[string]any{"url": base + "/b"})
	taskA, taskB := taskOf(t, openA), taskOf(t, openB)
	if taskA["id"] == taskB["id"] || taskA["label"] == taskB["label"] {
		t.Fatalf("two HTTP sessions share a task: %v and %v", taskA, taskB)
	}
	for _, s := range []struct {
		session *mcp.ClientSession
		opened  map[string]any
	}{{a, openA}, {b, openB}} {
		list := ok(t, s.session, protocol.MethodTabs, nil)
		if tabs := listed(t, list); len(tabs) != 1 || tabs[0]["tab"] != handleOf(t, s.opened) || taskOf(t, list)["id"] != taskOf(t, s.opened)["id"] {
			t.Fatalf("task %v lists %v, want only its own tab", taskOf(t, s.opened)["id"], list)
		}
	}
	refused(t, b, protocol.MethodTabs, map[string]any{"tab": handleOf(t, openA)}, protocol.CodeNotOwned)

	port := strings.TrimSuffix(strings.TrimPrefix(url, "http://127.0.0.1:"), "/mcp")
	for _, tc := range []struct {
		name, auth, host, origin string
		want                     int
	}{
		{name: "without the token", want: http.StatusUnauthorized},
		{name: "with a wrong token", auth: "Bearer " + strings.Repeat("a", 64), want: http.StatusUnauthorized},
		{name: "with a foreign Host", auth: bearer, host: "rebound.example:" + port, want: http.StatusForbidden},
		{name: "with a foreign Origin", auth: bearer, origin: "http://evil.example", want: http.StatusForbidden},
		{name: "with the token and a loopback Origin", auth: bearer, origin: "http://localhost:" + port, want: http.StatusOK},
	} {
		if got := rawInitialize(t, url, tc.auth, tc.host, tc.origin); got != tc.want {
			t.Errorf("a request %s: status %d, want %d", tc.name, got, tc.want)
		}
	}
}

// startHTTPMCP starts `agenttab mcp --http 127.0.0.1:0` on e's state
// directory and returns the URL it reports on stderr; the server stops when
// t ends, before e removes the state directory.
func startHTTPMCP(t *testing.T, e *harness.Env) string {
	t.Helper()
	cmd := exec.Command(e.Bin, "mcp", "--http", "127.0.0.1:0")
	cmd.Env = append(withoutStateDir(), "AGENTTAB_STATE_DIR="+e.StateDir)
	log := &serverLog{found: make(chan string, 1)}
	cmd.Stderr = log
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting agenttab mcp --http: %v", err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		exited := make(chan error, 1)
		go func() { exited <- cmd.Wait() }()
		select {
		case err := <-exited:
			if err != nil {
				t.Errorf("agenttab mcp --http exited with %v on interrupt", err)
			}
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-exited
			t.Error("agenttab mcp --http did not exit on interrupt")
		}
		if t.Failed() {
			t.Logf("agenttab mcp --http stderr:\n%s", log.String())
		}
	})
	select {
	case u := <-log.found:
		return u
	case <-time.After(20 * time.Second):
		t.Fatalf("agenttab mcp --http did not say where it listens; stderr:\n%s", log.String())
		return ""
	}
}

// httpSession connects an MCP client over Streamable HTTP with the
// Authorization header on every request, as a configured client does.
func httpSession(t *testing.T, url, authorization string) *mcp.ClientSession {
	t.Helper()
	transport := &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: withHeader{"Authorization", authorization}}}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	s, err := mcp.NewClient(&mcp.Implementation{Name: "e2e-http", Version: "0"}, nil).Connect(ctx, transport, nil)
	if err != nil {
		t.Fatalf("connecting to %s: %v", url, err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

type withHeader struct{ name, value string }

func (h withHeader) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set(h.name, h.value)
	return http.DefaultTransport.RoundTrip(r)
}

// rawInitialize sends an MCP initialize request by hand and returns the
// HTTP status.
func rawInitialize(t *testing.T, url, auth, host, origin string) int {
	t.Helper()
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	if host != "" {
		req.Host = host
	}
	if origin != "" {
		req.Header.Set("Origin", origin)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("POST %s: %v", url, err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

// serverLog collects the server's stderr for the failure report, and sends
// the endpoint URL it reports on found, once.
type serverLog struct {
	mu    sync.Mutex
	text  strings.Builder
	found chan string
	sent  bool
}

var endpoint = regexp.MustCompile(`http://127\.0\.0\.1:\d+/mcp`)

func (l *serverLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.text.Write(p)
	if u := endpoint.FindString(l.text.String()); u != "" && !l.sent {
		l.sent = true
		l.found <- u
	}
	return len(p), nil
}

func (l *serverLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.text.String()
}
