//go:build unix

package fileroots

import (
	"io/fs"
	"syscall"
)

// HardLinked reports whether a regular file has another name somewhere
// (spec 000 refuses such files for uploads: the other name may lie
// anywhere); a file whose link count cannot be read counts as linked
// (fail closed).
func HardLinked(fi fs.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return !ok || st.Nlink > 1
}
