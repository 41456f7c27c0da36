package statedir

import (
	"fmt"
	"os"
	"path/filepath"
)

// maxAdapterSlots bounds the numbered files one adapter name may claim.
const maxAdapterSlots = 64

// ClaimAdapterFile claims an adapter's private file STATE/adapters/
// name.ext for as long as the process runs (or until release), so that two
// adapters never share one: each file has a lock file beside it, and a
// name whose file another live adapter holds moves on to name-2.ext,
// name-3.ext... A restarted adapter gets the lowest free one back, with
// what its predecessor left in it. The lock dies with its process.
func (d Dir) ClaimAdapterFile(name, ext string) (path string, release func(), err error) {
	dir := d.Adapters()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", nil, fmt.Errorf("adapter state %s: %w", dir, err)
	}
	for slot := 1; slot <= maxAdapterSlots; slot++ {
		base := name
		if slot > 1 {
			base = fmt.Sprintf("%s-%d", name, slot)
		}
		path = filepath.Join(dir, base+ext)
		f, held, err := tryLock(path + ".lock")
		if held {
			continue
		}
		if err != nil {
			return "", nil, fmt.Errorf("adapter state %s: %w", path, err)
		}
		return path, func() { unlockClose(f) }, nil
	}
	return "", nil, fmt.Errorf("adapter state: %d adapters named %s are running", maxAdapterSlots, name)
}
