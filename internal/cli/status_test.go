package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log"
	"net"
	"strings"
	"sync"
	"testing"

	"github.com/agenttab/agenttab/internal/corerpc"
	"github.com/agenttab/agenttab/internal/statedir"
	"github.com/agenttab/agenttab/protocol"
)

// idleHandler is a Core host that serves nothing and keeps the refusal it
// sent.
type idleHandler struct {
	mu      sync.Mutex
	refusal *protocol.Error
}

func (*idleHandler) Opened(*corerpc.Conn) {}
func (*idleHandler) Closed(*corerpc.Conn) {}
func (*idleHandler) Handle(context.Context, *corerpc.Conn, *corerpc.Request) (any, error) {
	return protocol.StatusResult{}, nil
}
func (*idleHandler) Refused(corerpc.Cred, string) {}
func (h *idleHandler) RefusedOverLimit(_ corerpc.Cred, e *protocol.Error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.refusal = e
}
func (*idleHandler) Rejected(*corerpc.Conn, json.RawMessage, *protocol.Error) {}

// Issue 9: with the host's connections all taken, `agenttab status` is
// refused too_many_connections. It says so and gives that error's own
// recovery, not the advice for a host that is not running ("Open
// Chrome…", "run `agenttab install`").
func TestStatusFollowsTheHostsRefusal(t *testing.T) {
	dir := statedir.Dir(stateFor(t))
	if err := statedir.Ensure(string(dir)); err != nil {
		t.Fatal(err)
	}
	ln, err := corerpc.Listen(dir.Socket())
	if err != nil {
		t.Fatal(err)
	}
	var h idleHandler
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- corerpc.NewServer(&h, corerpc.SelfUID(), log.New(io.Discard, "", 0)).Serve(ctx, ln) }()
	defer func() { cancel(); <-served }()
	for range corerpc.MaxConnections {
		c, err := net.Dial("unix", dir.Socket())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
	}

	var stdout, stderr bytes.Buffer
	if code := runStatus(context.Background(), nil, &stdout, &stderr); code != 1 {
		t.Fatalf("exit %d, want 1: %s%s", code, &stdout, &stderr)
	}
	h.mu.Lock()
	refusal := h.refusal
	h.mu.Unlock()
	if refusal == nil {
		t.Fatalf("the host refused nothing; status said:\n%s", &stdout)
	}
	out := stdout.String()
	if !strings.Contains(out, string(protocol.CodeTooManyConnections)) || !strings.Contains(out, refusal.Recovery) {
		t.Errorf("status does not give the refusal and its recovery %q:\n%s", refusal.Recovery, out)
	}
	for _, wrong := range []string{"not reachable", "Open Chrome", "agenttab install"} {
		if strings.Contains(out, wrong) {
			t.Errorf("status gives the advice for a host that is not running (%q):\n%s", wrong, out)
		}
	}
}

// With no host at all the advice stays: start Chrome, or install.
func TestStatusWithoutAHost(t *testing.T) {
	stateFor(t)
	var stdout, stderr bytes.Buffer
	if code := runStatus(context.Background(), nil, &stdout, &stderr); code != 1 {
		t.Fatalf("exit %d, want 1", code)
	}
	if out := stdout.String(); !strings.Contains(out, "not reachable") || !strings.Contains(out, "agenttab install") {
		t.Errorf("status without a host:\n%s", out)
	}
}
