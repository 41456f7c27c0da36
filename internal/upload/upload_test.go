//go:build unix

package upload

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agenttab/agenttab/protocol"
)

// fakeClock runs AfterFunc's functions when Advance passes their time.
type fakeClock struct {
	now     time.Time
	pending []timer
}

type timer struct {
	at time.Time
	f  func()
}

func (c *fakeClock) Now() time.Time { return c.now }
func (c *fakeClock) AfterFunc(d time.Duration, f func()) {
	c.pending = append(c.pending, timer{c.now.Add(d), f})
}
func (c *fakeClock) Advance(d time.Duration) {
	c.now = c.now.Add(d)
	var keep []timer
	for _, t := range c.pending {
		if t.at.After(c.now) {
			keep = append(keep, t)
		} else {
			t.f()
		}
	}
	c.pending = keep
}

type fixture struct {
	s     *Stager
	root  string
	state string
	clock *fakeClock
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	base := t.TempDir()
	root, state := filepath.Join(base, "root"), filepath.Join(base, "state")
	for _, d := range []string{root, state} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	clock := &fakeClock{now: time.Unix(1_700_000_000, 0)}
	s := New(Config{Roots: []string{root}, MaxBytes: 1 << 10, State: state, Dir: filepath.Join(state, "uploads"), Clock: clock})
	return &fixture{s: s, root: root, state: state, clock: clock}
}

func (f *fixture) write(t *testing.T, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(f.root, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// staged lists what STATE/uploads holds.
func (f *fixture) staged(t *testing.T) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(filepath.Join(f.state, "uploads"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			out = append(out, p)
		}
		return nil
	})
	sort.Strings(out)
	return out
}

func (f *fixture) refused(t *testing.T, path string, code protocol.ErrorCode) *protocol.Error {
	t.Helper()
	c, perr := f.s.Stage(path)
	if perr == nil {
		t.Fatalf("Stage admitted %s as %s", path, c.Path)
	}
	if perr.Code != code || perr.Outcome != protocol.OutcomeNotStarted {
		t.Fatalf("Stage refused %s with %s/%s (%s), want %s/not_started", path, perr.Code, perr.Outcome, perr.Message, code)
	}
	if strings.Contains(perr.Message, f.root) || strings.Contains(perr.Message, path) {
		t.Errorf("the refusal's message holds the path: %q", perr.Message)
	}
	if got := f.staged(t); len(got) != 0 {
		t.Errorf("a refusal left copies: %v", got)
	}
	return perr
}

func TestStageCopiesKeepingTheName(t *testing.T) {
	f := newFixture(t)
	data := []byte("hello, upload\n")
	src := f.write(t, "sub/Report final.pdf", data)
	mtime := time.Unix(1_600_000_000, 0)
	os.Chtimes(src, mtime, mtime)
	c, perr := f.s.Stage(src)
	if perr != nil {
		t.Fatal(perr)
	}
	if filepath.Base(c.Path) != "Report final.pdf" {
		t.Errorf("copy named %q", filepath.Base(c.Path))
	}
	if filepath.Dir(filepath.Dir(c.Path)) != filepath.Join(f.state, "uploads") {
		t.Errorf("copy at %s, not STATE/uploads/<random>/", c.Path)
	}
	got, _ := os.ReadFile(c.Path)
	if !bytes.Equal(got, data) {
		t.Errorf("copy holds %q", got)
	}
	fi, _ := os.Stat(c.Path)
	di, _ := os.Stat(filepath.Dir(c.Path))
	if fi.Mode().Perm() != 0o600 || di.Mode().Perm() != 0o700 {
		t.Errorf("modes file %v dir %v, want 0600 and 0700", fi.Mode().Perm(), di.Mode().Perm())
	}
	if !fi.ModTime().Equal(mtime) {
		t.Errorf("copy's mtime %v, want the source's %v", fi.ModTime(), mtime)
	}
	// A root given through a symlink and a path through ".." inside the root are the same folder.
	link := filepath.Join(t.TempDir(), "rootlink")
	os.Symlink(f.root, link)
	f.s.cfg.Roots = []string{link}
	if _, perr := f.s.Stage(filepath.Join(f.root, "sub", "..", "sub", "Report final.pdf")); perr != nil {
		t.Errorf("a path with .. inside the root: %v", perr)
	}
}

func TestStageRefusals(t *testing.T) {
	f := newFixture(t)
	ok := f.write(t, "ok.txt", []byte("x"))
	outside := filepath.Join(t.TempDir(), "outside.txt")
	os.WriteFile(outside, []byte("secret"), 0o644)

	t.Run("no roots", func(t *testing.T) {
		g := newFixture(t)
		g.s.cfg.Roots = nil
		g.refused(t, g.write(t, "a.txt", []byte("x")), protocol.CodeUploadDenied)
	})
	t.Run("relative", func(t *testing.T) { f.refused(t, "ok.txt", protocol.CodeUploadDenied) })
	t.Run("outside", func(t *testing.T) { f.refused(t, outside, protocol.CodeUploadDenied) })
	t.Run("dotdot escapes", func(t *testing.T) {
		rel, _ := filepath.Rel(f.root, outside)
		f.refused(t, f.root+"/"+rel, protocol.CodeUploadDenied)
	})
	t.Run("symlink in the folder escapes", func(t *testing.T) {
		os.Symlink(filepath.Dir(outside), filepath.Join(f.root, "away"))
		f.refused(t, filepath.Join(f.root, "away", "outside.txt"), protocol.CodeUploadDenied)
		// "away/.." is the folder above outside's, not the root (the kernel's reading).
		f.refused(t, f.root+"/away/../"+filepath.Base(filepath.Dir(outside))+"/outside.txt", protocol.CodeUploadDenied)
	})
	t.Run("symlink last", func(t *testing.T) {
		p := filepath.Join(f.root, "link.txt")
		os.Symlink(ok, p)
		f.refused(t, p, protocol.CodeUploadDenied)
	})
	t.Run("hard link", func(t *testing.T) {
		p := f.write(t, "linked.txt", []byte("x"))
		os.Link(p, filepath.Join(f.root, "other-name.txt"))
		f.refused(t, p, protocol.CodeUploadDenied)
	})
	t.Run("directory", func(t *testing.T) {
		os.Mkdir(filepath.Join(f.root, "folder"), 0o700)
		f.refused(t, filepath.Join(f.root, "folder"), protocol.CodeUploadDenied)
		f.refused(t, f.root, protocol.CodeUploadDenied)
		f.refused(t, f.root+"/", protocol.CodeUploadDenied)
	})
	t.Run("fifo", func(t *testing.T) {
		p := filepath.Join(f.root, "pipe")
		if err := syscall.Mkfifo(p, 0o600); err != nil {
			t.Fatal(err)
		}
		f.refused(t, p, protocol.CodeUploadDenied)
	})
	t.Run("too large", func(t *testing.T) {
		f.refused(t, f.write(t, "big.bin", make([]byte, 1<<10+1)), protocol.CodeUploadTooLarge)
		if _, perr := f.s.Stage(f.write(t, "exact.bin", make([]byte, 1<<10))); perr != nil {
			t.Errorf("a file of exactly max_bytes: %v", perr)
		}
		os.RemoveAll(filepath.Join(f.state, "uploads"))
	})
	t.Run("state directory", func(t *testing.T) {
		g := newFixture(t)
		g.s.cfg.Roots = []string{filepath.Dir(g.state)}
		p := filepath.Join(g.state, "state.db")
		os.WriteFile(p, []byte("db"), 0o600)
		g.refused(t, p, protocol.CodeUploadDenied)
	})
	t.Run("case and unicode form", func(t *testing.T) {
		// On Linux (ext4, tmpfs) names are bytes: "Café.txt" in NFD, or
		// "CAFÉ.TXT", is another name, which does not exist here; it
		// never reaches the real file (NFC "Café.txt").
		f.write(t, "Caf\u00e9.txt", []byte("x"))
		for _, p := range []string{"Cafe\u0301.txt", "CAF\u00c9.TXT", "caf\u00e9.txt"} {
			f.refused(t, filepath.Join(f.root, p), protocol.CodeUploadDenied)
		}
	})
}

// A symlink swapped in between the check and the open is never followed,
// a file swapped for another (a rename) is refused by identity, and one
// that cannot be opened any more (gone: the open's failure, which an
// unreadable file gives too, though not to root, as CI runs) is refused.
func TestStageSwapBetweenCheckAndOpen(t *testing.T) {
	for _, swap := range []string{"symlink", "other file", "fifo", "gone"} {
		t.Run(swap, func(t *testing.T) {
			f := newFixture(t)
			p := f.write(t, "doc.txt", []byte("fine"))
			secret := filepath.Join(t.TempDir(), "secret.txt")
			os.WriteFile(secret, []byte("secret"), 0o644)
			swapped := false
			f.s.beforeOpen = func(path string) {
				if swap != "other file" {
					os.Remove(path)
				}
				switch swap {
				case "symlink":
					os.Symlink(secret, path)
				case "other file":
					// Made before the original goes, so it cannot reuse its inode.
					other := f.write(t, "other.txt", []byte("other"))
					os.Rename(other, path)
				case "fifo":
					syscall.Mkfifo(path, 0o600)
				}
				swapped = true
			}
			done := make(chan struct{})
			go func() {
				defer close(done)
				f.refused(t, p, protocol.CodeUploadDenied)
			}()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("Stage blocked on the swapped file")
			}
			if !swapped {
				t.Fatal("the hook never ran")
			}
		})
	}
}

func TestRetention(t *testing.T) {
	f := newFixture(t)
	used, perr := f.s.Stage(f.write(t, "used.txt", []byte("u")))
	if perr != nil {
		t.Fatal(perr)
	}
	unused, perr := f.s.Stage(f.write(t, "unused.txt", []byte("n")))
	if perr != nil {
		t.Fatal(perr)
	}
	f.s.Unused(unused)
	if _, err := os.Stat(filepath.Dir(unused.Path)); !os.IsNotExist(err) {
		t.Errorf("an unused copy's folder is still there: %v", err)
	}
	f.s.Used(used)
	f.clock.Advance(protocol.UploadKeepAfterUseMs*time.Millisecond - time.Second)
	if _, err := os.Stat(used.Path); err != nil {
		t.Errorf("a used copy went before its time: %v", err)
	}
	f.clock.Advance(time.Second)
	if _, err := os.Stat(filepath.Dir(used.Path)); !os.IsNotExist(err) {
		t.Errorf("a used copy's folder is still there after %d ms: %v", protocol.UploadKeepAfterUseMs, err)
	}
}

func TestSweepAtStart(t *testing.T) {
	f := newFixture(t)
	uploads := filepath.Join(f.state, "uploads")
	now := f.clock.Now()
	ages := map[string]time.Duration{"old": protocol.UploadStaleAtStartMs*time.Millisecond + time.Second, "young": protocol.UploadStaleAtStartMs*time.Millisecond - time.Second}
	for name, age := range ages {
		d := filepath.Join(uploads, name)
		os.MkdirAll(d, 0o700)
		os.WriteFile(filepath.Join(d, "f.txt"), []byte("x"), 0o600)
		os.Chtimes(d, now.Add(-age), now.Add(-age))
	}
	if n := f.s.Sweep(); n != 1 {
		t.Errorf("Sweep removed %d folders, want 1", n)
	}
	if _, err := os.Stat(filepath.Join(uploads, "old")); !os.IsNotExist(err) {
		t.Errorf("the stale folder stayed: %v", err)
	}
	if _, err := os.Stat(filepath.Join(uploads, "young", "f.txt")); err != nil {
		t.Errorf("the young folder went: %v", err)
	}
	// The young one goes when it reaches the age, without another start.
	f.clock.Advance(time.Second - time.Millisecond)
	if _, err := os.Stat(filepath.Join(uploads, "young", "f.txt")); err != nil {
		t.Errorf("the young folder went before its time: %v", err)
	}
	f.clock.Advance(time.Millisecond)
	if _, err := os.Stat(filepath.Join(uploads, "young")); !os.IsNotExist(err) {
		t.Errorf("the young folder is still there %d ms after it was made: %v", protocol.UploadStaleAtStartMs, err)
	}
}

// A parent folder swapped for a symlink to an outside folder after the
// folder check leads nowhere: the file is read relative to the folder
// that was checked, never by its path again.
func TestStageParentSwappedAfterTheFolderCheck(t *testing.T) {
	for _, parent := range []string{"a/b", "a"} {
		t.Run(parent, func(t *testing.T) {
			f := newFixture(t)
			p := f.write(t, "a/b/doc.txt", []byte("fine"))
			// The outside folder mirrors the swapped one, with a same-named file.
			outside := t.TempDir()
			secret := filepath.Join(outside, strings.TrimPrefix("a/b/doc.txt", parent+"/"))
			os.MkdirAll(filepath.Dir(secret), 0o700)
			os.WriteFile(secret, []byte("secret"), 0o644)
			swapped := false
			f.s.folderChecked = func(string) {
				victim := filepath.Join(f.root, parent)
				if err := os.Rename(victim, victim+".moved"); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink(outside, victim); err != nil {
					t.Fatal(err)
				}
				swapped = true
			}
			f.refused(t, p, protocol.CodeUploadDenied)
			if !swapped {
				t.Fatal("the hook never ran")
			}
		})
	}
}
