//go:build !windows

package onepassword

import (
	"os/exec"
	"syscall"
)

// inGroup starts op in a process group of its own and makes a cancelled
// call kill the whole group, helpers included.
func inGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
