package onepassword

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"time"
)

// DefaultTimeout bounds one op call. With the desktop app integration an
// op call waits for the user to approve it in 1Password (observed in op
// 2.x: the prompt expires by itself after a minute or two and op then says
// "authorization prompt dismissed"); an agent's call must not hang that
// long, so the broker gives up after 20 s and answers needs_user.
const DefaultTimeout = 20 * time.Second

// maxOutput bounds op's stdout (a large vault's Login list is well under
// a megabyte); maxStderr what is kept of stderr for classification.
const (
	maxOutput = 16 << 20
	maxStderr = 4 << 10
)

// Client runs one op executable.
type Client struct {
	// Executable is policy one_password.executable: an absolute path, or
	// empty for `op` from the host's PATH (spec 000).
	Executable string
	// Timeout bounds each call; zero is DefaultTimeout.
	Timeout time.Duration
}

// run executes op with args and returns its stdout, which the caller must
// wipe. A failure is an *Error whose text is the broker's own words: op's
// stderr is read only to classify the failure.
func (c Client) run(ctx context.Context, args ...string) ([]byte, error) {
	path := c.Executable
	if path == "" {
		found, err := exec.LookPath("op")
		if err != nil {
			return nil, &Error{Kind: KindNotInstalled}
		}
		path = found
	}
	timeout := c.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(cctx, path, args...)
	// op inherits the host's environment: OP_SERVICE_ACCOUNT_TOKEN,
	// OP_ACCOUNT and the desktop app integration's session live there.
	cmd.Env = os.Environ()
	stdout := &wipeBuffer{max: maxOutput}
	stderr := &wipeBuffer{max: maxStderr, truncate: true}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	// op spawns helpers (the desktop app bridge); a timeout ends the whole
	// process group, and Wait gives the pipes one more second.
	inGroup(cmd)
	cmd.WaitDelay = time.Second
	err := cmd.Run()
	defer stderr.wipe()
	switch {
	case cctx.Err() != nil && ctx.Err() == nil:
		stdout.wipe()
		return nil, &Error{Kind: KindTimeout}
	case ctx.Err() != nil:
		stdout.wipe()
		return nil, ctx.Err()
	case stdout.over:
		stdout.wipe()
		return nil, &Error{Kind: KindProvider, detail: "op's output was larger than the broker reads"}
	case err != nil:
		stdout.wipe()
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			return nil, &Error{Kind: KindNotInstalled}
		}
		return nil, classify(stderr.buf)
	}
	return stdout.buf, nil
}

// wipeBuffer collects a pipe's bytes without leaving copies behind: when
// it grows, the old array is zeroed before it is dropped.
type wipeBuffer struct {
	buf      []byte
	max      int
	over     bool
	truncate bool // keep the first max bytes instead of failing
}

func (w *wipeBuffer) Write(p []byte) (int, error) {
	n := len(p)
	if len(w.buf)+len(p) > w.max {
		w.over = true
		if !w.truncate {
			return 0, errors.New("output too large")
		}
		p = p[:w.max-len(w.buf)]
	}
	if len(w.buf)+len(p) > cap(w.buf) {
		grown := make([]byte, len(w.buf), max(2*cap(w.buf), len(w.buf)+len(p), 4096))
		copy(grown, w.buf)
		Wipe(w.buf[:cap(w.buf)])
		w.buf = grown
	}
	w.buf = append(w.buf, p...)
	return n, nil
}

func (w *wipeBuffer) wipe() {
	Wipe(w.buf[:cap(w.buf)])
	w.buf = nil
}

// Wipe zeroes b: a credential value's last use.
func Wipe(b []byte) {
	clear(b)
}
