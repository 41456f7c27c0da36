//go:build windows

package statedir

import "io/fs"

// secure does nothing on Windows: the directory lives under
// %LOCALAPPDATA%, whose inherited ACL already admits only the user (and
// SYSTEM/Administrators), and Unix permission bits have no meaning there.
func secure(string, fs.FileInfo) error { return nil }
