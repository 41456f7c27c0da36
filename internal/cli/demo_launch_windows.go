package cli

import (
	"fmt"
	"os"
	"os/exec"
)

// launchBrowser starts the browser. On Windows the browser's helper
// processes and the native host end when the browser process is killed.
func launchBrowser(path string, args, env []string, logPath string) (func(), error) {
	logf, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(path, append(args, "about:blank")...)
	cmd.Env = env
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		logf.Close()
		return nil, fmt.Errorf("starting %s: %w", path, err)
	}
	return func() {
		cmd.Process.Kill()
		cmd.Wait()
		logf.Close()
	}, nil
}
