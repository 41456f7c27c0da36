package host

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/agenttab/agenttab/internal/corerpc"
	"github.com/agenttab/agenttab/protocol"
)

// Wire transcripts (issue 10): each testdata/transcripts/*.txtar file is one
// exchange as it crosses the host, Core RPC line in, native request out,
// native response in, Core RPC line out, so that a change to either
// protocol shows up in review as a diff of these files. The Core requests
// and the native responses are the scenario (written by hand); the native
// requests and the Core responses are what the host did with them, checked
// here and rewritten by
//
//	go test ./internal/host -run TestTranscripts -update
//
// which also rewrites native.json, the native half the extension's
// transcripts.test.ts decodes (a node test cannot read a .txtar file).
var update = flag.Bool("update", false, "rewrite testdata/transcripts from what the host did")

const transcriptDir = "testdata/transcripts"

// Section names, in the order an exchange has them.
const (
	secCoreRequest    = "core request"
	secNativeRequest  = "native request"
	secNativeResponse = "native response"
	secCoreResponse   = "core response"
)

// afterPrefix, on a line of a transcript's comment, names a transcript
// replayed first on the same connection (the task's tab comes from it), so
// that browser_open's exchange is written down once.
const afterPrefix = "after: "

// volatile names the fields whose values differ from run to run, and the
// placeholder each gets: "<task-1>" is the first task id of a replay.
var volatile = map[string]string{
	"task_id":    "task",
	"capability": "capability",
	"tab":        "tab",
	"id":         "task", // a Core task reference's id
}

func TestTranscripts(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(transcriptDir, "*.txtar"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no transcripts in %s: %v", transcriptDir, err)
	}
	var native []nativeExchange
	ran := 0
	for _, file := range files {
		name := filepath.Base(file)
		t.Run(strings.TrimSuffix(name, ".txtar"), func(t *testing.T) {
			ran++
			native = append(native, replayTranscript(t, name)...)
		})
	}
	if ran < len(files) {
		return // -run chose some: native.json holds them all
	}
	var want bytes.Buffer
	enc := json.NewEncoder(&want)
	enc.SetEscapeHTML(false) // as the transcripts read: "<task-1>"
	enc.SetIndent("", "  ")
	if err := enc.Encode(native); err != nil {
		t.Fatal(err)
	}
	checkGenerated(t, filepath.Join(transcriptDir, "native.json"), want.Bytes())
}

// nativeExchange is one native request and its response, for the
// extension's test.
type nativeExchange struct {
	Transcript string          `json:"transcript"`
	Request    json.RawMessage `json:"request"`
	Response   json.RawMessage `json:"response"`
}

// replayTranscript plays name (after its prerequisites) against a fresh
// host and returns its own native exchanges.
func replayTranscript(t *testing.T, name string) []nativeExchange {
	chain := []string{name}
	for seen := map[string]bool{name: true}; ; {
		after := readTranscript(t, chain[0]).after()
		if after == "" {
			break
		}
		if seen[after] {
			t.Fatalf("%s: a loop of %q lines", name, afterPrefix)
		}
		seen[after] = true
		chain = append([]string{after}, chain...)
	}
	r := startRig(t)
	p := newPlayer(t, r)
	var own []nativeExchange
	for i, file := range chain {
		tr := readTranscript(t, file)
		got := p.play(file, tr)
		if i == len(chain)-1 {
			own = got
			if *update {
				writeTranscript(t, file, tr)
			}
		}
	}
	return own
}

// player drives one host: the Core side over a raw connection, the native
// side through the fake extension's script.
type player struct {
	t        *testing.T
	conn     net.Conn
	lines    chan []byte
	requests chan seenRequest
	answers  chan nativeAnswer
	// vars maps each volatile value seen to its placeholder, and back.
	toPlaceholder map[string]string
	toValue       map[string]string
	counts        map[string]int
	nativeCount   int
}

type nativeAnswer struct {
	result json.RawMessage
	err    *protocol.Error
}

func newPlayer(t *testing.T, r *rig) *player {
	nc, err := corerpc.Dial(context.Background(), r.dir.Socket())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { nc.Close() })
	p := &player{t: t, conn: nc, lines: make(chan []byte, 8), requests: make(chan seenRequest, 8), answers: make(chan nativeAnswer),
		toPlaceholder: map[string]string{}, toValue: map[string]string{}, counts: map[string]int{}}
	go func() {
		br := bufio.NewReader(nc)
		for {
			line, err := corerpc.ReadLine(br, corerpc.MaxLine, false)
			if err != nil {
				close(p.lines)
				return
			}
			p.lines <- line
		}
	}()
	r.ext.mu.Lock()
	r.ext.script = func(req seenRequest) (any, *protocol.Error) {
		if req.Method == protocol.NativeReconcile || req.Method == protocol.NativePing {
			return r.ext.handle(req.Method, req.Params) // the host's own upkeep, not the exchange's
		}
		p.requests <- req
		a := <-p.answers
		if a.err != nil {
			return nil, a.err
		}
		return a.result, nil
	}
	r.ext.mu.Unlock()
	return p
}

// play runs tr's exchanges and rewrites their recorded halves in tr (the
// caller writes them out with -update); without -update a difference
// fails the test. It returns the native exchanges it saw.
func (p *player) play(file string, tr *transcript) []nativeExchange {
	t := p.t
	var out []nativeExchange
	secs := tr.sections
	for i := 0; i < len(secs); {
		if secs[i].name != secCoreRequest {
			t.Fatalf("%s: section %d is %q, want %q", file, i, secs[i].name, secCoreRequest)
		}
		if _, err := p.conn.Write(append(compact(t, p.substitute(secs[i].body)), '\n')); err != nil {
			t.Fatal(err)
		}
		i++
		for i < len(secs) && secs[i].name == secNativeRequest {
			if i+1 >= len(secs) || secs[i+1].name != secNativeResponse {
				t.Fatalf("%s: a %q without its %q", file, secNativeRequest, secNativeResponse)
			}
			var req seenRequest
			select {
			case req = <-p.requests:
			case line := <-p.lines:
				t.Fatalf("%s: the host answered %s without sending the native request the transcript has", file, line)
			case <-time.After(10 * time.Second):
				t.Fatalf("%s: no native request from the host in 10 s", file)
			}
			p.nativeCount++
			frame := p.nativeRequest(req)
			p.check(file, &secs[i], frame)
			resp := p.answer(file, secs[i+1].body)
			secs[i+1].body = resp
			out = append(out, nativeExchange{Transcript: file, Request: json.RawMessage(secs[i].body), Response: json.RawMessage(resp)})
			i += 2
		}
		if i >= len(secs) || secs[i].name != secCoreResponse {
			t.Fatalf("%s: an exchange without its %q", file, secCoreResponse)
		}
		var line []byte
		select {
		case line = <-p.lines:
		case req := <-p.requests:
			t.Fatalf("%s: the host sent a native %s the transcript does not have (params %s)", file, req.Method, req.Params)
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: no Core response in 10 s", file)
		}
		p.check(file, &secs[i], line)
		i++
	}
	return out
}

// nativeRequest is the frame the host sent, its id replaced by its place
// in the replay (the host numbers requests it sent before, like reconcile).
func (p *player) nativeRequest(req seenRequest) []byte {
	b, err := json.Marshal(protocol.NativeRequest{Type: protocol.NativeTypeRequest, ID: int64(p.nativeCount), Method: req.Method, Params: req.Params, Class: req.Class})
	if err != nil {
		p.t.Fatal(err)
	}
	return b
}

// answer sends the transcript's native response and returns it as the
// transcript keeps it: the frame as sent, its id the request's.
func (p *player) answer(file, body string) string {
	var frame struct {
		Result json.RawMessage `json:"result"`
		Error  *protocol.Error `json:"error"`
	}
	if err := json.Unmarshal([]byte(p.substitute(body)), &frame); err != nil {
		p.t.Fatalf("%s: native response: %v", file, err)
	}
	p.answers <- nativeAnswer{frame.Result, frame.Error}
	resp := protocol.NativeResponse{Type: protocol.NativeTypeResponse, ID: int64(p.nativeCount), Error: frame.Error}
	if frame.Error == nil {
		resp.Result = frame.Result
	}
	b, err := json.Marshal(resp)
	if err != nil {
		p.t.Fatal(err)
	}
	return p.normalise(b)
}

// check compares what happened with the transcript's section, or records
// it there with -update.
func (p *player) check(file string, sec *section, actual []byte) {
	got := p.normalise(actual)
	if got == sec.body {
		return
	}
	if *update {
		sec.body = got
		return
	}
	p.t.Errorf("%s: the %s differs from the transcript (run with -update if the change is meant)\ngot:\n%s\nwant:\n%s", file, sec.name, got, sec.body)
}

// normalise indents a JSON message and replaces its volatile values with
// placeholders, numbered in the order the replay first sees them.
func (p *player) normalise(raw []byte) string {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		p.t.Fatalf("not JSON: %s", raw)
	}
	p.collect(v, "")
	var buf bytes.Buffer
	if err := json.Indent(&buf, raw, "", "  "); err != nil {
		p.t.Fatal(err)
	}
	s := buf.String()
	for _, real := range sortedByLength(p.toPlaceholder) {
		s = strings.ReplaceAll(s, quote(real), quote(p.toPlaceholder[real]))
	}
	return s + "\n"
}

// collect gives each new volatile value its placeholder. Numbers are not
// volatile (Chrome's tab ids come from the transcript's native responses),
// nor is a JSON-RPC id: those are written by hand.
func (p *player) collect(v any, key string) {
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys) // numbered the same way every run
		for _, k := range keys {
			p.collect(x[k], k)
		}
	case []any:
		for _, e := range x {
			p.collect(e, key)
		}
	case string:
		label, ok := volatile[key]
		if !ok || strings.HasPrefix(x, "<") {
			return
		}
		if _, seen := p.toPlaceholder[x]; !seen {
			p.counts[label]++
			ph := fmt.Sprintf("<%s-%d>", label, p.counts[label])
			p.toPlaceholder[x], p.toValue[ph] = ph, x
		}
	}
}

// substitute puts the values back in place of their placeholders.
func (p *player) substitute(body string) string {
	for _, ph := range sortedByLength(p.toValue) {
		body = strings.ReplaceAll(body, quote(ph), quote(p.toValue[ph]))
	}
	return body
}

func sortedByLength(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if len(keys[i]) != len(keys[j]) {
			return len(keys[i]) > len(keys[j])
		}
		return keys[i] < keys[j]
	})
	return keys
}

// quote is s as it stands inside a JSON string, so that a value is
// replaced inside a message too ("tab tab_… has navigated"). Volatile values
// are long random strings: they occur nowhere by chance.
func quote(s string) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // placeholders read "<tab-1>", not "\u003ctab-1\u003e"
	enc.Encode(s)
	q := strings.TrimSpace(buf.String())
	return q[1 : len(q)-1]
}

func compact(t *testing.T, body string) []byte {
	var buf bytes.Buffer
	if err := json.Compact(&buf, []byte(body)); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, body)
	}
	return buf.Bytes()
}

// checkGenerated compares a generated file with its content, or writes it
// with -update.
func checkGenerated(t *testing.T, path string, want []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, want, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(path)
	if err != nil || !bytes.Equal(got, want) {
		t.Errorf("%s is stale: run go test ./internal/host -run TestTranscripts -update", path)
	}
}
