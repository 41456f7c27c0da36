// Package upload admits and stages the local files of upload_file steps
// (issue 13; spec 000's upload paragraphs; protocol/upload.go). Stage
// checks a path against the policy's uploads.dlp_allowed_roots and
// uploads.max_bytes and copies the file it opened into
// STATE/uploads/<random>/<its name>; the extension sets that copy on the
// page's file input (extension/src/background/act/upload.ts), never the
// user's file. Retention: a copy that may have reached the page is
// removed UploadKeepAfterUseMs later, one that did not at once, and a
// starting host removes per-upload folders older than
// UploadStaleAtStartMs, and the younger ones when they reach that age.
//
// The checks, in order (each refusal is upload_denied unless said):
//   - roots configured; the path absolute;
//   - the path's folder resolved (filepath.EvalSymlinks, which reads ".."
//     after the symlink before it, as the kernel does) and found inside a
//     root and outside the state directory by identity
//     (internal/fileroots), never by path text;
//   - the checked folder is held open (os.OpenRoot) and must still be the
//     one checked (os.SameFile); from here names are read relative to it
//     (openat), so a parent folder swapped for a symlink leads nowhere;
//   - the last name is read with Lstat (a symlink, a folder, a FIFO are
//     refused) and then opened with O_NOFOLLOW|O_NONBLOCK (a symlink
//     swapped in fails; a FIFO swapped in never blocks the host);
//   - the opened file (fstat) must be the one checked (os.SameFile), a
//     regular file with one link (a hard link is another name that may
//     lie anywhere), at most max_bytes (upload_too_large), and readable.
//
// What it cannot see: a file rewritten in place between the check and the
// copy is copied as it then is (at most max_bytes+1 bytes are read). Such
// a writer runs as the user; the check is against agents and pages.
//
// Messages never hold the path: they reach the agent, the audit and the
// idempotency record.
package upload

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/agenttab/agenttab/internal/fileroots"
	"github.com/agenttab/agenttab/protocol"
)

// RootsKey is the policy key the messages name.
const RootsKey = "uploads.dlp_allowed_roots"

// Clock is the retention's time: Now for the start-up sweep, AfterFunc for
// the removal of a copy that reached the page and of a folder the sweep
// found young. Tests inject one.
type Clock interface {
	Now() time.Time
	AfterFunc(d time.Duration, f func())
}

// RealClock is the wall clock.
type RealClock struct{}

func (RealClock) Now() time.Time                      { return time.Now() }
func (RealClock) AfterFunc(d time.Duration, f func()) { time.AfterFunc(d, f) }

// Config is what a Stager needs from the policy and the state directory.
type Config struct {
	// Roots are uploads.dlp_allowed_roots as the user wrote them; they
	// are resolved at every Stage (a folder made later counts).
	Roots    []string
	MaxBytes int64
	// State is the state directory (refused whatever the roots say);
	// Dir is STATE/uploads, where copies go.
	State, Dir string
	Clock      Clock
}

// Stager stages upload files. Safe for concurrent use.
type Stager struct {
	cfg Config
	// folderChecked runs after the folder is admitted and beforeOpen
	// after the file is checked, each before the open (tests swap a
	// parent folder, or the file, there).
	folderChecked func(dir string)
	beforeOpen    func(path string)
	mu            sync.Mutex
	live          map[string]bool // per-upload folders not yet removed
}

// New returns a Stager; nothing is read until Stage or Sweep.
func New(cfg Config) *Stager {
	if cfg.Clock == nil {
		cfg.Clock = RealClock{}
	}
	return &Stager{cfg: cfg, live: map[string]bool{}}
}

// Copy is one staged file.
type Copy struct {
	// Path is the copy's path, which the extension sets on the input.
	Path string
	dir  string
}

func deny(why string) *protocol.Error { return protocol.Fail(protocol.CodeUploadDenied, why) }

// Stage admits path and copies it, or refuses it (not_started, nothing
// staged).
func (s *Stager) Stage(path string) (*Copy, *protocol.Error) {
	f, fi, perr := s.open(path)
	if perr != nil {
		return nil, perr
	}
	defer f.Close()
	return s.copy(f, fi)
}

// open checks path and opens it; the returned file is the checked one.
func (s *Stager) open(path string) (*os.File, fs.FileInfo, *protocol.Error) {
	if platformRefusal != "" {
		return nil, nil, deny(platformRefusal)
	}
	if len(s.cfg.Roots) == 0 {
		return nil, nil, deny("no folder is admitted for uploads (" + RootsKey + " is empty in AgentTab's policy)")
	}
	if !filepath.IsAbs(path) || strings.ContainsRune(path, 0) {
		return nil, nil, deny("the path is not absolute")
	}
	// The last name is split off as written: filepath.Dir would clean
	// "link/.." lexically, which the kernel does not.
	i := strings.LastIndexByte(path, filepath.Separator)
	dirPart, base := path[:i], path[i+1:]
	if dirPart == "" {
		dirPart = string(filepath.Separator)
	}
	if base == "" || base == "." || base == ".." {
		return nil, nil, deny("the path does not name a file")
	}
	dir, err := filepath.EvalSymlinks(dirPart)
	if err != nil {
		return nil, nil, deny("the file's folder does not exist, or cannot be read")
	}
	// The folder's identity as it is checked: a symlink here now was
	// swapped in after EvalSymlinks.
	dirInfo, err := os.Lstat(dir)
	if err != nil || !dirInfo.IsDir() {
		return nil, nil, deny("the file's folder does not exist, or cannot be read")
	}
	if perr := s.admitFolder(dir); perr != nil {
		return nil, nil, perr
	}
	if s.folderChecked != nil {
		s.folderChecked(dir)
	}
	// From here on the file is read relative to the folder held open
	// (openat), never by its path again: O_NOFOLLOW guards only the last
	// name, so a parent folder swapped for a symlink after the check
	// would otherwise lead anywhere. The held folder must be the checked
	// one (OpenRoot follows a symlink swapped in since).
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, nil, deny("the file's folder does not exist, or cannot be read")
	}
	defer root.Close()
	if held, err := root.Stat("."); err != nil || !os.SameFile(dirInfo, held) {
		return nil, nil, deny("the file's folder changed while it was checked")
	}
	checked, err := root.Lstat(base)
	switch {
	case err != nil:
		return nil, nil, deny("the file does not exist, or cannot be read (names are compared exactly: case and Unicode form count)")
	case checked.Mode()&fs.ModeSymlink != 0:
		return nil, nil, deny("the path names a symlink; pass the file itself")
	case !checked.Mode().IsRegular():
		return nil, nil, deny("the path is not a regular file (a folder, a pipe or a device)")
	case fileroots.HardLinked(checked):
		return nil, nil, deny("the file has more than one hard link, so it may be any other file")
	}
	if s.beforeOpen != nil {
		s.beforeOpen(filepath.Join(dir, base))
	}
	f, err := openNoFollow(root, base)
	if err != nil {
		return nil, nil, deny("the file could not be opened without following a symlink, or cannot be read")
	}
	opened, err := f.Stat()
	var perr *protocol.Error
	switch {
	case err != nil:
		perr = deny("the file cannot be read")
	case !os.SameFile(checked, opened):
		perr = deny("the file changed while it was checked")
	case !opened.Mode().IsRegular():
		perr = deny("the path is not a regular file")
	case fileroots.HardLinked(opened):
		perr = deny("the file has more than one hard link, so it may be any other file")
	case opened.Size() > s.cfg.MaxBytes:
		perr = tooLarge(s.cfg.MaxBytes)
	}
	if perr != nil {
		f.Close()
		return nil, nil, perr
	}
	return f, opened, nil
}

func tooLarge(max int64) *protocol.Error {
	return protocol.Fail(protocol.CodeUploadTooLarge, fmt.Sprintf("the file is larger than the %d bytes the user's policy admits (uploads.max_bytes)", max))
}

// admitFolder: dir (resolved) lies in a root and outside the state
// directory, each compared by identity.
func (s *Stager) admitFolder(dir string) *protocol.Error {
	state, err := os.Stat(s.cfg.State)
	if err != nil {
		return deny("AgentTab's state directory cannot be read")
	}
	inState, err := fileroots.AnyAncestor(dir, fileroots.SameAs(state))
	if err != nil {
		return deny("the file's folders cannot be read")
	}
	if inState {
		return deny("the file lies in AgentTab's state directory, which no policy admits")
	}
	var roots []fs.FileInfo
	for _, r := range s.cfg.Roots {
		// A root that cannot be resolved admits nothing (it may be made later).
		if _, fi, err := fileroots.Folder(r); err == nil {
			roots = append(roots, fi)
		}
	}
	in, err := fileroots.AnyAncestor(dir, fileroots.SameAs(roots...))
	if err != nil {
		return deny("the file's folders cannot be read")
	}
	if !in {
		return deny("the file is not inside a folder the user's policy admits (" + RootsKey + ")")
	}
	return nil
}

// copy writes the opened file into a new per-upload folder under its own
// name, reading at most max_bytes+1 bytes.
func (s *Stager) copy(src *os.File, fi fs.FileInfo) (*Copy, *protocol.Error) {
	fail := func(err error) (*Copy, *protocol.Error) {
		return nil, protocol.NewError(protocol.CodeInternal, protocol.OutcomeNotStarted, "staging the upload's copy failed: "+scrub(err), protocol.RecoveryUpdate)
	}
	if err := os.MkdirAll(s.cfg.Dir, 0o700); err != nil {
		return fail(err)
	}
	id := make([]byte, 16)
	_, _ = rand.Read(id) // never fails (crypto/rand crashes instead)
	dir := filepath.Join(s.cfg.Dir, hex.EncodeToString(id))
	if err := os.Mkdir(dir, 0o700); err != nil {
		return fail(err)
	}
	c := &Copy{Path: filepath.Join(dir, fi.Name()), dir: dir}
	s.track(c)
	dst, err := os.OpenFile(c.Path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		s.remove(c)
		return fail(err)
	}
	n, err := io.Copy(dst, io.LimitReader(src, s.cfg.MaxBytes+1))
	if cerr := dst.Close(); err == nil {
		err = cerr
	}
	switch {
	case err != nil:
		s.remove(c)
		return nil, deny("the file cannot be read")
	case n > s.cfg.MaxBytes:
		// It grew after the size was checked.
		s.remove(c)
		return nil, tooLarge(s.cfg.MaxBytes)
	}
	// The page sees the file's own modification time, as a person's upload shows it.
	_ = os.Chtimes(c.Path, fi.ModTime(), fi.ModTime())
	return c, nil
}

// scrub keeps an error's reason, never the path it names.
func scrub(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Op + ": " + pe.Err.Error()
	}
	return "an unexpected error"
}

func (s *Stager) track(c *Copy) {
	s.mu.Lock()
	s.live[c.dir] = true
	s.mu.Unlock()
}

// Used: the copy reached the page, or may have (its step's outcome is
// not not_started); it is removed UploadKeepAfterUseMs later (the page
// may read the file after the step, as a form posts it).
func (s *Stager) Used(c *Copy) {
	s.cfg.Clock.AfterFunc(protocol.UploadKeepAfterUseMs*time.Millisecond, func() { s.remove(c) })
}

// Unused: the copy never reached the page; it is removed at once.
func (s *Stager) Unused(c *Copy) { s.remove(c) }

func (s *Stager) remove(c *Copy) {
	s.mu.Lock()
	delete(s.live, c.dir)
	s.mu.Unlock()
	_ = os.RemoveAll(c.dir)
}

// Sweep removes the per-upload folders an earlier host left that are
// older than UploadStaleAtStartMs (their pages had their time); a younger
// one may still be read by a page (a host restarted under a live form),
// so its removal is scheduled for when it reaches that age (Sweep runs
// only at start: left alone, it would wait for some later start). Called
// at host start.
func (s *Stager) Sweep() (removed int) {
	entries, err := os.ReadDir(s.cfg.Dir)
	if err != nil {
		return 0
	}
	stale := protocol.UploadStaleAtStartMs * time.Millisecond
	now := s.cfg.Clock.Now()
	for _, e := range entries {
		dir := filepath.Join(s.cfg.Dir, e.Name())
		s.mu.Lock()
		live := s.live[dir]
		s.mu.Unlock()
		fi, err := e.Info()
		if live || err != nil {
			continue
		}
		// The folder's time is its making: its one file goes in at once.
		if left := fi.ModTime().Add(stale).Sub(now); left > 0 {
			s.cfg.Clock.AfterFunc(left, func() { _ = os.RemoveAll(dir) })
			continue
		}
		if os.RemoveAll(dir) == nil {
			removed++
		}
	}
	return removed
}
