package audit

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/agenttab/agenttab/protocol"
)

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.FixedZone("CET", 3600))

func readLines(t *testing.T, path string) []map[string]any {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]any
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("line %q is not one JSON object: %v", sc.Text(), err)
		}
		out = append(out, m)
	}
	return out
}

func TestWriteRecordSchema(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	l, err := Open(path, true)
	if err != nil {
		t.Fatal(err)
	}
	args := json.RawMessage(`{"url":"https://example.com/a","mode":"create"}`)
	err = l.Write(Record{
		TS: t0, TSEnd: t0.Add(1500 * time.Microsecond), Kind: KindRequest,
		ConnectionID: "conn_1", TaskID: "task_1", RequestID: RequestID(json.RawMessage(`7`)),
		Method: "browser_open", Outcome: protocol.OutcomeConfirmed,
		TargetOrigins: Origins(args), ArgsSummary: Summarize(args), ArgsDigest: Digest(args),
		ResultSummary: Summarize(json.RawMessage(`{"outcome":"confirmed"}`)),
	})
	if err != nil {
		t.Fatal(err)
	}
	err = l.Write(Record{TS: t0, Kind: KindEvent, ConnectionID: "conn_2", Method: "event.peer_refused",
		ErrorCode: protocol.CodeNotOwned, Recovery: "reconnect"})
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	got := readLines(t, path)
	want := []map[string]any{
		{
			"ts": "2026-03-01T11:00:00Z", "ts_end": "2026-03-01T11:00:00.0015Z", "kind": "request",
			"connection_id": "conn_1", "task_id": "task_1", "request_id": "7", "method": "browser_open",
			"outcome": "confirmed", "duration_ms": 1.5, "replay": false,
			"target_origins": []any{"https://example.com"},
			"args_summary":   map[string]any{"url": "string(21)", "mode": "string(6)"},
			"args_digest":    Digest(args),
			"result_summary": map[string]any{"outcome": "string(9)"},
		},
		{
			// No task, no result: omitted. No origins: [], never null.
			"ts": "2026-03-01T11:00:00Z", "ts_end": "2026-03-01T11:00:00Z", "kind": "event",
			"connection_id": "conn_2", "request_id": "", "method": "event.peer_refused",
			"outcome": "", "duration_ms": 0.0, "replay": false, "target_origins": []any{},
			"args_summary": nil, "args_digest": "", "error_code": "not_owned", "recovery": "reconnect",
		},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("audit lines mismatch (-want +got):\n%s", diff)
	}
}

func TestWriteRefusesMalformedRecords(t *testing.T) {
	l, err := Open(filepath.Join(t.TempDir(), "audit.jsonl"), true)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	tests := []struct {
		name string
		r    Record
	}{
		{"unknown kind", Record{TS: t0, Kind: "debug"}},
		{"no start time", Record{Kind: KindRequest}},
		{"unmarshalable summary", Record{TS: t0, Kind: KindRequest, ArgsSummary: func() {}}},
	}
	for _, tt := range tests {
		if err := l.Write(tt.r); err == nil {
			t.Errorf("%s: Write succeeded", tt.name)
		}
	}
}

func TestFileMode(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no Unix permission bits on Windows")
	}
	tests := []struct {
		name     string
		existing *os.FileMode
	}{
		{name: "created"},
		{name: "existing world-readable is narrowed", existing: new(os.FileMode(0o644))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "audit.jsonl")
			if tt.existing != nil {
				if err := os.WriteFile(path, []byte("{}\n"), 0o600); err != nil {
					t.Fatal(err)
				}
				if err := os.Chmod(path, *tt.existing); err != nil {
					t.Fatal(err)
				}
			}
			l, err := Open(path, true)
			if err != nil {
				t.Fatal(err)
			}
			defer l.Close()
			fi, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			if got := fi.Mode().Perm(); got != 0o600 {
				t.Errorf("mode = %o, want 600", got)
			}
		})
	}
}

func TestAppendsToExisting(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	for i := range 2 {
		l, err := Open(path, true)
		if err != nil {
			t.Fatal(err)
		}
		if err := l.Write(Record{TS: t0, Kind: KindEvent, Method: "event.pause", RequestID: strconv.Itoa(i)}); err != nil {
			t.Fatal(err)
		}
		if err := l.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if got := len(readLines(t, path)); got != 2 {
		t.Errorf("got %d lines after two opens, want 2", got)
	}
}

func TestDisabledWritesNothing(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "audit.jsonl")
	l, err := Open(path, false)
	if err != nil {
		t.Fatal(err)
	}
	if l.Enabled() {
		t.Error("a disabled log says it is enabled")
	}
	if err := l.Write(Record{TS: t0, Kind: KindRequest, Method: "browser_open"}); err != nil {
		t.Fatal(err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("a disabled log created %s (stat error %v)", path, err)
	}
	// Nor does it touch an existing file.
	if err := os.WriteFile(path, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	l, err = Open(path, false)
	if err != nil {
		t.Fatal(err)
	}
	_ = l.Write(Record{TS: t0, Kind: KindRequest})
	if b, _ := os.ReadFile(path); string(b) != "old\n" {
		t.Errorf("a disabled log changed the file to %q", b)
	}
}

func TestWriteAfterClose(t *testing.T) {
	l, err := Open(filepath.Join(t.TempDir(), "audit.jsonl"), true)
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if err := l.Close(); err != nil {
		t.Errorf("second Close() = %v", err)
	}
	if err := l.Write(Record{TS: t0, Kind: KindEvent}); err == nil {
		t.Error("Write after Close succeeded")
	}
}

// TestConcurrentWriters checks that lines never interleave: every line is a
// whole record, and every record is there once.
func TestConcurrentWriters(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	l, err := Open(path, true)
	if err != nil {
		t.Fatal(err)
	}
	const writers, each = 16, 50
	big := json.RawMessage(`{"k":"` + string(bytes.Repeat([]byte("x"), 8000)) + `"}`)
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				r := Record{TS: t0, Kind: KindRequest, RequestID: strconv.Itoa(w*each + i), ArgsSummary: Summarize(big)}
				if err := l.Write(r); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, m := range readLines(t, path) {
		seen[m["request_id"].(string)] = true
	}
	if len(seen) != writers*each {
		t.Errorf("got %d distinct records, want %d", len(seen), writers*each)
	}
}
