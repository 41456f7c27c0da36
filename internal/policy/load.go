package policy

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"runtime"
)

// maxFileSize bounds what Load reads. The real file is a few hundred bytes;
// the bound only stops a mistaken path (a log, a device) from being read
// whole.
const maxFileSize = 1 << 20

// Load reads the policy file at path. A missing file gives Default(). A file
// that is not a regular file, that group or others may write (Unix), or that
// Decode refuses gives an *Error naming path.
func Load(path string) (Policy, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Default(), nil
	}
	if err != nil {
		return Policy{}, &Error{Path: path, Problem: fmt.Sprintf("cannot open it: %v", err)}
	}
	defer f.Close()

	// Stat the open file, not the path, so the checked file is the read one.
	fi, err := f.Stat()
	if err != nil {
		return Policy{}, &Error{Path: path, Problem: fmt.Sprintf("cannot stat it: %v", err)}
	}
	if err := checkFile(path, fi, runtime.GOOS); err != "" {
		return Policy{}, &Error{Path: path, Problem: err}
	}

	data, err := io.ReadAll(io.LimitReader(f, maxFileSize+1))
	if err != nil {
		return Policy{}, &Error{Path: path, Problem: fmt.Sprintf("cannot read it: %v", err)}
	}
	if len(data) > maxFileSize {
		return Policy{}, &Error{Path: path, Problem: fmt.Sprintf("it is larger than %d bytes", maxFileSize)}
	}
	p, err := Decode(data)
	if err != nil {
		var pe *Error
		if errors.As(err, &pe) {
			pe.Path = path
			return Policy{}, pe
		}
		return Policy{}, &Error{Path: path, Problem: err.Error()}
	}
	return p, nil
}

// checkFile returns why fi is not an acceptable policy file, or "". The
// policy can turn audit off and Developer mode on, so a file another user or
// group could write would let them widen what agents may do.
func checkFile(path string, fi fs.FileInfo, goos string) string {
	if !fi.Mode().IsRegular() {
		return "it is not a regular file"
	}
	// Windows has no permission bits to check; its files inherit the
	// owner-only ACL of %LOCALAPPDATA%.
	if goos == "windows" {
		return ""
	}
	if perm := fi.Mode().Perm(); perm&0o022 != 0 {
		return fmt.Sprintf("its mode %04o lets group or others write it; run: chmod 600 %s", perm, path)
	}
	return ""
}
