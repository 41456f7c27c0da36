package doctor

import (
	"errors"
	"os"

	"github.com/agenttab/agenttab/internal/policy"
	"github.com/agenttab/agenttab/internal/statedir"
)

// checkPolicy: policy.json as the host reads it (policy.Load: the strict
// decode, the file's mode), since the host refuses to start on any error.
func checkPolicy(dir statedir.Dir) Finding {
	path := dir.Policy()
	if _, err := policy.Load(path); err != nil {
		fix := "Edit " + path + " to fix it, or move it away (`mv " + path + " " + path + ".bad`) to run with the defaults."
		var pe *policy.Error
		if fi, serr := os.Stat(path); serr == nil && fi.Mode().Perm()&0o022 != 0 {
			// policy.Load refuses a file others may write before reading it.
			fix = "Run `chmod 600 " + path + "`."
		} else if errors.As(err, &pe) && pe.Key != "" {
			fix = "Edit " + path + " and fix or remove the key " + pe.Key + ", or move the file away (`mv " + path + " " + path + ".bad`) to run with the defaults."
		}
		return fail(CheckPolicy, err.Error(), fix)
	}
	return ok(CheckPolicy, "policy "+path+" is valid (or absent: the defaults apply)")
}
