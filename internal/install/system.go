package install

import (
	"io/fs"
	"os"
	"runtime"

	"github.com/agenttab/agenttab/extension"
	"github.com/agenttab/agenttab/internal/chromium"
)

// system is everything Install reads from the machine, so tests can run the
// Linux, macOS and Windows rules against a temporary home with a made-up
// PATH and a fake registry.
type system struct {
	goos   string
	home   func() (string, error)
	getenv func(string) string
	// registry is HKCU; used only when goos is "windows".
	registry Registry
	// finder answers "is this browser's binary installed?".
	finder chromium.Finder
	// dist is the extension to write.
	dist fs.FS
}

func defaultSystem() system {
	return system{
		goos:     runtime.GOOS,
		home:     os.UserHomeDir,
		getenv:   os.Getenv,
		registry: nativeRegistry(),
		finder:   chromium.System(),
		dist:     extension.Dist(),
	}
}
