package cli

import "os/exec"

// ownProcessGroup: on Windows the browser's helpers and the native host end
// with the browser process.
func ownProcessGroup(*exec.Cmd) {}

// stopProcessTree kills the browser process.
func stopProcessTree(cmd *exec.Cmd, done <-chan struct{}) {
	cmd.Process.Kill()
	<-done
}
