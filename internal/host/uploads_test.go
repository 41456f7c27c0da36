package host

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agenttab/agenttab/internal/statedir"
	"github.com/agenttab/agenttab/protocol"
)

// uploadTimers stands in for the uploads' time.AfterFunc: the test runs
// the pending functions itself.
type uploadTimers struct {
	mu      sync.Mutex
	pending []func()
}

func (u *uploadTimers) after(_ time.Duration, f func()) {
	u.mu.Lock()
	u.pending = append(u.pending, f)
	u.mu.Unlock()
}

// fire runs every pending timer (each upload timer is a removal that may
// come at any moment).
func (u *uploadTimers) fire() {
	u.mu.Lock()
	p := u.pending
	u.pending = nil
	u.mu.Unlock()
	for _, f := range p {
		f()
	}
}

// uploadRig is a host whose policy admits a folder holding doc.txt, with
// the uploads' timers in the test's hands.
type uploadRig struct {
	*rig
	c      *rigClient
	tab    string
	doc    string
	timers *uploadTimers
}

func startUploadRig(t *testing.T, opts ...rigOption) *uploadRig {
	t.Helper()
	dir := tempStateDir(t)
	root := t.TempDir()
	doc := filepath.Join(root, "doc.txt")
	os.WriteFile(doc, []byte("the user's file"), 0o600)
	if err := os.WriteFile(dir.Policy(), fmt.Appendf(nil, `{"uploads":{"dlp_allowed_roots":[%q]}}`, root), 0o600); err != nil {
		t.Fatal(err)
	}
	timers := &uploadTimers{}
	opts = append(opts, withDir(dir), func(c *rigConfig) { c.inspect = func(h *Host) { h.held.after = timers.after } })
	r := startRig(t, opts...)
	c, tab := openOne(t, r)
	return &uploadRig{rig: r, c: c, tab: tab, doc: doc, timers: timers}
}

// act runs one upload_file step whose receipt the fake answers with
// outcome (staged: with a stage report of handle).
func (u *uploadRig) act(t *testing.T, outcome protocol.Outcome, handle string) protocol.ActResult {
	t.Helper()
	u.ext.mu.Lock()
	u.ext.actSteps = []protocol.StepReceipt{{Index: 0, Kind: protocol.StepUploadFile, Outcome: outcome}}
	if outcome == protocol.OutcomeStaged {
		u.ext.review.stageNext = stageReport(handle)
	}
	u.ext.mu.Unlock()
	defer func() {
		u.ext.mu.Lock()
		u.ext.actSteps = nil
		u.ext.mu.Unlock()
	}()
	return rpc[protocol.ActResult](t, u.c.Client, protocol.MethodAct, protocol.ActParams{Tab: u.tab, ExpectedPageRevision: 1,
		Actions: []protocol.Step{{Kind: protocol.StepUploadFile, Ref: "e1", Path: u.doc}}})
}

// stage stages the upload for review and returns the stage id.
func (u *uploadRig) stage(t *testing.T, handle string) string {
	t.Helper()
	res := u.act(t, protocol.OutcomeStaged, handle)
	if res.Outcome != protocol.OutcomeStaged || res.Steps[0].Stage == nil {
		t.Fatalf("staged upload: %+v", res)
	}
	if n := copies(t, u.dir); n != 1 {
		t.Fatalf("%d copies held for the stage, want 1", n)
	}
	return res.Steps[0].Stage.Stage
}

// copies counts the files STATE/uploads holds.
func copies(t *testing.T, dir statedir.Dir) int {
	t.Helper()
	n := 0
	filepath.WalkDir(dir.Uploads(), func(_ string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			n++
		}
		return nil
	})
	return n
}

// A staged upload's copy is held until its stage ends, and goes at once
// when the stage is denied, discarded or expires.
func TestHeldUploadGoesWithItsStage(t *testing.T) {
	ends := map[string]func(t *testing.T, u *uploadRig, stage string){
		"deny": func(t *testing.T, u *uploadRig, _ string) {
			if st := u.ext.reviewStage(t, canaryHandle, false); st != protocol.StageDenied {
				t.Fatalf("deny: %s", st)
			}
		},
		"yolo on": func(t *testing.T, u *uploadRig, _ string) {
			u.ext.reviewStage(t, canaryHandle, true)
			if a := u.ext.ask(protocol.NativeYolo, protocol.YoloParams{On: true}); a.Error != nil {
				t.Fatal(a.Error)
			}
		},
		"finish": func(t *testing.T, u *uploadRig, _ string) {
			rpc[protocol.FinishResult](t, u.c.Client, protocol.MethodFinish, nil)
		},
		"expiry": func(t *testing.T, u *uploadRig, _ string) { u.timers.fire() },
	}
	for name, end := range ends {
		t.Run(name, func(t *testing.T) {
			u := startUploadRig(t)
			stage := u.stage(t, canaryHandle)
			end(t, u, stage)
			if n := copies(t, u.dir); n != 0 {
				t.Fatalf("%d copies left after the stage ended", n)
			}
		})
	}
	t.Run("approve and commit", func(t *testing.T) {
		u := startUploadRig(t)
		stage := u.stage(t, canaryHandle)
		u.ext.reviewStage(t, canaryHandle, true)
		res := rpc[protocol.CommitResult](t, u.c.Client, protocol.MethodCommit, protocol.CommitParams{Stage: stage})
		if res.Outcome != protocol.OutcomeConfirmed {
			t.Fatalf("commit: %+v", res)
		}
		if n := copies(t, u.dir); n != 1 {
			t.Fatalf("%d copies after the commit, want the one the page has", n)
		}
	})
}

// A copy is removed at once only when its step surely never reached the
// page; an unknown outcome, of the step or of the whole call, keeps it
// for UploadKeepAfterUseMs.
func TestUploadRetentionByOutcome(t *testing.T) {
	for _, tc := range []struct {
		outcome protocol.Outcome
		kept    bool
	}{{protocol.OutcomeConfirmed, true}, {protocol.OutcomeUnknown, true}, {protocol.OutcomeNotStarted, false}} {
		t.Run(string(tc.outcome), func(t *testing.T) {
			u := startUploadRig(t)
			u.act(t, tc.outcome, "")
			if got := copies(t, u.dir) == 1; got != tc.kept {
				t.Fatalf("copy kept %v, want %v", got, tc.kept)
			}
			u.timers.fire()
			if n := copies(t, u.dir); n != 0 {
				t.Fatalf("%d copies after their time", n)
			}
		})
	}
	t.Run("the call failed unknown", func(t *testing.T) {
		u := startUploadRig(t, withFake(func(f *fakeExtension) {
			f.script = func(r seenRequest) (any, *protocol.Error) {
				if r.Method == protocol.NativeAct {
					return nil, protocol.NewError(protocol.CodeInternal, protocol.OutcomeUnknown, "the worker stopped mid-batch", protocol.RecoveryUpdate)
				}
				return f.handle(r.Method, r.Params)
			}
		}))
		e := callErr(t, u.c.Client, protocol.MethodAct, protocol.ActParams{Tab: u.tab, ExpectedPageRevision: 1,
			Actions: []protocol.Step{{Kind: protocol.StepUploadFile, Ref: "e1", Path: u.doc}}})
		if e == nil || e.Outcome != protocol.OutcomeUnknown || strings.Contains(e.Message, u.doc) {
			t.Fatalf("act: %+v", e)
		}
		if n := copies(t, u.dir); n != 1 {
			t.Fatalf("%d copies after an unknown outcome, want the one Chrome may have set", n)
		}
	})
}
