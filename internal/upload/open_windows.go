//go:build windows

package upload

import (
	"errors"
	"os"
)

// platformRefusal: this build has not been checked against Windows paths
// (reparse points, alternate data streams, short names): every upload is
// refused before any check, as local_files refuses its roots at start
// (internal/host/localfiles.go).
const platformRefusal = "uploads are not admitted on Windows in this build"

// openNoFollow is never reached (platformRefusal); it fails closed.
func openNoFollow(*os.Root, string) (*os.File, error) {
	return nil, errors.New(platformRefusal)
}
