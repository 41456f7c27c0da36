package doctor

// Status is a finding's verdict.
type Status string

const (
	OK   Status = "ok"
	Warn Status = "warn"
	Fail Status = "fail"
)

// The check ids, in the order Run runs them (issue 15 lists the order).
// They are stable: `agenttab doctor --json` prints them for scripts.
const (
	CheckBrowser      = "browser"
	CheckExtension    = "extension"
	CheckManifest     = "manifest"
	CheckNameConflict = "name_conflict"
	CheckHost         = "host"
	CheckStateFiles   = "state_files"
	CheckPolicy       = "policy"
	CheckPause        = "pause"
	CheckAutomation   = "automation"
	CheckHostLog      = "host_log"
)

// Checks lists the check ids in run order.
var Checks = []string{CheckBrowser, CheckExtension, CheckManifest, CheckNameConflict, CheckHost, CheckStateFiles, CheckPolicy, CheckPause, CheckAutomation, CheckHostLog}

// Finding is one result. Fix is the exact thing to do (a command to run
// or a thing to click), empty only when Status is OK.
type Finding struct {
	Check   string `json:"check"`
	Status  Status `json:"status"`
	Message string `json:"message"`
	Fix     string `json:"fix"`
}

// Failed reports whether any finding failed.
func Failed(fs []Finding) bool {
	for _, f := range fs {
		if f.Status == Fail {
			return true
		}
	}
	return false
}

func ok(check, msg string) Finding { return Finding{Check: check, Status: OK, Message: msg} }

func warn(check, msg, fix string) Finding {
	return Finding{Check: check, Status: Warn, Message: msg, Fix: fix}
}

func fail(check, msg, fix string) Finding {
	return Finding{Check: check, Status: Fail, Message: msg, Fix: fix}
}
