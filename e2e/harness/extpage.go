package harness

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/agenttab/agenttab/extension"
)

// ExtensionPage is one of the extension's own pages (the popup) opened in
// a tab, driven through DevTools the way a user drives it: real mouse
// clicks, reading what is shown.
type ExtensionPage struct {
	ctx    context.Context
	cancel context.CancelFunc
}

// OpenExtensionPage opens chrome-extension://ID/path in a new tab.
func (e *Env) OpenExtensionPage(t testing.TB, path string) *ExtensionPage {
	t.Helper()
	url := "chrome-extension://" + extension.ID + "/" + path
	ctx, cancel := chromedp.NewContext(e.browser.ctx)
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		cancel()
		t.Fatalf("opening %s: %v", url, err)
	}
	p := &ExtensionPage{ctx: ctx, cancel: cancel}
	t.Cleanup(cancel)
	return p
}

func run[T any](t testing.TB, p *ExtensionPage, what string, action chromedp.Action[T]) T {
	t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, evalTimeout)
	defer cancel()
	v, err := chromedp.Run(ctx, action)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	return v
}

// Click clicks the element sel (a CSS selector) with the mouse.
func (p *ExtensionPage) Click(t testing.TB, sel string) {
	t.Helper()
	run(t, p, "clicking "+sel, chromedp.Click(chromedp.CSS(sel), chromedp.NodeVisible))
}

// Text is what the page shows: its body's innerText.
func (p *ExtensionPage) Text(t testing.TB) string {
	t.Helper()
	return run(t, p, "reading the page", chromedp.Evaluate[string](`document.body.innerText`))
}

// WaitText waits until the page shows want.
func (p *ExtensionPage) WaitText(t testing.TB, want string, timeout time.Duration) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		got := p.Text(t)
		if strings.Contains(got, want) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the page never showed %q; it shows:\n%s", want, got)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Close closes the page's tab.
func (p *ExtensionPage) Close() { p.cancel() }

// Screenshot is a PNG of the page at a popup's size (Chrome shows the
// popup as a small bubble, not a tab).
func (p *ExtensionPage) Screenshot(t testing.TB) []byte {
	t.Helper()
	run(t, p, "sizing the page like a popup", chromedp.EmulateViewport(380, 260))
	return run(t, p, "taking a screenshot", chromedp.FullScreenshot(100))
}

// Checked reports whether the checkbox sel is checked.
func (p *ExtensionPage) Checked(t testing.TB, sel string) bool {
	t.Helper()
	return run(t, p, "reading "+sel, chromedp.Evaluate[bool](`document.querySelector(`+strconv.Quote(sel)+`)?.checked === true`))
}

// Eval evaluates expr in the page and decodes its JSON value into out: what
// the page shows beyond its text (a colour swatch, a class).
func (p *ExtensionPage) Eval(t testing.TB, expr string, out any) {
	t.Helper()
	raw := run(t, p, "evaluating in the page", chromedp.Evaluate[string](`JSON.stringify(`+expr+`)`))
	if err := json.Unmarshal([]byte(raw), out); err != nil {
		t.Fatalf("the page's value %s: %v", raw, err)
	}
}

// Count is how many elements match the CSS selector sel.
func (p *ExtensionPage) Count(t testing.TB, sel string) int {
	t.Helper()
	return run(t, p, "counting "+sel, chromedp.Evaluate[int](`document.querySelectorAll(`+strconv.Quote(sel)+`).length`))
}
