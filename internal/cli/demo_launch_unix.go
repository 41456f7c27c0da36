//go:build unix

package cli

import (
	"os/exec"
	"syscall"
	"time"
)

// ownProcessGroup puts the browser in its own process group, so that
// stopping the group also stops its renderers and the native host (which
// Chromium starts in its own process group; notes/chromium.md).
func ownProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// stopProcessTree asks the group to quit, then kills it after 5 s.
func stopProcessTree(cmd *exec.Cmd, done <-chan struct{}) {
	syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-done
	}
}
