package policy

import (
	"errors"
	"path/filepath"
	"strings"
)

// maxRoots bounds local_files.allowed_roots: each file: request of an
// owned tab is checked against every root.
const maxRoots = 100

// maxRootLen bounds one root; PATH_MAX on Linux.
const maxRootLen = 4096

// checkRoot is what Decode checks of a local_files.allowed_roots entry:
// an absolute path. Whether the folder exists, is a folder, and lies
// outside AgentTab's state directory is checked by the host when it
// starts (internal/host/localfiles.go), where the state directory is
// known; the file keeps the path as written.
func checkRoot(root string) error {
	switch {
	case len(root) > maxRootLen:
		return errors.New("it is longer than any path")
	case strings.ContainsRune(root, 0):
		return errors.New("it holds a NUL character")
	case !filepath.IsAbs(root):
		return errors.New("it is not an absolute path; write the folder's full path, such as /home/me/project/coverage")
	}
	return nil
}
