// Package fileroots decides whether a local path lies in a folder by file
// identity, the part local_files (internal/host/localfiles.go, issue 9) and
// uploads (internal/upload, issue 13) share. Folders are compared with
// os.SameFile on each folder from the resolved path up to /, not by path
// text: a case-insensitive disk (macOS) spells one folder many ways, and a
// bind mount shows a folder under a second path; both are the same folder
// to SameFile.
package fileroots

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// AnyAncestor walks from path up to the file system's root and reports
// whether match holds for one of them. Each is read with Lstat: path has
// no symlinks (the caller resolved it), so one appearing now was swapped
// in, and is refused.
func AnyAncestor(path string, match func(fs.FileInfo) bool) (bool, error) {
	for p := filepath.Clean(path); ; p = filepath.Dir(p) {
		fi, err := os.Lstat(p)
		if err != nil {
			return false, err
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			return false, errors.New("a folder became a symlink")
		}
		if match(fi) {
			return true, nil
		}
		if filepath.Dir(p) == p {
			return false, nil
		}
	}
}

// SameAs is a match for AnyAncestor: fi is one of folders.
func SameAs(folders ...fs.FileInfo) func(fs.FileInfo) bool {
	return func(fi fs.FileInfo) bool {
		for _, f := range folders {
			if os.SameFile(fi, f) {
				return true
			}
		}
		return false
	}
}

// Folder resolves a folder as the user wrote it (symlinks, a relative
// part) and returns its identity, or an error when it does not exist, is
// not a folder, or cannot be read.
func Folder(path string) (real string, fi fs.FileInfo, err error) {
	real, err = filepath.EvalSymlinks(path)
	if err == nil {
		real, err = filepath.Abs(real)
	}
	if err != nil {
		return "", nil, errors.New("it cannot be resolved (it does not exist, or cannot be read)")
	}
	fi, err = os.Stat(real)
	if err != nil || !fi.IsDir() {
		return "", nil, errors.New("it is not a folder")
	}
	return real, fi, nil
}
