//go:build windows

package onepassword

import "os/exec"

// inGroup: on Windows a cancelled call kills op itself (exec's default
// Cancel); op.exe's helpers end with the desktop app's pipe.
func inGroup(cmd *exec.Cmd) {}
