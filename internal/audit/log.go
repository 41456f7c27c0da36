package audit

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sync"
)

// Log appends records to audit.jsonl. A disabled Log (policy
// audit.enabled=false) accepts records and writes nothing. It is safe for
// concurrent use.
type Log struct {
	path string

	mu     sync.Mutex
	f      *os.File // nil when disabled
	closed bool
}

// Open opens path for appending, creating it with mode 0600 and narrowing an
// existing file to 0600: the log holds origins, keys and digests, which are
// sensitive metadata (spec 000). When enabled is false it creates and
// touches nothing.
func Open(path string, enabled bool) (*Log, error) {
	l := &Log{path: path}
	if !enabled {
		return l, nil
	}
	// O_APPEND makes each write land at the end even if another process
	// (such as `agenttab audit`) truncates or rotates the file meanwhile.
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("audit: open %s: %w", path, err)
	}
	if err := f.Chmod(0o600); err != nil {
		f.Close()
		return nil, fmt.Errorf("audit: make %s owner-only: %w", path, err)
	}
	l.f = f
	return l, nil
}

// Enabled reports whether records reach the file.
func (l *Log) Enabled() bool { return l.f != nil }

// Write appends r as one JSON line. The line is marshalled first and handed
// to the kernel in one write(2) on an O_APPEND file, so concurrent writers
// (goroutines or processes) never interleave inside a line.
func (l *Log) Write(r Record) error {
	if l.f == nil {
		return nil
	}
	line, err := marshalLine(r)
	if err != nil {
		return fmt.Errorf("audit: %s record for %s: %w", r.Kind, r.Method, err)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return errors.New("audit: write after close")
	}
	if _, err := l.f.Write(line); err != nil {
		return fmt.Errorf("audit: write %s: %w", l.path, err)
	}
	return nil
}

// Close closes the file. Later writes fail.
func (l *Log) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil || l.closed {
		l.closed = true
		return nil
	}
	l.closed = true
	if err := l.f.Close(); err != nil {
		return fmt.Errorf("audit: close %s: %w", l.path, err)
	}
	return nil
}

// marshalLine normalises r (UTC times, derived duration, non-null origins)
// and returns it as JSON followed by one newline.
func marshalLine(r Record) ([]byte, error) {
	switch r.Kind {
	case KindRequest, KindEvent:
	default:
		return nil, fmt.Errorf("unknown kind %q", r.Kind)
	}
	if r.TS.IsZero() {
		return nil, errors.New("no start time")
	}
	if r.TSEnd.IsZero() {
		r.TSEnd = r.TS
	}
	r.TS, r.TSEnd = r.TS.UTC(), r.TSEnd.UTC()
	r.DurationMS = float64(r.TSEnd.Sub(r.TS).Microseconds()) / 1000
	if r.TargetOrigins == nil {
		r.TargetOrigins = []string{}
	}
	b, err := json.Marshal(r)
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}
