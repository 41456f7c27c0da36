package host

import (
	"strings"
	"testing"
	"time"

	"github.com/agenttab/agenttab/protocol"
)

// The cache keeps at most textCacheEntries per task, and all tasks
// together at most its byte budget, dropping the oldest entries first
// whatever their task (issue 9 review: without the budget, 64 tasks could
// hold gigabytes of captured text).
func TestTextCacheBounds(t *testing.T) {
	c := &textCache{maxBytes: 10_000}
	t0 := time.Unix(0, 0)
	put := func(task, key string, chars int, at time.Duration) {
		c.put(task, key, &cachedText{handle: "tab_1", snap: protocol.ExtSnapshotResult{Text: strings.Repeat("x", chars)}, createdAt: t0.Add(at)})
	}
	has := func(task, key string) bool {
		_, ok := c.get(task, key, "tab_1", t0.Add(time.Hour))
		return ok
	}
	for i := range textCacheEntries + 2 {
		put("a", string(rune('A'+i)), 10, time.Duration(i)*time.Second)
	}
	if has("a", "A") || has("a", "B") || !has("a", "C") {
		t.Fatalf("per-task bound: the two oldest of %d entries should be gone, the third kept", textCacheEntries+2)
	}
	put("b", "big1", 4_000, time.Minute)
	put("c", "big2", 4_000, 2*time.Minute)
	if !has("b", "big1") || !has("c", "big2") {
		t.Fatal("entries within the budget were dropped")
	}
	put("d", "big3", 4_000, 3*time.Minute)
	if has("a", "C") || has("b", "big1") {
		t.Fatal("over the budget, the oldest entries of other tasks should go first")
	}
	if !has("c", "big2") || !has("d", "big3") {
		t.Fatal("over the budget, the newest entries should stay")
	}
}
