//go:build windows

package fileroots

import "io/fs"

// HardLinked: Windows admits no local folder in this build (local_files
// and uploads refuse first), so nothing reaches this; it fails closed.
func HardLinked(fs.FileInfo) bool { return true }
