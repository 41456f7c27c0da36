package chromium

// InstallHint is the exact command that gets a browser onto this kind of
// machine (what Find's error ends with), for `agenttab doctor`'s fix.
func (f Finder) InstallHint() string { return f.installHint() }
