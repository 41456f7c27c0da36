package mcpserver

import (
	"os"
	"strings"
	"sync"
)

// capabilityKeeper holds this adapter's resume capability: in memory, and
// in an owner-only file of its own when it has one. Source of truth: spec
// 000 ("Adapters must store a capability in owner-only private state and
// must not log, display, or share it") and issue 4 (written and fsynced
// before it is confirmed). The value never reaches a tool result, a log
// line or an error message.
type capabilityKeeper struct {
	// path is the adapter's own file; "" keeps the capability in memory
	// only (an HTTP session lives no longer than the server process).
	path string

	mu    sync.Mutex
	value string
}

// load reads a capability kept by an earlier run of this adapter. A file
// that others could read is not trusted (and not used).
func (k *capabilityKeeper) load() error {
	if k.path == "" {
		return nil
	}
	b, err := readPrivate(k.path)
	if err != nil {
		return err
	}
	k.mu.Lock()
	k.value = strings.TrimSpace(string(b))
	k.mu.Unlock()
	return nil
}

func (k *capabilityKeeper) current() string {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.value
}

// keep stores a newly issued capability durably before the client confirms
// it: a temporary file written and fsynced, renamed over the old one, and
// the directory fsynced, so a crash leaves the old or the new value whole.
func (k *capabilityKeeper) keep(capability string) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.path != "" {
		if err := writeDurably(k.path, []byte(capability+"\n")); err != nil {
			return err
		}
	}
	k.value = capability
	return nil
}

// forget drops the capability once its task is over (finished, or unknown
// to the host).
func (k *capabilityKeeper) forget() {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.value = ""
	if k.path != "" {
		os.Remove(k.path)
	}
}
