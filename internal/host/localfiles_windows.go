//go:build windows

package host

import "io/fs"

// hardLinked: Windows admits no local folder in this build
// (loadLocalFiles), so nothing reaches this; it fails closed.
func hardLinked(fs.FileInfo) bool { return true }
