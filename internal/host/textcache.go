package host

import (
	"sync"
	"time"

	"github.com/agenttab/agenttab/protocol"
)

// textCache keeps captured snapshot text host-side under a caller's
// cache_key, so that a later call can read another window of it, or search
// it, without reading the page again. Entries belong to one task and one
// tab; they go when the task finishes, when they are older than
// textCacheTTL, or when the task has more than textCacheEntries.
type textCache struct {
	mu      sync.Mutex
	entries map[textCacheKey]*cachedText
}

type textCacheKey struct{ task, key string }

type cachedText struct {
	handle    string
	mode      protocol.SnapshotMode
	snap      protocol.ExtSnapshotResult
	refEpoch  int64
	createdAt time.Time
}

const (
	textCacheEntries = 16
	textCacheTTL     = 24 * time.Hour
)

func (c *textCache) get(task, key, handle string, now time.Time) (*cachedText, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[textCacheKey{task, key}]
	if !ok || e.handle != handle || now.Sub(e.createdAt) > textCacheTTL {
		return nil, false
	}
	return e, true
}

func (c *textCache) put(task, key string, e *cachedText) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.entries == nil {
		c.entries = map[textCacheKey]*cachedText{}
	}
	c.entries[textCacheKey{task, key}] = e
	// Evict the task's oldest entries beyond the bound.
	for {
		var oldest *textCacheKey
		n := 0
		for k, v := range c.entries {
			if k.task != task {
				continue
			}
			n++
			if oldest == nil || v.createdAt.Before(c.entries[*oldest].createdAt) {
				kk := k
				oldest = &kk
			}
		}
		if n <= textCacheEntries || oldest == nil {
			return
		}
		delete(c.entries, *oldest)
	}
}

// dropTask forgets every entry of a finished task.
func (c *textCache) dropTask(task string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for k := range c.entries {
		if k.task == task {
			delete(c.entries, k)
		}
	}
}
