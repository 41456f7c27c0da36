package mcpserver

import (
	"context"
	"crypto/subtle"
	"fmt"
	"maps"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MCPPath is the one path the Streamable HTTP endpoint answers on.
const MCPPath = "/mcp"

// DefaultIdleTimeout ends a session that sent no request for this long. An
// agent that stops talking leaves its Core connection (and so its task)
// attached until then; an agent that thinks for a long while between calls
// must not lose its task, hence minutes rather than seconds.
const DefaultIdleTimeout = 30 * time.Minute

// sessionIDHeader names the session of a Streamable HTTP request.
const sessionIDHeader = "Mcp-Session-Id"

// HTTPOptions configures NewHTTPHandler.
type HTTPOptions struct {
	// Socket is the Core endpoint every session dials.
	Socket string
	// Version is reported to MCP clients.
	Version string
	// Token is the bearer token every request must carry.
	Token string
	// Addr is the bound listen address (host:port, the port resolved):
	// requests must name it, or 127.0.0.1, localhost or [::1] with its
	// port, in Host and in Origin.
	Addr string
	// IdleTimeout ends idle sessions; zero means DefaultIdleTimeout.
	IdleTimeout time.Duration
}

// HTTPHandler serves MCP over Streamable HTTP. Every MCP session gets a
// Server of its own, hence its own Core connection and its own task (the
// host binds tasks to connections), and releases that connection when the
// session ends: closed by the client, idle past the timeout, or Close.
type HTTPHandler struct {
	sdk     *mcp.StreamableHTTPHandler
	socket  string
	version string
	token   []byte
	hosts   map[string]bool
	origins map[string]bool

	mu       sync.Mutex
	live     map[*Server]*mcp.ServerSession
	closed   bool
	watchers sync.WaitGroup
}

// NewHTTPHandler builds the handler. Requests are checked in this order:
// Host and Origin (403, the DNS-rebinding defence: a web page the user
// visits can reach loopback, but its requests name the page's host or
// origin), then the bearer token (401), then the path, then a POST's body
// (admitBody).
func NewHTTPHandler(o HTTPOptions) (*HTTPHandler, error) {
	_, port, err := net.SplitHostPort(o.Addr)
	if err != nil {
		return nil, fmt.Errorf("mcp over http: listen address %q: %w", o.Addr, err)
	}
	if o.Token == "" {
		return nil, fmt.Errorf("mcp over http: empty bearer token")
	}
	h := &HTTPHandler{
		socket:  o.Socket,
		version: o.Version,
		token:   []byte(o.Token),
		hosts:   map[string]bool{},
		origins: map[string]bool{},
		live:    map[*Server]*mcp.ServerSession{},
	}
	for _, host := range []string{o.Addr, net.JoinHostPort("127.0.0.1", port), net.JoinHostPort("localhost", port), net.JoinHostPort("::1", port)} {
		host = strings.ToLower(host)
		h.hosts[host] = true
		h.origins["http://"+host] = true
	}
	timeout := o.IdleTimeout
	if timeout == 0 {
		timeout = DefaultIdleTimeout
	}
	// admitBody bounds bodies by the adapter's message limit, as on
	// stdio; the SDK's default (4 MiB) would answer 413 to a request the
	// host's own limit should refuse, by name, as a tool error.
	h.sdk = mcp.NewStreamableHTTPHandler(h.serverFor, &mcp.StreamableHTTPOptions{SessionTimeout: timeout, MaxRequestBodyBytes: MaxMessage})
	return h, nil
}

// ServeHTTP checks Host, Origin and the bearer token, then serves MCP on
// MCPPath.
func (h *HTTPHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !h.hosts[strings.ToLower(r.Host)] {
		http.Error(w, fmt.Sprintf("forbidden Host %q: AgentTab answers only requests addressed to its loopback address (DNS-rebinding defence)", r.Host), http.StatusForbidden)
		return
	}
	if origin, present := r.Header["Origin"]; present && (len(origin) != 1 || !h.origins[strings.ToLower(origin[0])]) {
		http.Error(w, fmt.Sprintf("forbidden Origin %q: AgentTab answers only loopback origins, never web pages", strings.Join(origin, ", ")), http.StatusForbidden)
		return
	}
	if !h.authorized(r) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="agenttab"`)
		http.Error(w, "missing or wrong bearer token: send Authorization: Bearer <token>; `agenttab mcp --print-http-config` prints a client config with it", http.StatusUnauthorized)
		return
	}
	if r.URL.Path != MCPPath {
		http.NotFound(w, r)
		return
	}
	h.mu.Lock()
	closed := h.closed
	h.mu.Unlock()
	if closed {
		http.Error(w, "the AgentTab MCP server is shutting down", http.StatusServiceUnavailable)
		return
	}
	if r.Method == http.MethodPost && !admitBody(w, r) {
		return
	}
	// Only a POST without a session id can start a session (MCP spec,
	// 2025-06-18 "Session Management"); it gets a fresh Server, hence a
	// Core connection of its own. Building one costs about 2 ms, so other
	// requests get none. A session's resume capability stays in its
	// Server's memory: the session cannot outlive this process anyway.
	slot := &sessionSlot{}
	if r.Method == http.MethodPost && r.Header.Get(sessionIDHeader) == "" {
		s, err := New(h.socket, h.version)
		if err != nil {
			http.Error(w, fmt.Sprintf("starting an MCP session: %v", err), http.StatusInternalServerError)
			return
		}
		probeOnToolsList(s)
		slot.server = s
	}
	h.sdk.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), slotKey{}, slot)))
	if slot.server != nil {
		h.adopt(slot.server)
	}
}

func (h *HTTPHandler) authorized(r *http.Request) bool {
	scheme, token, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return false
	}
	return subtle.ConstantTimeCompare([]byte(strings.TrimSpace(token)), h.token) == 1
}

// sessionSlot hands the Server ServeHTTP built for one request to the
// SDK's getServer, through the request's context.
type sessionSlot struct{ server *Server }

type slotKey struct{}

// serverFor is the SDK's getServer: the Server ServeHTTP built for this
// request, or nil. The SDK also asks on requests that cannot start a
// session, only to read the protocol versions the server supports; nil
// leaves them at the SDK's defaults, which are ours (New does not narrow
// them).
func (h *HTTPHandler) serverFor(r *http.Request) *mcp.Server {
	slot, _ := r.Context().Value(slotKey{}).(*sessionSlot)
	if slot == nil || slot.server == nil {
		return nil
	}
	return slot.server.MCP()
}

// adopt watches the session s serves, if one started, and closes s's Core
// connection when it ends. A session that failed to initialise, or that
// ended already, is gone from s.MCP().Sessions() only once its handlers
// have finished, so closing s then is final.
func (h *HTTPHandler) adopt(s *Server) {
	var ss *mcp.ServerSession
	for session := range s.MCP().Sessions() {
		ss = session
	}
	h.mu.Lock()
	if ss == nil || h.closed {
		h.mu.Unlock()
		if ss != nil {
			ss.Close()
		}
		s.Close()
		return
	}
	h.live[s] = ss
	h.watchers.Add(1)
	h.mu.Unlock()
	go func() {
		defer h.watchers.Done()
		ss.Wait()
		h.mu.Lock()
		delete(h.live, s)
		h.mu.Unlock()
		s.Close()
	}()
}

// Close ends every session and returns once each has released its Core
// connection. Core connections are closed first so that calls waiting on
// the host end now rather than when the host answers; a session's watcher
// closes its connection again after the session ended, in case a call
// dialled meanwhile.
func (h *HTTPHandler) Close() {
	h.mu.Lock()
	h.closed = true
	live := maps.Clone(h.live)
	h.mu.Unlock()
	for s, ss := range live {
		s.Close()
		ss.Close()
	}
	h.watchers.Wait()
}

// probeOnToolsList makes a session's tools/list probe the host first, as
// `agenttab mcp` does at start over stdio (developer_listing.go), so that
// the list has browser_developer when the host says Developer mode is on
// (e2e/tool_count_test.go). A session that never lists its tools dials
// only when it calls one.
func probeOnToolsList(s *Server) {
	s.MCP().AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "tools/list" {
				s.probeHost(ctx)
			}
			return next(ctx, method, req)
		}
	})
}
