package cli

import (
	"fmt"
	"os"
	"os/exec"
)

// launchBrowser starts the browser with its output in logPath and returns
// the function that stops it (and, through it, the native host it started).
func launchBrowser(path string, args, env []string, logPath string) (func(), error) {
	logf, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(path, append(args, "about:blank")...)
	cmd.Env = env
	cmd.Stdout, cmd.Stderr = logf, logf
	ownProcessGroup(cmd)
	if err := cmd.Start(); err != nil {
		logf.Close()
		return nil, fmt.Errorf("starting %s: %w", path, err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	return func() {
		stopProcessTree(cmd, done)
		logf.Close()
	}, nil
}
