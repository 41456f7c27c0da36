package harness

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agenttab/agenttab/extension"
	"github.com/agenttab/agenttab/internal/chromium"
	"github.com/agenttab/agenttab/internal/install"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
)

// These smoke tests use only what works without the host: Find, Args, and
// Chromium loading an extension. Start itself needs the agenttab CLI and
// host, and is exercised by the tests in e2e/.

func TestFindBrowser(t *testing.T) {
	path, err := chromium.Find()
	if err != nil {
		t.Fatalf("the end-to-end tests need a Chromium-family browser: %v", err)
	}
	if !filepath.IsAbs(path) {
		t.Errorf("Find() = %q, want an absolute path", path)
	}
}

func TestArgsLoadTheExtension(t *testing.T) {
	args := chromium.Args(chromium.LaunchOptions{Headless: true, UserDataDir: "/u", ExtensionDir: "/e"})
	for _, want := range []string{"--headless=new", "--user-data-dir=/u", "--load-extension=/e"} {
		if !slices.Contains(args, want) {
			t.Errorf("Args() = %q, missing %q", args, want)
		}
	}
	if slices.ContainsFunc(args, func(a string) bool { return strings.HasPrefix(a, "--disable-extensions") }) {
		t.Errorf("Args() = %q disables extensions", args)
	}
	for _, a := range args {
		if _, _, err := parseFlag(a); err != nil {
			t.Errorf("chromedp cannot take %q: %v", a, err)
		}
	}
}

// launchWithExtension starts Chromium with extDir and waits for the
// extension's service worker target.
func launchWithExtension(t *testing.T, e *Env, extDir string) {
	t.Helper()
	path, err := chromium.Find()
	if err != nil {
		t.Fatalf("the end-to-end tests need a Chromium-family browser: %v", err)
	}
	e.launch(t, path, extDir)
	e.WaitFor(t, "the service worker of "+swURLPrefix, readyTimeout, func() bool {
		ctx, cancel := context.WithTimeout(e.browser.ctx, 2*time.Second)
		defer cancel()
		_, err := findServiceWorker(ctx)
		return err == nil
	})
}

// TestEmbeddedExtensionLoads installs the real embedded extension the way
// `agenttab install --user-data-dir` does and checks Chromium runs its
// service worker under the pinned id. The host path points nowhere: the
// extension's connectNative fails, which this test does not look at.
func TestEmbeddedExtensionLoads(t *testing.T) {
	e := newEnv(t)
	res, err := install.Install(install.Options{
		UserDataDir: e.UserDataDir,
		StateDir:    e.StateDir,
		HostPath:    filepath.Join(e.StateDir, "no-host-in-this-test"),
	})
	if err != nil {
		t.Fatal(err)
	}
	launchWithExtension(t, e, res.ExtensionDir)
	var id string
	e.Eval(t, `chrome.runtime.id`, &id)
	if id != extension.ID {
		t.Errorf("chrome.runtime.id = %q, want %q", id, extension.ID)
	}
}

// fakeExtension is a hand-written MV3 extension with the product's key (so
// the product's id) and nothing else, to test the harness's view of Chrome
// independently of the real extension.
func fakeExtension(t *testing.T) string {
	dir := t.TempDir()
	manifest := `{
  "manifest_version": 3,
  "name": "agenttab harness fake",
  "version": "0.0.1",
  "key": "` + extension.PublicKey + `",
  "background": {"service_worker": "sw.js"},
  "permissions": ["tabs", "tabGroups"]
}`
	for name, body := range map[string]string{"manifest.json": manifest, "sw.js": "chrome.tabs.onCreated.addListener(() => {});\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestChromeState(t *testing.T) {
	e := newEnv(t)
	launchWithExtension(t, e, fakeExtension(t))

	windows := e.ChromeWindows(t)
	if len(windows) != 1 || windows[0].Type != "normal" {
		t.Fatalf("ChromeWindows() = %+v, want one normal window", windows)
	}
	base := e.ServePages(map[string]string{"/": "<title>one</title><p>one"})

	var tabID int
	e.Eval(t, `chrome.tabs.create({url: `+jsString(base+"/")+`, active: false}).then(t => t.id)`, &tabID)
	var groupID int
	e.Eval(t, `chrome.tabs.group({tabIds: [`+itoa(tabID)+`]})`, &groupID)
	e.Eval(t, `chrome.tabGroups.update(`+itoa(groupID)+`, {title: "task", color: "blue"}).then(() => null)`, nil)

	e.WaitFor(t, "the new tab to load", 10*time.Second, func() bool {
		tab, ok := findTab(e.ChromeTabs(t), tabID)
		return ok && tab.Status == "complete" && tab.Title == "one"
	})
	tab, _ := findTab(e.ChromeTabs(t), tabID)
	if tab.GroupID != groupID || tab.WindowID != windows[0].ID || tab.Active || tab.URL != base+"/" {
		t.Errorf("tab = %+v, want in group %d of window %d, inactive, at %s", tab, groupID, windows[0].ID, base+"/")
	}
	groups := e.ChromeGroups(t)
	want := Group{ID: groupID, WindowID: windows[0].ID, Title: "task", Color: "blue"}
	if len(groups) != 1 || groups[0] != want {
		t.Errorf("ChromeGroups() = %+v, want [%+v]", groups, want)
	}

	// Act behind AgentTab's back, as a user would; undefined results are fine
	// with a nil out.
	e.Eval(t, `chrome.tabs.ungroup(`+itoa(tabID)+`)`, nil)
	if tab, _ := findTab(e.ChromeTabs(t), tabID); tab.GroupID != -1 {
		t.Errorf("after ungroup, groupId = %d, want -1", tab.GroupID)
	}

	// An expression that throws fails with Chrome's message, without
	// retrying (the error is the test's, not the worker's).
	if err := e.sw.eval(`chrome.tabs.remove(999999)`, nil); err == nil || !strings.Contains(err.Error(), "999999") {
		t.Errorf("removing a missing tab: %v, want Chrome's error naming the tab", err)
	}
}

// TestServiceWorkerRestart checks that Eval follows the worker across a
// restart, as MV3 workers stop when idle and start again on an event.
func TestServiceWorkerRestart(t *testing.T) {
	e := newEnv(t)
	launchWithExtension(t, e, fakeExtension(t))
	e.Eval(t, `self.marker = "before"`, nil)

	// Stop the worker the way Chrome does when it is idle.
	if _, err := chromedp.CallBrowser(e.browser.ctx, target.CloseTarget, target.CloseTargetParams{TargetID: e.sw.targetID}); err != nil {
		t.Fatal(err)
	}
	// A tabs.onCreated listener wakes it. Observed under CI load: an event
	// can wake the worker again before a poll sees it gone, so the test
	// waits for the fresh worker's state rather than for the gap.
	if _, err := chromedp.CallBrowser(e.browser.ctx, target.CreateTarget, target.CreateTargetParams{URL: "about:blank"}); err != nil {
		t.Fatal(err)
	}
	e.WaitFor(t, "a fresh service worker", 10*time.Second, func() bool {
		var marker string
		return e.sw.eval(`typeof self.marker`, &marker) == nil && marker == "undefined"
	})
	var id string
	e.Eval(t, `chrome.runtime.id`, &id)
	if id != extension.ID {
		t.Errorf("after the restart: id = %q, want a fresh worker of %s", id, extension.ID)
	}
}

func findTab(tabs []Tab, id int) (Tab, bool) {
	for _, t := range tabs {
		if t.ID == id {
			return t, true
		}
	}
	return Tab{}, false
}
