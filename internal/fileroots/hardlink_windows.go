//go:build windows

package fileroots

import "io/fs"

// HardLinked: Windows admits no local folder in this build (local_files
// refuses its roots at start, internal/host/localfiles.go; uploads refuse
// every path before any check, internal/upload/open_windows.go), so
// nothing reaches this; it fails closed.
func HardLinked(fs.FileInfo) bool { return true }
