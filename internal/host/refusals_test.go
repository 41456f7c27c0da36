package host

import (
	"bytes"
	"encoding/json"
	"log"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agenttab/agenttab/internal/audit"
	"github.com/agenttab/agenttab/internal/corerpc"
	"github.com/agenttab/agenttab/protocol"
)

// windows stands in for time.AfterFunc: the test ends each window itself.
type windows struct{ pending []func() }

func (w *windows) after(_ time.Duration, f func()) { w.pending = append(w.pending, f) }

// end ends every window open now.
func (w *windows) end() {
	due := w.pending
	w.pending = nil
	for _, f := range due {
		f()
	}
}

// The first refusal of a quiet spell is written at once; the rest of its
// window is one record that counts them; a window with nothing in it
// closes, and the next refusal is written at once again. Codes have their
// own windows; flush writes what is counted.
func TestRefusalsCoalesce(t *testing.T) {
	var w windows
	var got []refusal
	r := refusals{emit: func(x refusal) { got = append(got, x) }, after: w.after}
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	over := func(i int) refusal {
		return refusal{code: protocol.CodeTooManyConnections, pid: 1000 + i, message: "m", recovery: "rec", last: t0.Add(time.Duration(i) * time.Millisecond)}
	}

	r.note(over(0))
	for i := 1; i <= 500; i++ {
		r.note(over(i))
	}
	r.note(refusal{code: protocol.CodePeerRefused, pid: 7, message: "uid", recovery: "uid", last: t0})
	if len(got) != 2 || got[0].count != 1 || got[0].pid != 1000 || got[1].code != protocol.CodePeerRefused || got[1].count != 1 {
		t.Fatalf("records during the burst: %+v, want the first of each code only", got)
	}
	w.end()
	if len(got) != 3 {
		t.Fatalf("after the window: %d records, want one more", len(got))
	}
	if b := got[2]; b.code != protocol.CodeTooManyConnections || b.count != 500 || !b.first.Equal(over(1).last) || !b.last.Equal(over(500).last) || b.pid != 1500 || b.recovery != "rec" {
		t.Fatalf("the window's record: %+v, want 500 refusals from the second to the last", b)
	}
	w.end() // nothing came: both windows close
	if len(got) != 3 || len(r.open) != 0 {
		t.Fatalf("quiet windows wrote %+v, open %v", got[3:], r.open)
	}
	r.note(over(600))
	r.note(over(601))
	if len(got) != 4 || got[3].count != 1 {
		t.Fatalf("after a quiet window the next refusal is not written at once: %+v", got[3:])
	}
	r.flush()
	if len(got) != 5 || got[4].count != 1 || !got[4].last.Equal(over(601).last) {
		t.Fatalf("flush wrote %+v", got[4:])
	}
	total := 0
	for _, x := range got {
		total += x.count
	}
	if total != 504 {
		t.Errorf("the records count %d refusals, want all 504", total)
	}
}

// Issue 9: 1,000 connections over the limit had been 1,000 audit records
// and 1,000 host-log lines; within one window they are one record and one
// line at once and one of each for the rest, which say how many.
func TestOverLimitRefusalsAreCoalescedInTheAuditAndLog(t *testing.T) {
	dir := t.TempDir()
	var logged bytes.Buffer
	var w windows
	h := &Host{log: log.New(&logged, "", 0), now: time.Now}
	h.refusals = refusals{emit: h.writeRefusal, after: w.after}
	var err error
	if h.audit, err = audit.Open(filepath.Join(dir, "audit.jsonl"), true); err != nil {
		t.Fatal(err)
	}
	e := protocol.NewError(protocol.CodeTooManyConnections, protocol.OutcomeNotStarted, "over the limit", "close some")
	const refusedConns = 1000
	for i := range refusedConns {
		h.RefusedOverLimit(corerpc.Cred{PID: 100 + i}, e)
	}
	w.end()
	h.audit.Close()

	data, err := os.ReadFile(filepath.Join(dir, "audit.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.Split(bytes.TrimSpace(data), []byte("\n"))
	total := 0
	for _, line := range lines {
		var rec audit.Record
		if err := json.Unmarshal(line, &rec); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		if rec.Method != "event.peer_refused" || rec.ErrorCode != protocol.CodeTooManyConnections || rec.Outcome != protocol.OutcomeNotStarted || rec.Recovery != "close some" {
			t.Errorf("refusal audited as %s", line)
		}
		total += rec.Count
	}
	if len(lines) != 2 || total != refusedConns {
		t.Errorf("%d audit records counting %d refusals, want 2 counting %d", len(lines), total, refusedConns)
	}
	if n := strings.Count(logged.String(), "\n"); n != 2 || !strings.Contains(logged.String(), "refused 999 Core peers (too_many_connections)") {
		t.Errorf("host log has %d lines, want 2 saying how many:\n%s", n, logged.String())
	}
}
