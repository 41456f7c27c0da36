package statedir

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

func TestHostLockSameProcess(t *testing.T) {
	d := Dir(t.TempDir())
	release, err := AcquireHostLock(d)
	if err != nil {
		t.Fatal(err)
	}
	if got := readHolderPID(d.Lock()); got != os.Getpid() {
		t.Errorf("lock file pid = %d, want %d", got, os.Getpid())
	}
	if runtime.GOOS != "windows" {
		fi, err := os.Stat(d.Lock())
		if err != nil {
			t.Fatal(err)
		}
		if got := fi.Mode().Perm(); got != 0o600 {
			t.Errorf("lock file mode = %o, want 600", got)
		}
	}

	// A second acquisition opens its own file description, which the lock
	// refuses even inside the same process.
	_, err = AcquireHostLock(d)
	var hr *HostRunningError
	if !errors.As(err, &hr) {
		t.Fatalf("second AcquireHostLock() = %v, want *HostRunningError", err)
	}
	if hr.PID != os.Getpid() || hr.Dir != string(d) {
		t.Errorf("HostRunningError = %+v, want pid %d dir %s", hr, os.Getpid(), d)
	}

	release()
	release() // idempotent
	if got := readHolderPID(d.Lock()); got != 0 {
		t.Errorf("after release the lock file still names pid %d", got)
	}
	release2, err := AcquireHostLock(d)
	if err != nil {
		t.Fatalf("AcquireHostLock() after release = %v", err)
	}
	release2()
}

func TestHostRunningErrorMessage(t *testing.T) {
	tests := []struct {
		err  HostRunningError
		want []string
	}{
		{HostRunningError{PID: 4242, Dir: "/s"}, []string{"another AgentTab host (pid 4242)", "/s", "close the other browser", "AGENTTAB_STATE_DIR"}},
		{HostRunningError{Dir: "/s"}, []string{"(pid unknown)"}},
	}
	for _, tt := range tests {
		msg := tt.err.Error()
		for _, w := range tt.want {
			if !strings.Contains(msg, w) {
				t.Errorf("%q does not contain %q", msg, w)
			}
		}
	}
}

// TestHostLockOtherProcess runs a copy of the test binary that holds the
// lock, checks that this process is refused with the child's pid, and that
// the lock is free again once the child has died without releasing it.
func TestHostLockOtherProcess(t *testing.T) {
	if os.Getenv("AGENTTAB_TEST_HOLD_LOCK") != "" {
		holdLockUntilStdinCloses()
		return
	}
	d := Dir(t.TempDir())
	cmd := exec.Command(os.Args[0], "-test.run=^TestHostLockOtherProcess$")
	cmd.Env = append(os.Environ(), "AGENTTAB_TEST_HOLD_LOCK="+string(d))
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	// The child holds the lock until its stdin closes, so it also goes away
	// if this test process dies.
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("reading the child's report: %v", err)
	}
	if strings.TrimSpace(line) != "locked" {
		t.Fatalf("child reported %q", line)
	}

	_, err = AcquireHostLock(d)
	var hr *HostRunningError
	if !errors.As(err, &hr) {
		t.Fatalf("AcquireHostLock() = %v, want *HostRunningError", err)
	}
	if hr.PID != cmd.Process.Pid {
		t.Errorf("HostRunningError.PID = %d, want the child's pid %d", hr.PID, cmd.Process.Pid)
	}
	if !strings.Contains(hr.Error(), "pid "+strconv.Itoa(cmd.Process.Pid)) {
		t.Errorf("message %q does not name the child's pid", hr.Error())
	}

	// A host that dies without releasing leaves no stale lock.
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	release, err := AcquireHostLock(d)
	if err != nil {
		t.Fatalf("AcquireHostLock() after the holder died = %v", err)
	}
	release()
}

func holdLockUntilStdinCloses() {
	d := Dir(os.Getenv("AGENTTAB_TEST_HOLD_LOCK"))
	if _, err := AcquireHostLock(d); err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	fmt.Println("locked")
	_, _ = io.Copy(io.Discard, os.Stdin)
	os.Exit(0)
}
