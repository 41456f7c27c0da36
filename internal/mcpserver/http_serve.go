package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// ErrNotLoopback is wrapped by the errors of CheckLoopback and
// ListenLoopback for an address that is not loopback.
var ErrNotLoopback = errors.New("not a loopback address")

// CheckLoopback accepts host:port where host is localhost or a loopback IP
// literal and port is a number (0 picks a free one). Anything else could
// expose the user's signed-in browser to the network.
func CheckLoopback(addr string) error {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("address %q: want HOST:PORT, such as 127.0.0.1:8765: %w", addr, err)
	}
	if n, err := strconv.ParseUint(port, 10, 16); err != nil || strconv.FormatUint(n, 10) != port {
		return fmt.Errorf("address %q: port %q is not a number from 0 to 65535", addr, port)
	}
	if ip := net.ParseIP(host); !strings.EqualFold(host, "localhost") && (ip == nil || !ip.IsLoopback()) {
		return fmt.Errorf("address %q: %w; AgentTab serves MCP over HTTP on 127.0.0.1, [::1] or localhost only, so that nothing off this machine can drive your browser", addr, ErrNotLoopback)
	}
	return nil
}

// ListenLoopback listens on addr after CheckLoopback, and makes sure the
// address it bound is loopback too (localhost could resolve elsewhere).
func ListenLoopback(addr string) (net.Listener, error) {
	if err := CheckLoopback(addr); err != nil {
		return nil, err
	}
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("listening on %s: %w", addr, err)
	}
	if tcp, ok := l.Addr().(*net.TCPAddr); !ok || !tcp.IP.IsLoopback() {
		l.Close()
		return nil, fmt.Errorf("address %q bound %s: %w", addr, l.Addr(), ErrNotLoopback)
	}
	return l, nil
}

// URL is the MCP endpoint of the server listening on addr.
func URL(addr string) string { return "http://" + addr + MCPPath }

// readHeaderTimeout bounds a client that opens a connection and sends no
// request; it never limits a request's own run (an SSE stream, a long
// browser_wait).
const readHeaderTimeout = 10 * time.Second

// ServeHTTP serves h on l until ctx ends or serving fails, then closes l,
// every HTTP connection and every session (releasing its Core connection).
func ServeHTTP(ctx context.Context, l net.Listener, h *HTTPHandler) error {
	srv := &http.Server{Handler: h, ReadHeaderTimeout: readHeaderTimeout}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(l) }()
	var err error
	select {
	case err = <-served:
		err = fmt.Errorf("serving MCP on %s: %w", l.Addr(), err)
	case <-ctx.Done():
		srv.Close()
		<-served
	}
	h.Close()
	return err
}
