package onepassword

import (
	"context"
	"errors"
	"io"
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
	// stdout is read here, straight into a buffer that wipes what it
	// drops: given a non-*os.File writer, os/exec would copy it through
	// io.Copy's 32 KiB buffer, which nobody wipes. stderr holds no value
	// (op prints errors there) and goes through os/exec's copy.
	pipe, err := cmd.StdoutPipe()
	if err != nil {
		return nil, &Error{Kind: KindProvider}
	}
	stderr := &wipeBuffer{max: maxStderr}
	cmd.Stderr = stderr
	defer stderr.wipe()
	// op spawns helpers (the desktop app bridge); a timeout ends the whole
	// process group, and Wait gives the pipes one more second.
	inGroup(cmd)
	cmd.WaitDelay = time.Second
	if err := cmd.Start(); err != nil {
		// No such file, not executable: exec could not start op.
		return nil, &Error{Kind: KindNotInstalled}
	}
	stdout := &wipeBuffer{max: maxOutput}
	readErr := stdout.readFrom(pipe)
	if stdout.over {
		cancel() // stop op rather than wait for it to give up writing
	}
	err = cmd.Wait()
	switch {
	case cctx.Err() != nil && ctx.Err() == nil && !stdout.over:
		stdout.wipe()
		return nil, &Error{Kind: KindTimeout}
	case ctx.Err() != nil:
		stdout.wipe()
		return nil, ctx.Err()
	case stdout.over:
		stdout.wipe()
		return nil, &Error{Kind: KindProvider, detail: "op's output was larger than the broker reads"}
	case errors.Is(err, exec.ErrWaitDelay) && readErr == nil:
		// op exited 0 and its stdout was read to its end; a helper it
		// left behind held stderr open past WaitDelay. The answer is
		// whole (its JSON is checked next).
	case err != nil || readErr != nil:
		stdout.wipe()
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return nil, classify(stderr.buf)
		}
		return nil, &Error{Kind: KindProvider}
	}
	return stdout.buf, nil
}

// wipeBuffer collects a pipe's bytes without leaving copies behind: when
// it grows, the old array is zeroed before it is dropped. stdout is read
// into it (readFrom), stderr written (Write, keeping the first max bytes).
type wipeBuffer struct {
	buf  []byte
	max  int
	over bool
}

func (w *wipeBuffer) Write(p []byte) (int, error) {
	n := len(p)
	if len(w.buf)+len(p) > w.max {
		w.over = true
		p = p[:w.max-len(w.buf)]
	}
	w.grow(len(p))
	w.buf = append(w.buf, p...)
	return n, nil
}

// readFrom reads r to its end straight into w's array (no intermediate
// buffer), growing it as Write does; it stops at max (w.over).
func (w *wipeBuffer) readFrom(r io.Reader) error {
	for {
		if len(w.buf) >= w.max {
			w.over = true
			return nil
		}
		w.grow(1)
		room := w.buf[len(w.buf):min(cap(w.buf), w.max)]
		n, err := r.Read(room)
		w.buf = w.buf[:len(w.buf)+n]
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// grow makes room for n more bytes, zeroing the array it drops.
func (w *wipeBuffer) grow(n int) {
	if len(w.buf)+n <= cap(w.buf) {
		return
	}
	grown := make([]byte, len(w.buf), max(2*cap(w.buf), len(w.buf)+n, 4096))
	copy(grown, w.buf)
	Wipe(w.buf[:cap(w.buf)])
	w.buf = grown
}

func (w *wipeBuffer) wipe() {
	Wipe(w.buf[:cap(w.buf)])
	w.buf = nil
}

// Wipe zeroes b: a credential value's last use.
func Wipe(b []byte) {
	clear(b)
}
