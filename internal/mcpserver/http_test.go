package mcpserver

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agenttab/agenttab/internal/corerpc"
	"github.com/agenttab/agenttab/protocol"
)

const testToken = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

// connCore is a fake host that tracks its Core connections and answers
// browser_tabs with a task named after the connection, as the real host
// binds one task per connection.
type connCore struct {
	mu     sync.Mutex
	open   map[string]bool
	closed chan string
}

func (f *connCore) Opened(c *corerpc.Conn) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.open[c.ID()] = true
}

func (f *connCore) Closed(c *corerpc.Conn) {
	f.mu.Lock()
	delete(f.open, c.ID())
	f.mu.Unlock()
	f.closed <- c.ID()
}

func (f *connCore) Refused(corerpc.Cred, string)                             {}
func (f *connCore) RefusedOverLimit(corerpc.Cred, *protocol.Error)           {}
func (f *connCore) Rejected(*corerpc.Conn, json.RawMessage, *protocol.Error) {}

func (f *connCore) Handle(_ context.Context, c *corerpc.Conn, req *corerpc.Request) (any, error) {
	if req.Method == protocol.MethodHello {
		return protocol.HelloResult{ConnectionID: c.ID()}, nil
	}
	return protocol.TabsResult{Task: protocol.TaskRef{ID: "task_" + c.ID()}, Tabs: []protocol.TabInfo{}}, nil
}

func (f *connCore) openConns() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.open)
}

// waitClosed waits for n Core connections to close.
func (f *connCore) waitClosed(t *testing.T, n int, within time.Duration) {
	t.Helper()
	deadline := time.After(within)
	for range n {
		select {
		case <-f.closed:
		case <-deadline:
			t.Fatalf("Core connections still open after %s: %d", within, f.openConns())
		}
	}
}

// httpServer serves a handler for a fake Core on 127.0.0.1 and returns the
// handler, the fake and the server.
func httpServer(t *testing.T, idle time.Duration) (*HTTPHandler, *connCore, *httptest.Server) {
	t.Helper()
	socket := socketPath(t)
	fake := &connCore{open: map[string]bool{}, closed: make(chan string, 16)}
	serveCore(t, socket, fake)
	h, srv := serveHTTP(t, socket, idle)
	return h, fake, srv
}

// serveHTTP serves a handler for the Core socket on 127.0.0.1.
func serveHTTP(t *testing.T, socket string, idle time.Duration) (*HTTPHandler, *httptest.Server) {
	t.Helper()
	srv := httptest.NewUnstartedServer(nil)
	h, err := NewHTTPHandler(HTTPOptions{Socket: socket, Version: "test", Token: testToken, Addr: srv.Listener.Addr().String(), IdleTimeout: idle})
	if err != nil {
		t.Fatal(err)
	}
	srv.Config.Handler = h
	srv.Start()
	t.Cleanup(func() { srv.Close(); h.Close() })
	return h, srv
}

// bearer adds the token to every request of a client.
type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

func httpClient(t *testing.T, url string) *mcp.ClientSession {
	t.Helper()
	transport := &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: bearer{testToken}}, MaxRetries: -1}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, nil).Connect(context.Background(), transport, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func taskID(t *testing.T, cs *mcp.ClientSession) string {
	t.Helper()
	res, isErr := callTool(t, cs, protocol.MethodTabs, nil)
	task, _ := res["task"].(map[string]any)
	if isErr || task == nil {
		t.Fatalf("browser_tabs: %v (isError %v)", res, isErr)
	}
	return task["id"].(string)
}

const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`

// Host, Origin and the bearer token are checked before anything reaches
// MCP; a loopback Host or Origin with the token is served.
func TestHTTPRefusesForeignRequests(t *testing.T) {
	_, _, srv := httpServer(t, 0)
	port := srv.Listener.Addr().String()[len("127.0.0.1:"):]
	for _, tc := range []struct {
		name, host, origin, auth string
		want                     int
	}{
		{name: "no token", want: http.StatusUnauthorized},
		{name: "wrong token", auth: "Bearer " + strings.Repeat("0", len(testToken)), want: http.StatusUnauthorized},
		{name: "token without the Bearer scheme", auth: testToken, want: http.StatusUnauthorized},
		{name: "foreign Host", host: "attacker.example:" + port, auth: "Bearer " + testToken, want: http.StatusForbidden},
		{name: "foreign Host, other port", host: "127.0.0.1:1", auth: "Bearer " + testToken, want: http.StatusForbidden},
		{name: "foreign Host without a token", host: "attacker.example:" + port, want: http.StatusForbidden},
		{name: "foreign Origin", origin: "http://attacker.example", auth: "Bearer " + testToken, want: http.StatusForbidden},
		{name: "null Origin", origin: "null", auth: "Bearer " + testToken, want: http.StatusForbidden},
		{name: "loopback Origin on another port", origin: "http://127.0.0.1:1", auth: "Bearer " + testToken, want: http.StatusForbidden},
		{name: "https loopback Origin", origin: "https://localhost:" + port, auth: "Bearer " + testToken, want: http.StatusForbidden},
		{name: "token", auth: "Bearer " + testToken, want: http.StatusOK},
		{name: "lower-case scheme", auth: "bearer " + testToken, want: http.StatusOK},
		{name: "loopback Origin", origin: "http://localhost:" + port, auth: "Bearer " + testToken, want: http.StatusOK},
		{name: "localhost Host and Origin", host: "localhost:" + port, origin: "http://localhost:" + port, auth: "Bearer " + testToken, want: http.StatusOK},
		{name: "[::1] Host and Origin", host: "[::1]:" + port, origin: "http://[::1]:" + port, auth: "Bearer " + testToken, want: http.StatusOK},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, err := http.NewRequest(http.MethodPost, srv.URL+MCPPath, strings.NewReader(initialize))
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			if tc.host != "" {
				req.Host = tc.host
			}
			if tc.origin != "" {
				req.Header.Set("Origin", tc.origin)
			}
			if tc.auth != "" {
				req.Header.Set("Authorization", tc.auth)
			}
			resp, err := srv.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tc.want {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, tc.want, body)
			}
			if tc.want == http.StatusUnauthorized && resp.Header.Get("WWW-Authenticate") == "" {
				t.Error("401 without WWW-Authenticate")
			}
			if tc.want == http.StatusOK && resp.Header.Get(sessionIDHeader) == "" {
				t.Errorf("no session started: %s", body)
			}
		})
	}
}

// Two MCP sessions are two Core connections, so two tasks; ending a session
// releases its connection.
func TestHTTPSessionPerCoreConnection(t *testing.T) {
	_, fake, srv := httpServer(t, 0)
	a, b := httpClient(t, srv.URL+MCPPath), httpClient(t, srv.URL+MCPPath)
	taskA, taskB := taskID(t, a), taskID(t, b)
	if taskA == taskB {
		t.Fatalf("two sessions share the task %s", taskA)
	}
	if again := taskID(t, a); again != taskA {
		t.Fatalf("one session changed task: %s then %s", taskA, again)
	}
	if n := fake.openConns(); n != 2 {
		t.Fatalf("%d Core connections for two sessions", n)
	}
	a.Close() // DELETE: the session ends
	fake.waitClosed(t, 1, 5*time.Second)
	if n := fake.openConns(); n != 1 {
		t.Fatalf("%d Core connections after one session ended, want 1", n)
	}
	if again := taskID(t, b); again != taskB {
		t.Fatalf("the other session changed task: %s then %s", taskB, again)
	}
}

// An idle session ends on the timeout and releases its Core connection.
func TestHTTPIdleSessionReleasesConnection(t *testing.T) {
	_, fake, srv := httpServer(t, 200*time.Millisecond)
	cs := httpClient(t, srv.URL+MCPPath)
	taskID(t, cs)
	fake.waitClosed(t, 1, 5*time.Second)
	if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: protocol.MethodTabs}); err == nil {
		t.Fatal("a call on the timed-out session succeeded")
	}
	if n := fake.openConns(); n != 0 {
		t.Fatalf("%d Core connections after the session timed out", n)
	}
}

// Close ends every session and releases every Core connection.
func TestHTTPCloseReleasesConnections(t *testing.T) {
	h, fake, srv := httpServer(t, 0)
	taskID(t, httpClient(t, srv.URL+MCPPath))
	taskID(t, httpClient(t, srv.URL+MCPPath))
	h.Close()
	fake.waitClosed(t, 2, 5*time.Second)
}
