package doctor

import "github.com/agenttab/agenttab/internal/chromium"

// checkBrowser: a browser found, AGENTTAB_BROWSER honoured (the finder's
// own rule and install hint, so doctor agrees with `agenttab demo`).
func checkBrowser(f chromium.Finder) Finding {
	path, err := f.Find()
	if err == nil {
		return ok(CheckBrowser, "browser: "+path)
	}
	if v := f.Getenv(chromium.EnvBrowser); v != "" {
		return fail(CheckBrowser, err.Error(), "Point "+chromium.EnvBrowser+" at a browser executable (for example `export "+chromium.EnvBrowser+"=/usr/bin/chromium`) or unset it.")
	}
	return fail(CheckBrowser, err.Error(), f.InstallHint())
}
