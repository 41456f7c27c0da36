package host

import (
	"cmp"
	"sync"
	"time"

	"github.com/agenttab/agenttab/protocol"
)

// textCache keeps captured snapshot text host-side under a caller's
// cache_key, so that a later call can read another window of it, or search
// it, without reading the page again. Entries belong to one task and one
// tab; they go when the task finishes, when they are older than
// textCacheTTL, when the task has more than textCacheEntries, and, oldest
// first whatever their task, when all of them together hold more than
// textCacheBytes.
type textCache struct {
	mu      sync.Mutex
	entries map[textCacheKey]*cachedText
	// maxBytes replaces textCacheBytes when set (tests).
	maxBytes int
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
	// textCacheBytes bounds the whole cache (issue 9 review: 16 captures of
	// up to MaxCaptureChars each, for each of up to MaxConnections tasks,
	// came to gigabytes). 256 MiB keeps dozens of the largest captures.
	textCacheBytes = 256 << 20
)

// size is what an entry holds in memory, near enough for the budget.
func (e *cachedText) size() int {
	return len(e.snap.Text) + len(e.snap.ScreenshotPNG) + len(e.snap.URL) + len(e.snap.Title) + len(e.handle)
}

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
	// Evict the task's oldest entries beyond its bound, then the oldest of
	// any task beyond the whole cache's.
	for c.evictOldest(func(k textCacheKey) bool { return k.task == task }, func(n, _ int) bool { return n > textCacheEntries }) {
	}
	for c.evictOldest(func(textCacheKey) bool { return true }, func(_, bytes int) bool { return bytes > cmp.Or(c.maxBytes, textCacheBytes) }) {
	}
}

// evictOldest deletes the oldest entry among those in scope when over says
// their count and bytes are too many, and reports whether it did.
func (c *textCache) evictOldest(inScope func(textCacheKey) bool, over func(n, bytes int) bool) bool {
	var oldest *textCacheKey
	n, bytes := 0, 0
	for k, v := range c.entries {
		if !inScope(k) {
			continue
		}
		n++
		bytes += v.size()
		if oldest == nil || v.createdAt.Before(c.entries[*oldest].createdAt) {
			kk := k
			oldest = &kk
		}
	}
	if oldest == nil || !over(n, bytes) {
		return false
	}
	delete(c.entries, *oldest)
	return true
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
