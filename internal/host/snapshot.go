package host

import (
	"context"
	"encoding/base64"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/agenttab/agenttab/internal/corerpc"
	"github.com/agenttab/agenttab/internal/store"
	"github.com/agenttab/agenttab/protocol"
)

// snapshotTimeout bounds the extension's snapshot, including a full-page
// screenshot of a large page.
const snapshotTimeout = 30 * time.Second

const maxCacheKey = 128

// snapshot returns one window of the page's text. With a cache_key the
// captured text is kept host-side (textCache), so later windows and finds
// are served without reading the page again.
func (h *Host) snapshot(ctx context.Context, c *call) (any, error) {
	var p protocol.SnapshotParams
	if perr := corerpc.DecodeParams(c.params, &p); perr != nil {
		return nil, perr
	}
	if perr := checkSnapshotParams(&p); perr != nil {
		return nil, perr
	}
	task, tab, unlock, perr := h.tabCall(ctx, c, p.Tab)
	if perr != nil {
		return nil, perr
	}
	defer unlock()
	res, perr := h.snapshotTab(ctx, task, tab, p)
	if perr != nil {
		return nil, perr
	}
	c.outcome = res.Outcome
	return res, nil
}

func checkSnapshotParams(p *protocol.SnapshotParams) *protocol.Error {
	bad := func(msg, recovery string) *protocol.Error {
		return protocol.NewError(protocol.CodeInvalidParams, protocol.OutcomeNotStarted, msg, recovery)
	}
	if perr := optionalOneOf("mode", &p.Mode, protocol.SnapshotInteractive, protocol.SnapshotModes); perr != nil {
		return perr
	}
	if perr := optionalOneOf("screenshot", &p.Screenshot, protocol.ScreenshotNone, protocol.ScreenshotKinds); perr != nil {
		return perr
	}
	const windows = "Read long pages in windows: start at coverage.end of the previous call."
	var perr *protocol.Error
	if p.MaxChars, perr = optionalCount("max_chars", p.MaxChars, protocol.DefaultMaxChars, protocol.MaxMaxChars, "Omit max_chars for the default window. "+windows); perr != nil {
		return perr
	}
	if p.Start < 0 {
		return bad("start must be ≥ 0", windows)
	}
	if p.CaptureChars < 0 || p.CaptureChars > protocol.MaxCaptureChars {
		return bad(fmt.Sprintf("capture_chars must be between 0 and %d", protocol.MaxCaptureChars), "Capture less.")
	}
	if p.CaptureChars > 0 && p.CacheKey == "" {
		return bad("capture_chars needs a cache_key to keep the capture under", "Pass a cache_key of your choosing with capture_chars.")
	}
	if perr := checkLen("cache_key", p.CacheKey, maxCacheKey); perr != nil {
		return perr
	}
	if perr := checkLen("find", p.Find, 1000); perr != nil {
		return perr
	}
	if p.InlineImage && p.Screenshot == protocol.ScreenshotNone {
		return bad("inline_image needs a screenshot", `Pass screenshot: "viewport" or "full_page" with inline_image.`)
	}
	return nil
}

// snapshotTab reads the page (or the cache) and cuts the window.
func (h *Host) snapshotTab(ctx context.Context, task store.Task, tab store.OwnedTab, p protocol.SnapshotParams) (protocol.SnapshotResult, *protocol.Error) {
	var entry *cachedText
	if p.CacheKey != "" && p.Screenshot == protocol.ScreenshotNone && p.CaptureChars == 0 {
		if e, ok := h.texts.get(task.ID, p.CacheKey, tab.Handle, h.now()); ok && e.mode == p.Mode {
			entry = e
		}
	}
	var shot *protocol.BlobRef
	// Origin stops come with a fresh read only: a later window of the same
	// cached text does not repeat them (and the cached entry, shared with
	// other calls, is never written).
	var stops []protocol.OriginStop
	var challenge *protocol.Challenge // like the stops: a fresh read's
	if entry == nil {
		capture := max(p.Start+*p.MaxChars, p.CaptureChars)
		var ext protocol.ExtSnapshotResult
		params := protocol.ExtSnapshotParams{TaskID: task.ID, TabID: tab.ChromeTabID, Mode: p.Mode, CaptureChars: capture, Screenshot: p.Screenshot}
		if perr := h.extCall(ctx, snapshotTimeout, protocol.NativeSnapshot, params, &ext, protocol.OutcomeNotStarted); perr != nil {
			return protocol.SnapshotResult{}, perr
		}
		h.raiseFloor(ctx, tab.ChromeTabID, ext.Revision)
		if ext.ScreenshotPNG != "" {
			png, err := base64.StdEncoding.DecodeString(ext.ScreenshotPNG)
			if err != nil {
				return protocol.SnapshotResult{}, internalError("decoding the screenshot", err)
			}
			if shot, err = h.writeBlob(task.ID, "png", "image/png", png); err != nil {
				return protocol.SnapshotResult{}, internalError("storing the screenshot", err)
			}
			ext.ScreenshotPNG = ""
		}
		stops, ext.OriginStops = ext.OriginStops, nil
		challenge, ext.Challenge = h.checkedChallenge(ext.Challenge), nil
		entry = &cachedText{handle: tab.Handle, mode: p.Mode, snap: ext, createdAt: h.now()}
		if p.CacheKey != "" {
			h.texts.put(task.ID, p.CacheKey, entry)
		}
	}
	text, cov, found := textWindow(entry.snap.Text, p.Start, *p.MaxChars, p.Find)
	// A window past what one answer carries ends early (window.go).
	cutForSize := false
	if fitted := fitEncoded(text, maxWindowBytes); len(fitted) < len(text) {
		text, cutForSize = fitted, true
		cov.End = cov.Start + utf8.RuneCountInString(text)
	}
	if entry.snap.Truncated && entry.snap.Total > cov.Total {
		cov.Total = entry.snap.Total
	}
	res := protocol.SnapshotResult{
		Tab: tab.Handle, URL: entry.snap.URL, Title: entry.snap.Title, PageRevision: entry.snap.Revision, RefEpoch: entry.snap.RefEpoch,
		Mode: p.Mode, Coverage: cov, Status: protocol.SnapshotComplete, Text: text, CacheKey: p.CacheKey, Found: found,
		Screenshot: shot, Dialog: entry.snap.Dialog, ServedBy: entry.snap.ServedBy, LacksUserActivation: entry.snap.LacksUserActivation,
		OriginStops: stops, Challenge: challenge, Outcome: protocol.OutcomeObserved,
	}
	switch {
	case cutForSize:
		res.Status, res.TruncatedReason = protocol.SnapshotTruncated,
			fmt.Sprintf("one answer holds at most %d bytes of text: %d more characters; call again with start=%d", maxWindowBytes, cov.Total-cov.End, cov.End)
	case cov.End < cov.Total && !entry.snap.Truncated:
		res.Status, res.TruncatedReason = protocol.SnapshotTruncated,
			fmt.Sprintf("max_chars: %d more characters; call again with start=%d", cov.Total-cov.End, cov.End)
	case entry.snap.Truncated:
		res.Status, res.TruncatedReason = protocol.SnapshotTruncated,
			fmt.Sprintf("the page's text is longer than the %d characters captured; pass a larger capture_chars with a cache_key, or use find", len([]rune(entry.snap.Text)))
	}
	// A window that holds everything is still not "complete" when the mode
	// clipped texts out of it (issue 11).
	if c := entry.snap.Clipped; c != nil && c.Texts > 0 {
		res.Clipped = c
		if res.Status == protocol.SnapshotComplete {
			res.Status, res.TruncatedReason = protocol.SnapshotClipped, clippedReason(p.Mode, *c)
		} else {
			res.TruncatedReason += "; " + clippedReason(p.Mode, *c)
		}
	}
	return res, nil
}

// clippedReason says what the mode clipped and how to read it whole.
func clippedReason(mode protocol.SnapshotMode, c protocol.ClippedText) string {
	plural := func(n int, one, many string) string {
		if n == 1 {
			return "1 " + one
		}
		return fmt.Sprintf("%d %s", n, many)
	}
	if mode == protocol.SnapshotInteractive {
		return fmt.Sprintf(`%s clipped, %d characters left out (each cut ends in "… (+N chars)"); mode "full" or "readable" shows them whole, with find to start at one`,
			plural(c.Texts, "long text", "long texts"), c.Chars)
	}
	return fmt.Sprintf(`%s clipped, %d characters left out (each cut ends in "…")`, plural(c.Texts, "long name or value", "long names or values"), c.Chars)
}
