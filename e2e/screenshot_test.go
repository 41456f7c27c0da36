package e2e

import (
	"bytes"
	"encoding/binary"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agenttab/agenttab/e2e/harness"
	"github.com/agenttab/agenttab/protocol"
)

// pngSize reads a PNG's width and height from its IHDR chunk.
func pngSize(t *testing.T, path string) (int, int) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) < 24 || !bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")) {
		t.Fatalf("%s is not a PNG", path)
	}
	return int(binary.BigEndian.Uint32(b[16:20])), int(binary.BigEndian.Uint32(b[20:24]))
}

// Screenshots of a background tab that has sat idle (the case where a lone
// capture can hang, notes/chromium.md): viewport and full page, written as
// owner-only files, without activating the tab.
func TestScreenshotsOfAnIdleBackgroundTab(t *testing.T) {
	e := harness.Start(t)
	base := e.ServePages(map[string]string{"/": `<!doctype html><title>Tall</title><h1>Tall page</h1><div style="height:4000px;background:linear-gradient(#fff,#39f)"></div><p>bottom</p>`})
	s := e.MCP(t)
	tab := handleOf(t, ok(t, s, protocol.MethodOpen, map[string]any{"url": base + "/"}))
	snap(t, s, tab, nil)
	active := activeTabs(t, e)
	time.Sleep(2 * time.Second) // idle: no page work, no frames drawn

	sizes := map[string][2]int{}
	for _, kind := range []string{"viewport", "full_page"} {
		res := ok(t, s, protocol.MethodSnapshot, map[string]any{"tab": tab, "screenshot": kind, "max_chars": 100})
		shot, _ := res["screenshot"].(map[string]any)
		path, _ := shot["path"].(string)
		if shot == nil || !strings.HasPrefix(path, e.StateDir) {
			t.Fatalf("%s screenshot: %v", kind, shot)
		}
		if info, err := os.Stat(path); err != nil || info.Mode().Perm() != 0o600 {
			t.Errorf("%s screenshot file: %v, %v", kind, info, err)
		}
		w, h := pngSize(t, path)
		sizes[kind] = [2]int{w, h}
	}
	if v, f := sizes["viewport"], sizes["full_page"]; v[0] == 0 || f[1] < 4000 || f[1] <= v[1] {
		t.Errorf("viewport %v, full page %v: want the full page taller than 4000 px and than the viewport", v, f)
	}
	if after := activeTabs(t, e); !slices.Equal(after, active) {
		t.Errorf("a screenshot activated a tab: %v → %v", active, after)
	}
}
