//go:build windows

package upload

import (
	"errors"
	"os"
)

// openNoFollow: this build has not been checked against Windows paths
// (reparse points, alternate data streams, short names): fail closed, as
// local_files does.
func openNoFollow(string) (*os.File, error) {
	return nil, errors.New("uploads are not admitted on Windows in this build")
}
