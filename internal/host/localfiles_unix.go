//go:build unix

package host

import (
	"io/fs"
	"syscall"
)

// hardLinked reports whether a regular file has another name somewhere;
// a file whose link count cannot be read counts as linked (fail closed).
func hardLinked(fi fs.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return !ok || st.Nlink > 1
}
