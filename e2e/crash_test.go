package e2e

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/google/uuid"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	_ "modernc.org/sqlite" // the "sqlite" driver, as internal/store uses it

	"github.com/agenttab/agenttab/e2e/harness"
	"github.com/agenttab/agenttab/protocol"
)

// crashKills is how often the host is killed during the burst (the issue's
// must-show: "killed with SIGKILL at 50 randomly chosen points").
const crashKills = 50

// crashMaxDelay bounds how far into a burst the kill lands. One batch takes
// tens of milliseconds, so a kill lands before, inside or after any of a
// few batches of each task.
const crashMaxDelay = 400 * time.Millisecond

// crashCallTimeout bounds one call of the burst; none should take long (the
// host's death ends a call at once), so a call that reaches it is a hang.
const crashCallTimeout = time.Minute

// crashPage is the effect the test counts. Every batch fills the field with
// its idempotency key and clicks the button, whose handler sends the field's
// value to the server with a synchronous XMLHttpRequest: the server has
// counted the effect before the click handler returns, so before the
// click's receipt exists.
const crashPage = `<!doctype html><title>Effects</title>
<label>Key <input id="k"></label>
<button onclick="send()">Send</button>
<script>
function send() {
  const x = new XMLHttpRequest();
  x.open('POST', '/hit?k=' + encodeURIComponent(document.getElementById('k').value), false);
  x.send();
}
</script>`

// The host is SIGKILLed at 50 random points of a burst of browser_act
// batches from two tasks. Afterwards every interrupted key answers as its
// durable record says (the rule is at resendInterrupted), no batch ran
// twice (the page counts every effect), both agents still work on their
// own task and tab, and PRAGMA integrity_check is ok.
func TestHostCrashDuringMutationBurst(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d (the kill delays)", seed)
	rng := rand.New(rand.NewPCG(seed, seed>>32))

	e := harness.Start(t)
	fx := &effects{hits: map[string]int{}}
	base := e.Serve(fx)
	// Two adapters of one parent (this test) keep separate tasks
	// (TestSiblingAdaptersKeepTheirOwnTasks); the assertion below checks it.
	workers := []*crashWorker{{name: "A", s: e.MCP(t)}, {name: "B", s: e.MCP(t)}}
	for _, w := range workers {
		opened := ok(t, w.s, protocol.MethodOpen, map[string]any{"url": base + "/"})
		w.tab, w.task = handleOf(t, opened), fmt.Sprint(taskOf(t, opened)["id"])
		w.refresh(t)
	}
	if workers[0].task == workers[1].task {
		t.Fatalf("two MCP sessions share task %s", workers[0].task)
	}
	db := openStateDB(t, e)

	var all []*crashCall
	for round := 1; round <= crashKills; round++ {
		stop := make(chan struct{})
		var wg sync.WaitGroup
		for _, w := range workers {
			w.calls = nil
			wg.Go(func() { w.burst(round, stop) })
		}
		time.Sleep(time.Duration(rng.Int64N(int64(crashMaxDelay) + 1)))
		e.KillHost(t)
		close(stop)
		wg.Wait()
		for _, w := range workers {
			for _, c := range w.calls {
				if c.first.kind == kindInterrupted {
					resendInterrupted(t, db, c)
				}
			}
			all = append(all, w.calls...)
			if w.stale {
				w.refresh(t)
			}
		}
	}

	// Every key once more: a completed key replays its recorded answer, a
	// started one answers unknown; nothing runs.
	for _, c := range all {
		if c.first.replay {
			t.Errorf("%s: the first call with a fresh key answered a replay: %v", c, c.first.res)
		}
		rec := idempotencyRecord(t, db, protocol.MethodAct, c.key)
		if rec.state == "" {
			t.Errorf("%s: the call was answered (%s) but the host holds no record of its key", c, c.final)
			continue
		}
		if (rec.state == stateStarted) != (c.final.kind == kindUnknown) {
			t.Errorf("%s: record %s, but the call was answered %s", c, rec.state, c.final)
		}
		if rec.state == stateCompleted && c.final.kind != kindBroken {
			// The record keeps no page data (internal/host/replay.go):
			// the answers' URLs and titles are not compared.
			if d := cmp.Diff(rec.answer(), withoutReplay(c.final.res), cmpopts.IgnoreMapEntries(isPageData)); d != "" {
				t.Errorf("%s: the recorded answer differs from the one the agent got (-recorded +answered):\n%s", c, d)
			}
		}
		checkAnswer(t, c, rec, classify(callTool(c.w.s, protocol.MethodAct, c.args)))
	}

	// A snapshot waits behind everything still queued for the task in the
	// extension (its scheduler's read lane), so every effect of every batch
	// that reached Chrome has reached the server by now. Both agents are
	// still on their own task and tab.
	for _, w := range workers {
		snap(t, w.s, w.tab, nil)
		tabs := ok(t, w.s, protocol.MethodTabs, map[string]any{"tab": w.tab})
		if got := fmt.Sprint(taskOf(t, tabs)["id"]); got != w.task {
			t.Errorf("agent %s works on task %s after the crashes, want %s", w.name, got, w.task)
		}
	}
	hits := fx.counts()
	checkEffects(t, all, hits)
	logCrashSummary(t, all, hits)
	db.Close()
	integrityOK(t, e)
}

// effects serves crashPage and counts the effects it sends, per key.
type effects struct {
	mu   sync.Mutex
	hits map[string]int
}

func (fx *effects) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/":
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		fmt.Fprint(w, crashPage)
	case "/hit":
		fx.mu.Lock()
		fx.hits[r.URL.Query().Get("k")]++
		fx.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	default:
		http.NotFound(w, r)
	}
}

func (fx *effects) counts() map[string]int {
	fx.mu.Lock()
	defer fx.mu.Unlock()
	return maps.Clone(fx.hits)
}

// crashWorker is one agent: an MCP session (its own task) and its tab.
type crashWorker struct {
	name, task, tab string
	s               *mcp.ClientSession
	rev             int64
	field, button   string       // refs
	calls           []*crashCall // this round's
	stale           bool         // the revision or a ref went stale: snapshot before the next burst
}

func (w *crashWorker) refresh(t *testing.T) {
	t.Helper()
	text, rev, _ := snap(t, w.s, w.tab, nil)
	w.rev, w.field, w.button = rev, refOf(t, text, "textbox", "Key"), refOf(t, text, "button", "Send")
	w.stale = false
}

// burst sends batches, each under a fresh key, until stop is closed or one
// does not run. It runs on its own goroutine, so it records what happened
// and never fails the test itself.
func (w *crashWorker) burst(round int, stop <-chan struct{}) {
	untilStopped(stop, func(key string) bool {
		c := &crashCall{w: w, round: round, key: key, args: map[string]any{
			"tab": w.tab, "expected_page_revision": w.rev, "idempotency_key": key,
			"actions": []any{step("fill", "ref", w.field, "text", key), step("click", "ref", w.button)},
		}}
		c.first = classify(callTool(w.s, protocol.MethodAct, c.args))
		c.final = c.first
		w.calls = append(w.calls, c)
		switch c.first.kind {
		case kindRan:
			w.rev = revisionOf(c.first.res)
			return true
		case kindRefused, kindStopped:
			w.stale = true
		}
		// An interrupted batch waits for the host to come back; anything
		// else the test reports once the round is over.
		return false
	})
}

// untilStopped calls send with a fresh idempotency key each time until
// stop is closed or send answers false.
func untilStopped(stop <-chan struct{}, send func(key string) bool) {
	for {
		select {
		case <-stop:
			return
		default:
		}
		// A UUIDv7, which the adapter sends as it is (agentkeys.go), so
		// that the test finds each key's record in state.db.
		if !send(uuid.Must(uuid.NewV7()).String()) {
			return
		}
	}
}

// crashCall is one batch of the burst.
type crashCall struct {
	w     *crashWorker
	round int
	key   string
	args  map[string]any
	first verdict // the answer to the first send
	// resent is the key's record when an interrupted call was sent again.
	resent *idemRecord
	// final is the answer that settles the key: the first one, or for an
	// interrupted call the answer to sending it again.
	final verdict
}

func (c *crashCall) String() string {
	return fmt.Sprintf("agent %s, round %d, key %s", c.w.name, c.round, c.key)
}

type verdictKind int

const (
	kindRan         verdictKind = iota // a receipt without error: the batch ran
	kindStopped                        // a receipt whose step failed: the steps before it ran
	kindRefused                        // a failure that ran nothing (stale_revision)
	kindInterrupted                    // the host went away: its answer, if any, was lost
	kindUnknown                        // idempotency_key_in_progress: started, never completed
	kindBroken                         // not a well-formed AgentTab answer
)

var verdictNames = [...]string{"ran", "stopped", "refused", "interrupted", "unknown", "broken"}

// verdict is an answer to a browser_act call, classified.
type verdict struct {
	kind    verdictKind
	res     map[string]any
	code    string
	outcome string
	replay  bool
	err     error
}

func (v verdict) String() string {
	if v.err != nil {
		return fmt.Sprintf("%s: %v", verdictNames[v.kind], v.err)
	}
	return fmt.Sprintf("%s (code %q, outcome %q, replay %v)", verdictNames[v.kind], v.code, v.outcome, v.replay)
}

// interruptions are the failures that mean the host went away mid-call.
var interruptions = map[string]bool{
	string(protocol.CodeHostUnavailable): true, string(protocol.CodeExtensionGone): true, string(protocol.CodeExtensionTimeout): true,
}

func classify(res map[string]any, isErr bool, err error) verdict {
	v := verdict{res: res, err: err}
	if err != nil {
		v.kind = kindBroken
		return v
	}
	v.replay, _ = res["replay"].(bool)
	v.outcome, _ = res["outcome"].(string)
	if _, receipt := res["steps"]; receipt {
		if !isErr {
			v.kind = kindRan
			return v
		}
		failed, _ := res["error"].(map[string]any)
		v.kind = kindStopped
		v.code, _ = failed["code"].(string)
		return v
	}
	v.code, _ = res["code"].(string)
	switch {
	case !isErr:
		v.kind, v.err = kindBroken, fmt.Errorf("a success without receipts: %v", res)
	case interruptions[v.code]:
		v.kind = kindInterrupted
	case v.code == string(protocol.CodeIdempotencyInProgress):
		v.kind = kindUnknown
	case v.code == string(protocol.CodeStaleRevision) && v.outcome == string(protocol.OutcomeNotStarted):
		v.kind = kindRefused
	default:
		v.kind, v.err = kindBroken, fmt.Errorf("unexpected failure: %v", res)
	}
	return v
}

// callTool is harness.CallTool for a goroutine that is not the test's: it
// returns what went wrong instead of failing the test.
func callTool(s *mcp.ClientSession, name string, args map[string]any) (map[string]any, bool, error) {
	ctx, cancel := context.WithTimeout(context.Background(), crashCallTimeout)
	defer cancel()
	res, err := s.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		return nil, false, fmt.Errorf("calling %s: %w", name, err)
	}
	raw, err := json.Marshal(res.StructuredContent)
	if err != nil {
		return nil, false, err
	}
	var out map[string]any
	if err := json.Unmarshal(raw, &out); err != nil || out == nil {
		return nil, false, fmt.Errorf("%s: the structured content is not an object: %s", name, raw)
	}
	return out, res.IsError, nil
}

// resendInterrupted sends an interrupted call again, with the same key and
// arguments, once the host is back, and checks the answer against the
// key's durable record as the host found it.
//
// The rule (internal/host/idempotency.go, internal/store/idempotency.go):
// the host commits a "started" record (synchronous FULL) before it sends
// anything to Chrome, and "completed" with the answer before it answers.
// So when a kill lost the answer:
//   - no record: the call never got past the host's begin (the adapter
//     could not reach the host, the new host was not ready yet, or the old
//     one died first). Nothing reached Chrome; sending it again runs it,
//     for the first time. An interruption the adapter reported as
//     not_started always has no record.
//   - started: it may have reached Chrome. Sending it again answers
//     idempotency_key_in_progress with outcome unknown, never replays it,
//     and runs nothing — so the issue's "every interrupted key answers
//     unknown" holds for every key that had started and not completed.
//   - completed: the host finished it just before dying. Sending it again
//     answers the recorded answer (a result marked replay: true; a recorded
//     failure as it was) and runs nothing.
//
// Whatever the record, the page's count for the key ends at most 1.
func resendInterrupted(t *testing.T, db *sql.DB, c *crashCall) {
	t.Helper()
	rec := idempotencyRecord(t, db, protocol.MethodAct, c.key)
	c.resent = &rec
	if c.first.outcome == string(protocol.OutcomeNotStarted) && rec.state != "" {
		t.Errorf("%s: interrupted with outcome not_started (%s), but the host had recorded the key as %s", c, c.first, rec.state)
	}
	c.final = classify(callTool(c.w.s, protocol.MethodAct, c.args))
	checkAnswer(t, c, rec, c.final)
}

// checkAnswer checks an answer to a repeated key against the key's record
// as it was before the call (the rule at resendInterrupted); c names the
// call in messages.
func checkAnswer(t *testing.T, c fmt.Stringer, rec idemRecord, v verdict) {
	t.Helper()
	switch rec.state {
	case "":
		if (v.kind != kindRan && v.kind != kindStopped && v.kind != kindRefused) || v.replay {
			t.Errorf("%s: the host had no record of the key, so the call should have run now; it answered %s", c, v)
		}
	case stateStarted:
		if v.kind != kindUnknown || v.outcome != string(protocol.OutcomeUnknown) {
			t.Errorf("%s: the key was started and never completed, so it must answer idempotency_key_in_progress/unknown; it answered %s", c, v)
		}
	case stateCompleted:
		if v.kind == kindBroken || v.kind == kindInterrupted || v.kind == kindUnknown {
			t.Errorf("%s: the key completed, so it must replay its answer; it answered %s", c, v)
			return
		}
		want := rec.answer()
		if !rec.failed {
			want["replay"] = true
		}
		if d := cmp.Diff(want, v.res); d != "" {
			t.Errorf("%s: the repeated key did not answer its recorded answer (-recorded +answered):\n%s", c, d)
		}
	default:
		t.Errorf("%s: record state %q", c, rec.state)
	}
}

// checkEffects: no batch ran twice; every batch that ran, ran once; nothing
// ran that was refused; and the page sent no effect no call asked for.
func checkEffects(t *testing.T, all []*crashCall, hits map[string]int) {
	t.Helper()
	issued := map[string]bool{}
	for _, c := range all {
		issued[c.key] = true
		n := hits[c.key]
		if n > 1 {
			t.Errorf("%s: the batch ran %d times (answered %s)", c, n, c.final)
		}
		switch c.final.kind {
		case kindRan:
			if n != 1 {
				t.Errorf("%s: answered that the batch ran, but the page counted %d effects", c, n)
			}
		case kindRefused:
			if n != 0 {
				t.Errorf("%s: refused (%s), but the page counted %d effects", c, c.final, n)
			}
		case kindStopped:
			if want, sure := clickEffects(c.final.res); sure && n != want {
				t.Errorf("%s: the receipt says the click ran %d times, the page counted %d: %v", c, want, n, c.final.res)
			}
		case kindBroken:
			t.Errorf("%s: %s", c, c.final)
		}
	}
	for k, n := range hits {
		if !issued[k] {
			t.Errorf("the page sent %d effects for key %q, which no call carried", n, k)
		}
	}
}

// clickEffects reads from a stopped batch's receipts how many effects the
// click sent, when the receipt is definite.
func clickEffects(res map[string]any) (int, bool) {
	steps := stepsOf(res)
	if len(steps) < 2 {
		return 0, true // the fill failed; the click never ran
	}
	switch protocol.Outcome(fmt.Sprint(steps[1]["outcome"])) {
	case protocol.OutcomeNotStarted:
		return 0, true
	case protocol.OutcomeConfirmed, protocol.OutcomeDispatched, protocol.OutcomeObserved:
		return 1, true
	}
	return 0, false
}

func logCrashSummary(t *testing.T, all []*crashCall, hits map[string]int) {
	var first, final [len(verdictNames)]int
	records := map[string]int{}
	notStarted, effects, unknownWithEffect := 0, 0, 0
	for _, c := range all {
		effects += hits[c.key]
		if c.final.kind == kindUnknown && hits[c.key] > 0 {
			unknownWithEffect++
		}
		first[c.first.kind]++
		final[c.final.kind]++
		if c.resent != nil {
			state := c.resent.state
			if state == "" {
				state = "none"
			}
			records[state]++
		}
		if c.first.kind == kindInterrupted && c.first.outcome == string(protocol.OutcomeNotStarted) {
			notStarted++
		}
	}
	count := func(v [len(verdictNames)]int) string {
		var parts []string
		for k, n := range v {
			parts = append(parts, fmt.Sprintf("%s %d", verdictNames[k], n))
		}
		return strings.Join(parts, ", ")
	}
	t.Logf("%d kills, %d calls (keys); first answers: %s", crashKills, len(all), count(first))
	t.Logf("interrupted: %d (%d reported not_started); their records when sent again: none %d (ran now), started %d (answered unknown), completed %d (replayed)",
		first[kindInterrupted], notStarted, records["none"], records[stateStarted], records[stateCompleted])
	t.Logf("settled answers: %s; %d effects counted, %d of them by batches that answer unknown", count(final), effects, unknownWithEffect)
}

// Idempotency record states (internal/store/idempotency.go).
const (
	stateStarted   = "started"
	stateCompleted = "completed"
)

// idemRecord is a key's row in STATE/state.db; state "" when there is none.
type idemRecord struct {
	state  string
	result []byte
	failed bool
}

// answer is the recorded answer as an agent receives it.
func (r idemRecord) answer() map[string]any {
	var m map[string]any
	json.Unmarshal(r.result, &m)
	return m
}

// isPageData: the keys of the page data a replay record leaves out or
// cuts to an origin.
func isPageData(key string, _ any) bool { return key == "url" || key == "title" || key == "snapshot" }

func withoutReplay(res map[string]any) map[string]any {
	out := make(map[string]any, len(res))
	for k, v := range res {
		if k != "replay" {
			out[k] = v
		}
	}
	return out
}

// openStateDB opens STATE/state.db read-only, next to the running host
// (WAL lets a reader see the last committed state without disturbing it).
func openStateDB(t *testing.T, e *harness.Env) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(e.StateDir, "state.db")+"?mode=ro&_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatalf("opening state.db read-only: %v", err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func idempotencyRecord(t *testing.T, db *sql.DB, method, key string) idemRecord {
	t.Helper()
	var r idemRecord
	err := db.QueryRow(`SELECT state, result, failed FROM idempotency WHERE key = ? AND method = ?`, key, method).
		Scan(&r.state, &r.result, &r.failed)
	if errors.Is(err, sql.ErrNoRows) {
		return idemRecord{}
	}
	if err != nil {
		t.Fatalf("reading the idempotency record of %s: %v", key, err)
	}
	return r
}

// integrityOK runs PRAGMA integrity_check on a fresh read-only connection.
func integrityOK(t *testing.T, e *harness.Env) {
	t.Helper()
	db := openStateDB(t, e)
	defer db.Close()
	rows, err := db.Query("PRAGMA integrity_check")
	if err != nil {
		t.Fatalf("PRAGMA integrity_check: %v", err)
	}
	defer rows.Close()
	var lines []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			t.Fatal(err)
		}
		lines = append(lines, line)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if len(lines) != 1 || lines[0] != "ok" {
		t.Errorf("PRAGMA integrity_check after the kills: %q, want ok", lines)
	}
}
