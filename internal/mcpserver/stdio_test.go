package mcpserver

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/agenttab/agenttab/protocol"
)

// lineClient talks to a Server over lineTransport through pipes, a line at
// a time, as an MCP client on stdio does.
type lineClient struct {
	in    io.WriteCloser
	lines chan string
}

func serveLines(t *testing.T) *lineClient {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	srv, err := New(socketPath(t), "test")
	if err != nil {
		t.Fatal(err)
	}
	ss, err := srv.MCP().Connect(context.Background(), lineTransport{r: inR, w: outW}, nil)
	if err != nil {
		t.Fatal(err)
	}
	c := &lineClient{in: inW, lines: make(chan string, 8)}
	go func() {
		defer close(c.lines)
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			c.lines <- sc.Text()
		}
	}()
	t.Cleanup(func() { inW.Close(); ss.Close(); outR.Close(); srv.Close() })
	return c
}

func (c *lineClient) send(t *testing.T, line string) {
	t.Helper()
	if _, err := io.WriteString(c.in, line+"\n"); err != nil {
		t.Fatalf("sending %q: %v", line, err)
	}
}

func (c *lineClient) next(t *testing.T) string {
	t.Helper()
	select {
	case l, ok := <-c.lines:
		if !ok {
			t.Fatal("the server closed its output")
		}
		return l
	case <-time.After(10 * time.Second):
		t.Fatal("no answer within 10 s")
	}
	return ""
}

func (c *lineClient) initialize(t *testing.T, version string) {
	t.Helper()
	c.send(t, `{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"`+version+`","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`)
	var res struct {
		Result struct {
			ProtocolVersion string `json:"protocolVersion"`
		} `json:"result"`
	}
	if line := c.next(t); json.Unmarshal([]byte(line), &res) != nil || res.Result.ProtocolVersion != version {
		t.Fatalf("initialize answered %s, want version %s", line, version)
	}
	c.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
}

// ping checks that the session still serves.
func (c *lineClient) ping(t *testing.T) {
	t.Helper()
	c.send(t, `{"jsonrpc":"2.0","id":"alive","method":"ping"}`)
	if got := c.next(t); got != `{"jsonrpc":"2.0","id":"alive","result":{}}` {
		t.Fatalf("ping answered %s", got)
	}
}

// answers reads a batch's answer: every member's id and error code (0 for
// a result), in any order, since JSON-RPC 2.0 §6 leaves it open.
func answers(t *testing.T, line string) map[string]int64 {
	t.Helper()
	var members []struct {
		ID    json.RawMessage `json:"id"`
		Error *jsonrpc.Error  `json:"error"`
	}
	if err := json.Unmarshal([]byte(line), &members); err != nil {
		t.Fatalf("batch answer %s: %v", line, err)
	}
	out := map[string]int64{}
	for _, m := range members {
		var code int64
		if m.Error != nil {
			code = m.Error.Code
		}
		out[string(m.ID)] += code // null ids repeat: sum their codes
	}
	return out
}

// Under MCP versions with JSON-RPC batches a batch is served and answered
// as one array: results for its requests, an error for each member that is
// not a message, nothing for notifications.
func TestLineTransportServesBatchesWhereMCPHasThem(t *testing.T) {
	c := serveLines(t)
	c.initialize(t, "2025-03-26")
	c.send(t, `[{"jsonrpc":"2.0","id":1,"method":"ping"},7,{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":99}},{"jsonrpc":"2.0","id":"b","method":"ping"}]`)
	got := answers(t, c.next(t))
	want := map[string]int64{"1": 0, `"b"`: 0, "null": jsonrpc.CodeInvalidRequest}
	if len(got) != len(want) || got["1"] != 0 || got[`"b"`] != 0 || got["null"] != want["null"] {
		t.Fatalf("batch answer %v, want %v", got, want)
	}
	c.send(t, `[1,2,3]`)
	if got := answers(t, c.next(t)); got["null"] != 3*jsonrpc.CodeInvalidRequest {
		t.Fatalf("[1,2,3] answered %v, want three invalid requests", got)
	}
	c.ping(t)
}

// From MCP 2025-06-18 on a batch is one invalid request.
func TestLineTransportRefusesBatchesWhereMCPHasNone(t *testing.T) {
	c := serveLines(t)
	c.initialize(t, "2025-11-25")
	c.send(t, `[{"jsonrpc":"2.0","id":1,"method":"ping"}]`)
	r := decodeRefusal(t, json.RawMessage(c.next(t)))
	if r.Error.Code != jsonrpc.CodeInvalidRequest || string(r.ID) != "null" || r.Error.Data.Code != protocol.CodeInvalidRequest {
		t.Fatalf("a batch under 2025-11-25: %+v", r)
	}
	c.ping(t)
}

// Every refusal parseLine makes reaches the client, and the session goes on.
func TestLineTransportAnswersBadLines(t *testing.T) {
	c := serveLines(t)
	c.initialize(t, "2025-11-25")
	for _, line := range []string{"hello", `{"jsonrpc":"2.0","id":3`, `42`, "\xff", "\x00", `{"jsonrpc":"2.0","id":5,"method":12}`, strings.Repeat("[", 20000)} {
		c.send(t, line)
		decodeRefusal(t, json.RawMessage(c.next(t)))
		c.ping(t)
	}
}
