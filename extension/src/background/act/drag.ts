// The drag step: ref dragged onto to_ref. Source of truth: issue 3 (the
// pointer checks of pointer.ts, at both ends) and issue 9 (no drag carries
// text into or out of a sensitive field: drop-guard.ts).
import { OutcomeDispatched, OutcomeNotStarted } from "../../protocol/generated";
import type { Clock } from "../clock";
import type { Page } from "../pagework/page-tab";
import { refuseSensitivePoint } from "./drop-guard";
import { sensitiveField } from "./key-guard";
import { aim, moved, mouse, notActionable, pumpFrames, sleep } from "./pointer";
import type { Progress } from "./receipts";

/** Intermediate pointer moves of a drag: enough for drag libraries to see motion. */
const DRAG_MOVES = 5;
/** How long after the last move an intercepted HTML5 drag may still be reported. */
const DRAG_DATA_MS = 50;

/**
 * Drags ref onto toRef. HTML5 drag and drop runs through Chrome's drag
 * interception (Input.setInterceptDrags → Input.dragIntercepted →
 * Input.dispatchDragEvent), because a real OS drag loop cannot be driven
 * from here; pointer-event drags see the moves with the button held.
 */
export async function drag(page: Page, clock: Clock, progress: Progress, ref: string, toRef: string): Promise<string> {
  const from = await aim(page, ref);
  // A field's value never leaves it, and nothing is dropped into one; a
  // label's ref counts as its field (page/target.ts), as for keys.
  if (from.info.sensitive) throw sensitiveField(from.info.description || ref, OutcomeNotStarted, "drags no text out of it");
  const to = await aim(page, toRef);
  if (to.info.sensitive) throw sensitiveField(to.info.description || toRef, OutcomeNotStarted, "drops no text into it");
  // Bringing the target into view may have scrolled the source away.
  const again = await page.agent(from.frame).target(ref);
  if (!again.ok || moved(from.info, again)) {
    throw notActionable(ref, from.info, "no_box");
  }
  // What really receives the pointer there (a field inside the ref, a
  // frame's field) is what the text comes out of or goes into.
  await refuseSensitivePoint(page, to.index, from, "out of", OutcomeNotStarted);
  await refuseSensitivePoint(page, to.index, to, "into", OutcomeNotStarted);
  let data: unknown;
  const stop = page.session.on("Input.dragIntercepted", (_s, p) => {
    data = p["data"];
  });
  await page.session.send("Input.setInterceptDrags", { enabled: true });
  try {
    await pumpFrames(page, clock, async () => {
      await mouse(page, progress, "mouseMoved", from, { button: "none", buttons: 0 });
      await mouse(page, progress, "mousePressed", from, { button: "left", buttons: 1, clickCount: 1 });
      for (let i = 1; i <= DRAG_MOVES; i++) {
        const at = { x: from.x + ((to.x - from.x) * i) / DRAG_MOVES, y: from.y + ((to.y - from.y) * i) / DRAG_MOVES };
        await mouse(page, progress, "mouseMoved", at, { button: "left", buttons: 1 });
      }
      if (data === undefined) await sleep(clock, DRAG_DATA_MS);
      try {
        if (data !== undefined) {
          // The page may have put another element under the drop point
          // meanwhile: checked right before the text would go in.
          await refuseSensitivePoint(page, await page.frames(), to, "into", OutcomeDispatched);
          for (const type of ["dragEnter", "dragOver", "drop"]) {
            await page.session.send("Input.dispatchDragEvent", { type, x: to.x, y: to.y, data, modifiers: 0 });
          }
        }
      } catch (e) {
        // The intercepted drag ends without a drop.
        if (data !== undefined) await page.session.send("Input.dispatchDragEvent", { type: "dragCancel", x: to.x, y: to.y, data, modifiers: 0 }).catch(() => undefined);
        throw e;
      } finally {
        await mouse(page, progress, "mouseReleased", to, { button: "left", buttons: 0, clickCount: 1 });
      }
    }, true);
  } finally {
    stop();
    await page.session.send("Input.setInterceptDrags", { enabled: false }).catch(() => undefined);
  }
  return data !== undefined ? `dropped onto ${to.info.description || toRef} (HTML5 drag and drop)` : `dragged onto ${to.info.description || toRef}`;
}
