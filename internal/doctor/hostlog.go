package doctor

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/agenttab/agenttab/internal/statedir"
)

// Bounds on what doctor reads and prints of host.log: its tail only, a few
// lines, each cut short (host.log holds no page data, but a line may still
// be long).
const (
	logTailBytes = 256 << 10
	logErrorMax  = 5
	logLineMax   = 300
)

// errorWords mark a host.log line as an error. The host logs without
// levels (log.Printf with the error's own text, internal/host), so the
// words its failures use are the marker.
var errorWords = []string{"error", "fail", "cannot", "refused", "undecodable", "unexpected", "timed out", "no hello", "panic", "denied"}

// checkHostLog: the last error lines of STATE/host.log.
func checkHostLog(dir statedir.Dir) Finding {
	path := dir.HostLog()
	lines, err := tailLines(path, logTailBytes)
	if os.IsNotExist(err) {
		return ok(CheckHostLog, "no host.log yet: the host has never started with this state directory")
	}
	if err != nil {
		return warn(CheckHostLog, "cannot read "+path+": "+err.Error(), "Run `ls -l "+path+"` and make it readable by you (`chmod 600 "+path+"`).")
	}
	var errs []string
	for _, l := range lines {
		low := strings.ToLower(l)
		for _, w := range errorWords {
			if strings.Contains(low, w) {
				if len(l) > logLineMax {
					l = strings.ToValidUTF8(l[:logLineMax], "") + "…"
				}
				errs = append(errs, l)
				break
			}
		}
	}
	if len(errs) == 0 {
		return ok(CheckHostLog, "no errors in the last lines of "+path)
	}
	if len(errs) > logErrorMax {
		errs = errs[len(errs)-logErrorMax:]
	}
	return warn(CheckHostLog, fmt.Sprintf("recent host errors in %s:\n  %s", path, strings.Join(errs, "\n  ")),
		"If the host keeps failing, fix the failures above first; then reload AgentTab in chrome://extensions and watch "+path+" (`tail -f "+path+"`) for the next error.")
}

// tailLines returns the whole lines in the last n bytes of path.
func tailLines(path string, n int64) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	start := max(fi.Size()-n, 0)
	if _, err := f.Seek(start, io.SeekStart); err != nil {
		return nil, err
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	var lines []string
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	if start > 0 && len(lines) > 0 {
		lines = lines[1:] // the first line was cut
	}
	return lines, sc.Err()
}
