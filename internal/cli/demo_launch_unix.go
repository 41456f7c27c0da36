//go:build unix

package cli

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"time"
)

// launchBrowser starts the browser in its own process group so that
// stopping it also stops the renderers and the native host it started.
func launchBrowser(path string, args, env []string, logPath string) (func(), error) {
	logf, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(path, append(args, "about:blank")...)
	cmd.Env = env
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		logf.Close()
		return nil, fmt.Errorf("starting %s: %w", path, err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	return func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-done
		}
		logf.Close()
	}, nil
}
