package host

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"sync"
	"time"

	"github.com/agenttab/agenttab/internal/audit"
	"github.com/agenttab/agenttab/internal/corerpc"
	"github.com/agenttab/agenttab/internal/nativemsg"
	"github.com/agenttab/agenttab/internal/policy"
	"github.com/agenttab/agenttab/internal/statedir"
	"github.com/agenttab/agenttab/internal/store"
	"github.com/agenttab/agenttab/internal/upload"
	"github.com/agenttab/agenttab/protocol"
)

// handshakeTimeout bounds the wait for the extension's hello. Chrome starts
// the host because the extension called connectNative, so hello follows at
// once; a host that never hears it is not attached to a working extension.
const handshakeTimeout = 15 * time.Second

// Options configures one host run.
type Options struct {
	Dir             statedir.Dir
	ExtensionOrigin string // the "chrome-extension://ID/" argument from Chrome
	Stdin           io.Reader
	Stdout          io.Writer
	Version         string
	// Logger receives the host log; Run also appends it to STATE/host.log.
	Logger *log.Logger
	// Now is the clock; tests may replace it.
	Now func() time.Time
	// Ready, when set, is closed once the host admits browser work.
	Ready chan<- struct{}
	// inspect, when set, is handed the Host as it starts: this package's
	// tests read what it holds in memory.
	inspect func(*Host)
}

// Host is one running host process.
type Host struct {
	opts   Options
	log    *log.Logger
	store  *store.Store
	audit  *audit.Log
	policy policy.Policy
	// local decides file: URLs (local_files.allowed_roots, localfiles.go).
	local *localFiles
	life  lifecycle
	link  *link
	now   func() time.Time

	extensionID      string
	extensionVersion string

	texts textCache

	// work counts admitted browser work; pauseMu serialises Pause and
	// Resume (they hold all admission, DESIGN.md "Queues").
	work    activity
	pauseMu sync.Mutex

	mu        sync.Mutex
	sessions  map[string]*session
	taskLocks taskLocks
	// trimMu serialises the bound on detached tasks (detached.go).
	trimMu sync.Mutex
	// refusals coalesces the audit and log lines of refused connections.
	refusals refusals
	// active is when each task last made a request (activity_tasks.go).
	active map[string]time.Time
	// stageGate orders stage records against the YOLO switch (stages.go).
	stageGate stageGate
	// creds is the 1Password broker's logins and tokens (credtokens.go).
	creds credBroker
	// uploads stages upload_file steps' files (uploads.go).
	uploads *upload.Stager
	// held are staged upload steps' copies, by stage id (uploads.go).
	held heldUploads
}

// Run serves until the extension disconnects (stdin EOF) or ctx ends. It
// refuses to start, with an error that says why, when another host holds the
// state directory or the policy is invalid.
func Run(ctx context.Context, opts Options) (err error) {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Logger == nil {
		opts.Logger = log.New(io.Discard, "", 0)
	}
	wantID, err := extensionIDFromOrigin(opts.ExtensionOrigin)
	if err != nil {
		return err
	}
	if err := statedir.Ensure(string(opts.Dir)); err != nil {
		return err
	}
	release, err := statedir.AcquireHostLock(opts.Dir)
	if err != nil {
		return err
	}
	defer release()

	logger, closeLog, err := openHostLog(opts.Dir, opts.Logger)
	if err != nil {
		return err
	}
	defer closeLog()
	// Chrome drops a native host's stderr unless it runs with logging on,
	// so the reason a host stopped goes to host.log too, where `agenttab
	// doctor` shows recent errors from.
	defer func() {
		if err != nil {
			logger.Printf("host stopped with an error: %v", err)
		}
	}()

	h := &Host{opts: opts, log: logger, now: opts.Now, sessions: map[string]*session{}}
	h.refusals.emit = h.writeRefusal
	if opts.inspect != nil {
		opts.inspect(h)
	}
	h.life.set(protocol.LifecycleStarting)
	if h.policy, err = policy.Load(opts.Dir.Policy()); err != nil {
		return fmt.Errorf("refusing to start: %w", err)
	}
	if h.local, err = loadLocalFiles(h.policy, opts.Dir); err != nil {
		return fmt.Errorf("refusing to start: %w", err)
	}
	h.startUploads()
	if h.store, err = store.Open(opts.Dir.DB()); err != nil {
		return fmt.Errorf("refusing to start: %w", err)
	}
	defer h.store.Close()
	// The connections of an earlier host ended with it (killed, its close
	// handlers never ran): their tasks are detached from now on.
	if err := h.store.DetachAll(ctx, h.now()); err != nil {
		return fmt.Errorf("refusing to start: %w", err)
	}
	if h.audit, err = audit.Open(opts.Dir.Audit(), h.policy.Audit.Enabled); err != nil {
		return fmt.Errorf("refusing to start: %w", err)
	}
	defer h.audit.Close()
	// Runs before the audit closes and after the Core server stopped.
	defer h.refusals.flush()

	ln, err := corerpc.Listen(opts.Dir.Socket())
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	srv := corerpc.NewServer(h, corerpc.SelfUID(), logger)
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ctx, ln) }()
	defer func() {
		cancel()
		<-served
		os.Remove(opts.Dir.Socket())
	}()
	logger.Printf("host %s started for %s, state %s", opts.Version, opts.ExtensionOrigin, opts.Dir)

	h.life.set(protocol.LifecycleHandshaking)
	r, w := nativemsg.NewReader(opts.Stdin), nativemsg.NewWriter(opts.Stdout)
	hello, err := handshakeWithin(ctx, r, w, wantID, opts.Version, welcomePolicy(h.policy.Origins, h.local))
	if err != nil {
		return err
	}
	h.extensionID, h.extensionVersion = hello.ExtensionID, hello.ExtensionVersion
	// The switch may have been turned on while no host listened.
	h.helloYolo(ctx, hello.Yolo)
	h.link = newLink(r, w, logger)
	h.link.answer = h.answerExtension
	linkDone := make(chan error, 1)
	go func() { linkDone <- h.link.run(h.onEvent) }()

	h.life.set(protocol.LifecycleReconciling)
	if err := h.reconcile(ctx); err != nil {
		return err
	}
	if err := h.openAdmission(ctx, hello); err != nil {
		return err
	}
	logger.Printf("%s: extension %s %s", h.life.get(), hello.ExtensionID, hello.ExtensionVersion)
	if opts.Ready != nil {
		close(opts.Ready)
	}

	select {
	case err := <-linkDone:
		if errors.Is(err, io.EOF) {
			logger.Printf("extension disconnected (stdin EOF); exiting")
			return nil
		}
		return fmt.Errorf("native link: %w", err)
	case <-ctx.Done():
		return nil
	}
}

// handshakeWithin runs the handshake, giving up after handshakeTimeout.
func handshakeWithin(ctx context.Context, r *nativemsg.Reader, w *nativemsg.Writer, wantID, version string, welcome protocol.NativeWelcome) (protocol.NativeHello, error) {
	type result struct {
		hello protocol.NativeHello
		err   error
	}
	done := make(chan result, 1)
	go func() {
		hello, err := handshake(r, w, wantID, version, welcome)
		done <- result{hello, err}
	}()
	select {
	case res := <-done:
		return res.hello, res.err
	case <-time.After(handshakeTimeout):
		return protocol.NativeHello{}, fmt.Errorf("handshake: no hello from the extension within %s", handshakeTimeout)
	case <-ctx.Done():
		return protocol.NativeHello{}, ctx.Err()
	}
}

// openHostLog appends the host log to STATE/host.log (0600) as well as to
// the given logger's output: Chrome discards a native host's stderr unless it
// was started with logging enabled.
func openHostLog(dir statedir.Dir, base *log.Logger) (*log.Logger, func(), error) {
	f, err := os.OpenFile(dir.HostLog(), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, nil, fmt.Errorf("host log: %w", err)
	}
	return log.New(io.MultiWriter(base.Writer(), f), "agenttab host: ", log.LstdFlags|log.Lmicroseconds), func() { f.Close() }, nil
}

// onEvent applies an extension event to the host's state.
func (h *Host) onEvent(name string, params json.RawMessage) {
	ctx := context.Background()
	switch name {
	case protocol.EventRevoked:
		var r protocol.Revocation
		if err := json.Unmarshal(params, &r); err != nil {
			h.log.Printf("event %s: %v", name, err)
			return
		}
		if err := h.revoke(ctx, r.TabID, r.Reason); err != nil {
			h.log.Printf("event %s: %v", name, err)
		}
	case protocol.EventRevision:
		var r protocol.RevisionNotice
		if err := json.Unmarshal(params, &r); err != nil {
			h.log.Printf("event %s: %v", name, err)
			return
		}
		if err := h.store.SetRevisionFloor(ctx, r.TabID, r.Revision); err != nil {
			h.log.Printf("event %s: %v", name, err)
		}
	case protocol.EventPauseRequested:
		// The reason says who: the popup's Pause, or Cancel on Chrome's
		// debugging banner. An older extension sends none: the user's.
		var p protocol.PauseRequestedParams
		if len(params) > 0 {
			if err := json.Unmarshal(params, &p); err != nil {
				h.log.Printf("event %s: %v", name, err)
			}
		}
		if p.Reason == "" || oneOf("reason", p.Reason, protocol.PauseReasons) != nil {
			p.Reason = protocol.PauseByUser
		}
		go h.pauseFrom(context.Background(), "popup", p.Reason)
	case protocol.EventResumeRequested:
		go h.unpauseFrom(context.Background(), "popup")
	case protocol.EventChild:
		var n protocol.ChildNotice
		if err := json.Unmarshal(params, &n); err != nil {
			h.log.Printf("event %s: %v", name, err)
			return
		}
		if err := h.takeChild(ctx, n); err != nil {
			h.log.Printf("event %s: %v", name, err)
		}
	default:
		h.log.Printf("unknown extension event %q", name)
	}
}

// revoke ends a task's ownership of a Chrome tab at once; later work on its
// handle fails not_owned.
func (h *Host) revoke(ctx context.Context, chromeTabID int, reason protocol.RevokeReason) error {
	tab, revoked, err := h.store.RevokeTab(ctx, chromeTabID, string(reason))
	if err != nil {
		return fmt.Errorf("revoking tab %d: %w", chromeTabID, err)
	}
	if revoked {
		h.log.Printf("task %s lost %s (%s)", tab.TaskID, tab.Handle, reason)
	}
	return nil
}

// look is how a task's group appears in Chrome.
func look(t store.Task) protocol.TaskLook {
	return protocol.TaskLook{TaskID: t.ID, Label: t.Label, Color: t.Color, Developer: t.Developer}
}
