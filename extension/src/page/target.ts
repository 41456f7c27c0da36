// target() and hitTest(): the checks before pointer input (issue 3: a
// hidden, transparent, disabled, detached or covered target is refused);
// aim() does both looks and the hit test in one call from the worker,
// which looks again while the target is not actionable yet (issue 11,
// act/pointer.ts). The point aimed at is the centre of the part of the
// target that shows through every clipping ancestor (page/clip.ts).

import type { AimLooks, HitTest, LookApart, TargetInfo } from "../shared/page-agent";
import { describe } from "./describe";
import { composedContains, controlOf, disabled, editable } from "./dom";
import { animated } from "./motion";
import type { Box } from "./clip";
import { clipOf, inside, intersect, isEmpty } from "./clip";
import { elementAt } from "./point";
import { isSensitiveElement } from "./sensitive";
import { opaque, visible } from "./visibility";

export function target(el: Element | null): TargetInfo {
  const info: TargetInfo = { ok: false, x: 0, y: 0, width: 0, height: 0, sensitive: false, description: "" };
  if (el === null || !el.isConnected) return { ...info, reason: "detached" };
  info.description = describe(el);
  // A label's ref acts on its control (dom.ts controlOf): a label of a
  // password field is as sensitive as the field.
  info.sensitive = isSensitiveElement(el) || isSensitiveElement(controlOf(el));
  info.editable = editable(el);
  if (!visible(el) || !hasArea(el.getBoundingClientRect())) return { ...info, reason: "hidden" };
  if (!opaque(el)) return { ...info, reason: "transparent" };
  if (disabled(el)) return { ...info, reason: "disabled" };
  let clip = clipOf(el);
  // Out of the viewport or of a scrolled list's visible part: scrolled
  // into view in every scrolling ancestor (scrollIntoView scrolls them
  // all), then the clip is read again where the scroll left it.
  if (!inside(el.getBoundingClientRect(), clip.reach)) {
    el.scrollIntoView({ block: "center", inline: "center", behavior: "instant" });
    clip = clipOf(el);
  }
  const box = firstVisibleRect(el, clip.shown);
  if (box === null) return { ...info, reason: "no_box" };
  return {
    ...info,
    ok: true,
    moving: animated(el),
    x: (box.left + box.right) / 2,
    y: (box.top + box.bottom) / 2,
    width: box.right - box.left,
    height: box.bottom - box.top,
  };
}

function hasArea(r: DOMRect): boolean {
  return r.width > 0 && r.height > 0;
}

/**
 * The part of the first client rect (a wrapped link has several) that
 * shows through the viewport and every clipping ancestor: its centre is
 * where the pointer goes.
 */
function firstVisibleRect(el: Element, shown: Box): Box | null {
  for (const r of el.getClientRects()) {
    const box = intersect(r, shown);
    if (!isEmpty(box)) return box;
  }
  return null;
}

export function hitTest(el: Element | null, x: number, y: number): HitTest {
  if (el === null || !el.isConnected) return { ok: false, covering: "nothing: the element is detached" };
  const hit = elementAt(x, y);
  if (hit === null) return { ok: false, covering: "nothing: the point is outside the viewport" };
  if (composedContains(el, hit)) return { ok: true };
  // A click on a label goes to its control.
  const label = hit.closest("label");
  if (label?.control === el) return { ok: true };
  return { ok: false, covering: describe(hit) };
}

/**
 * The two looks apart (LookApart) and the hit test at the second look's
 * point, in one call (issue 10: each call from the worker is a DevTools
 * round trip). The element is resolved again for each look, as separate
 * calls did. The hit test runs whenever the second look found a box; the
 * worker decides (act/pointer.ts aim).
 */
export async function aim(el: () => Element | null, gap: LookApart): Promise<AimLooks> {
  const first = target(el());
  if (!first.ok) return { first };
  // document.visibilityState cannot say which: observed in headless
  // Chromium 156, a background tab says "visible" and renders no frames.
  await (gap.frame ? nextFrame(gap.ms) : tasksFor(gap.ms));
  const second = target(el());
  if (!second.ok) return { first, second };
  return { first, second, hit: hitTest(el(), second.x, second.y) };
}

/** Resolves once the document has rendered its next frame, or after ms (a shown page that renders none). */
function nextFrame(ms: number): Promise<void> {
  return new Promise((resolve) => {
    let done = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      resolve();
    };
    // The callback runs before the frame's layout; the one after it runs
    // once the frame was produced, after the page's own callbacks moved
    // what they move.
    requestAnimationFrame(() => requestAnimationFrame(finish));
    void tasksFor(ms).then(finish);
  });
}

/**
 * Resolves after ms, yielding to the page's task queue meanwhile so that
 * its queued work (loads, messages, layout) runs between the looks. Not a
 * timer: on a hidden tab Chrome aligns timers to 1 s; message-channel
 * tasks are not throttled.
 */
function tasksFor(ms: number): Promise<void> {
  const until = performance.now() + ms;
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      if (performance.now() < until) {
        channel.port2.postMessage(null);
        return;
      }
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}
