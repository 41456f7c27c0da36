package doctor

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"

	"github.com/agenttab/agenttab/internal/statedir"
)

// checkStateFiles: the state directory and what it holds are the user's
// alone (DESIGN.md "State directory": 0700 folders, 0600 files; the socket
// is 0600 in a 0700 folder, corerpc's listener). Only group and other bits
// count; a missing file is not a finding (the host makes it when needed).
// Windows has no modes to check.
func checkStateFiles(dir statedir.Dir) []Finding {
	if runtime.GOOS == "windows" {
		return []Finding{ok(CheckStateFiles, "file modes are not checked on Windows (the state folder inherits the user profile's ACL)")}
	}
	root := string(dir)
	fi, err := os.Stat(root)
	if os.IsNotExist(err) {
		return []Finding{fail(CheckStateFiles, "the state directory "+root+" does not exist", "Run `agenttab install`.")}
	}
	if err != nil {
		return []Finding{fail(CheckStateFiles, "the state directory "+root+": "+err.Error(), "Check that "+root+" is a folder you own: `ls -ld "+root+"`.")}
	}
	var out []Finding
	check := func(path string, fi fs.FileInfo, want fs.FileMode) {
		if fi.Mode().Perm()&0o077 != 0 {
			out = append(out, fail(CheckStateFiles, fmt.Sprintf("%s has mode %04o: other users can reach it (want %04o)", path, fi.Mode().Perm(), want),
				fmt.Sprintf("Run `chmod %o %s`.", want, path)))
		}
	}
	check(root, fi, 0o700)
	files := []string{dir.DB(), dir.DB() + "-wal", dir.DB() + "-shm", dir.Audit(), dir.HostLog(), dir.Policy(), dir.Socket(), dir.Lock()}
	for _, f := range files {
		if fi, err := os.Lstat(f); err == nil {
			check(f, fi, 0o600)
		}
	}
	if fi, err := os.Lstat(dir.Adapters()); err == nil {
		check(dir.Adapters(), fi, 0o700)
		filepath.WalkDir(dir.Adapters(), func(path string, d fs.DirEntry, err error) error {
			if err != nil || path == dir.Adapters() {
				return nil
			}
			if info, err := d.Info(); err == nil {
				want := fs.FileMode(0o600)
				if d.IsDir() {
					want = 0o700
				}
				check(path, info, want)
			}
			return nil
		})
	}
	if len(out) == 0 {
		return []Finding{ok(CheckStateFiles, root+" and its files are private to this user (0700 folders, 0600 files)")}
	}
	return out
}
