package e2e

import (
	"testing"

	"github.com/agenttab/agenttab/e2e/harness"
	"github.com/agenttab/agenttab/extension"
	"github.com/agenttab/agenttab/protocol"
)

// Spec 000: browser-owned surfaces are tab_only. Navigation, reload, close
// and load waits work on them; every page-content operation fails
// browser_restricted_origin, not_started, before any script or debugger
// runs.
func TestRestrictedSurfacesAreTabOnly(t *testing.T) {
	e := harness.Start(t)
	base := e.ServePages(map[string]string{"/": page("Plain")})
	s := e.MCP(t)
	for _, url := range []string{
		"chrome://settings/",
		"chrome-extension://" + extension.ID + "/popup.html",
	} {
		t.Run(url, func(t *testing.T) {
			opened := ok(t, s, protocol.MethodOpen, map[string]any{"url": url})
			if r := tabOf(t, opened)["automation_route"]; r != string(protocol.RouteTabOnly) {
				t.Fatalf("route %v, want tab_only", r)
			}
			tab := handleOf(t, opened)
			rev := int64(tabOf(t, opened)["page_revision"].(float64))

			for _, tc := range []struct {
				tool string
				args map[string]any
			}{
				{protocol.MethodSnapshot, map[string]any{"tab": tab}},
				{protocol.MethodWait, map[string]any{"tab": tab, "until": "text", "text": "x", "timeout_ms": 200}},
				{protocol.MethodWait, map[string]any{"tab": tab, "until": "network_idle", "timeout_ms": 200}},
				{protocol.MethodWait, map[string]any{"tab": tab, "until": "download", "timeout_ms": 200}},
			} {
				if res := refused(t, s, tc.tool, tc.args, protocol.CodeBrowserRestrictedOrigin); res["outcome"] != string(protocol.OutcomeNotStarted) {
					t.Errorf("%s %v: outcome %v", tc.tool, tc.args["until"], res["outcome"])
				}
			}
			for _, st := range []map[string]any{step("click", "ref", "e1"), step("press", "keys", "Enter"), step("scroll", "delta_y", 100)} {
				actRefused(t, s, tab, rev, protocol.CodeBrowserRestrictedOrigin, 0, st)
			}

			// The recovery operations work.
			if w := ok(t, s, protocol.MethodWait, map[string]any{"tab": tab, "until": "load", "timeout_ms": 5000}); w["satisfied"] != true {
				t.Errorf("load wait: %v", w)
			}
			res := act(t, s, tab, rev, step("reload"))
			res = act(t, s, tab, revisionOf(res), step("navigate", "url", base+"/"))
			if st := stepsOf(res)[0]; st["navigation"] != string(protocol.NavigationCommitted) {
				t.Errorf("navigating away: %v", st)
			}
			res = act(t, s, tab, revisionOf(res), step("close"))
			refused(t, s, protocol.MethodTabs, map[string]any{"tab": tab}, protocol.CodeNotOwned)
		})
	}
	// Observed in Chromium 156: an extension cannot open a devtools:// page
	// at all ("Cannot navigate to a devtools:// page."), so no task can own
	// one; the open fails cleanly and nothing is created.
	before := len(e.ChromeTabs(t))
	if res := refused(t, s, protocol.MethodOpen, map[string]any{"url": "devtools://devtools/bundled/inspector.html"}, protocol.CodeChromeError); res["outcome"] != string(protocol.OutcomeNotStarted) {
		t.Errorf("devtools open: %v", res)
	}
	if after := len(e.ChromeTabs(t)); after != before {
		t.Errorf("a refused devtools open left %d tabs behind", after-before)
	}
}
