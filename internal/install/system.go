package install

import (
	"io/fs"
	"os"
	"runtime"

	"github.com/agenttab/agenttab/extension"
	"github.com/agenttab/agenttab/internal/chromium"
)

// system is everything Install reads from the machine, so tests can run the
// Linux and macOS rules against a temporary home with a made-up PATH.
type system struct {
	goos string
	home func() (string, error)
	// finder answers "is this browser's binary installed?".
	finder chromium.Finder
	// dist is the extension to write.
	dist fs.FS
}

func defaultSystem() system {
	return system{
		goos:   runtime.GOOS,
		home:   os.UserHomeDir,
		finder: chromium.System(),
		dist:   extension.Dist(),
	}
}
