// The drag step: ref dragged onto to_ref, released at its position
// (drop-point.ts). Source of truth: issue 3 (the pointer checks of
// pointer.ts, at both ends), issue 9 (no drag carries text into or out of
// a sensitive field: drop-guard.ts) and issue 11 item 7 (the gesture
// sortable lists accept: a press, moves a person's hand would make, a
// release where asked).
import { DropCenter, OutcomeDispatched, OutcomeNotStarted } from "../../protocol/generated";
import type { DropPosition } from "../../protocol/generated";
import type { Clock } from "../clock";
import { fieldsOf } from "../cdp/read";
import type { Page } from "../pagework/page-tab";
import { sameDoc } from "../pagework/refs";
import type { Point } from "./drop-guard";
import { refuseSensitivePoint } from "./drop-guard";
import { withElement } from "./key-guard";
import { dropPoint } from "./drop-point";
import { sensitiveField } from "./key-guard";
import { aim, moved, mouse, notActionable, pumpFrames, sleep } from "./pointer";
import type { Aim } from "./pointer";
import type { Progress } from "./receipts";

/**
 * Moves from the press to the release, evenly along the way. jQuery UI
 * sortable rearranges on each mousemove only, by the item under the
 * pointer, the half of it the pointer is in and the way that move went
 * (jquery-ui 1.14 sortable.js _intersectsWithSides); drag thresholds
 * (Blink's 4 px for HTML5 drag and drop, libraries' own) need the first
 * moves; the last ends at the release point.
 */
const DRAG_MOVES = 5;
/**
 * A pause between moves, ms, so that timers a move started run before
 * the next (jQuery UI re-reads the items' boxes in a setTimeout after
 * each rearrangement). On a background tab it costs nothing: a move is
 * delivered with the next frame (pointer.ts pumpFrames), and the probe
 * page saw moves 17 ms apart with this pause as without, and a
 * setTimeout(0) run 0-7 ms after a move (the document is visible there
 * under focus emulation, and its timers are not held back).
 */
const MOVE_PAUSE_MS = 10;
/**
 * How long the pointer rests at the release point, ms, before the
 * release: SortableJS's fallback mode (forceFallback) looks for the item
 * under the pointer on a 50 ms interval, not on moves; an intercepted
 * HTML5 drag is reported meanwhile if it was not yet.
 */
const REST_MS = 60;
/** How long the release waits for a target its list is moving to come to rest, ms, and how far apart it looks. */
const SETTLE_MS = 1_000;
const SETTLE_LOOK_MS = 50;

/**
 * Drags ref onto toRef, releasing at position. Pointer-event and mouse-
 * event libraries see a press, moves with the button held and a release.
 *
 * HTML5 drag and drop cannot run Chrome's real OS drag loop from here.
 * Observed in Chromium 156: with Input.setInterceptDrags on, the move
 * that starts a drag (an element with draggable=true, a link, selected
 * text) makes Chrome report Input.dragIntercepted with the drag's data
 * instead of starting the loop, and the page then ignores mouse moves as
 * it does during a person's drag. The drag goes on with
 * Input.dispatchDragEvent: dragEnter, then dragOver at each later point
 * (a sortable's dragover handler rearranges there: SortableJS's default
 * mode), and drop, after which the source receives dragend. No
 * mouseReleased follows a drop (a person's drop sends no mouseup to the
 * page either); a failure before the drop sends dragCancel.
 */
export async function drag(page: Page, clock: Clock, progress: Progress, ref: string, toRef: string, position?: DropPosition): Promise<string> {
  const from = await aim(page, ref, undefined, progress);
  // A field's value never leaves it, and nothing is dropped into one; a
  // label's ref counts as its field (page/target.ts), as for keys.
  if (from.info.sensitive) throw sensitiveField(from.info.description || ref, OutcomeNotStarted, "drags no text out of it");
  const to = await aim(page, toRef, undefined, progress);
  if (to.info.sensitive) throw sensitiveField(to.info.description || toRef, OutcomeNotStarted, "drops no text into it");
  // Bringing the target into view may have scrolled the source away.
  const again = await page.agent(from.frame).target(ref);
  if (!again.ok || moved(from.info, again)) {
    throw notActionable(ref, from.info, "no_box");
  }
  const drop = await dropPoint(page, to, toRef, position);
  // What really receives the pointer there (a field inside the ref, a
  // frame's field) is what the text comes out of or goes into.
  await refuseSensitivePoint(page, to.index, from, "out of", OutcomeNotStarted);
  await refuseSensitivePoint(page, to.index, drop, "into", OutcomeNotStarted);
  // Where the target is by the time the pointer rests on it: a list that
  // made room for an item dragged in from another list has moved it (a
  // SortableJS board between two columns pushed its target down), and the
  // release follows. A library animates that move (SortableJS: 150 ms), so
  // the target is followed until two looks agree, within SETTLE_MS. Within
  // one list the target moves because the library already reordered around
  // the pointer: following it there would undo that (seen with SortableJS).
  const across = !(await sameList(page, from, ref, to, toRef));
  const follow = async (): Promise<Point | undefined> => {
    if (!across) return undefined;
    let now = await page.agent(to.frame).target(toRef);
    for (const end = clock.now() + SETTLE_MS; now.ok && clock.now() < end; ) {
      await sleep(clock, SETTLE_LOOK_MS);
      const next = await page.agent(to.frame).target(toRef);
      const still = !moved(now, next);
      now = next;
      if (still) break;
    }
    if (!now.ok || !moved(to.info, now)) return undefined;
    const there = await dropPoint(page, { ...to, info: now, x: now.x + to.x - to.info.x, y: now.y + to.y - to.info.y }, toRef, position);
    await refuseSensitivePoint(page, to.index, there, "into", OutcomeDispatched);
    return there;
  };
  const html5 = await gesture(page, clock, progress, from, drop, follow);
  const where = position === undefined || position === DropCenter ? "onto" : position;
  return `${html5 ? "dropped" : "dragged"} ${where} ${to.info.description || toRef}${html5 ? " (HTML5 drag and drop)" : ""}`;
}

/** Presses at from, moves to drop and releases there; answers whether the page started an HTML5 drag. */
async function gesture(page: Page, clock: Clock, progress: Progress, from: Aim, first: Point, follow: () => Promise<Point | undefined>): Promise<boolean> {
  let drop = first;
  let data: unknown;
  const stop = page.session.on("Input.dragIntercepted", (_s, p) => {
    data = p["data"];
  });
  let entered = false;
  const dragEvent = (type: string, at: Point) => page.session.send("Input.dispatchDragEvent", { type, x: at.x, y: at.y, data, modifiers: 0 });
  // A move with the button held, or, once the page started an HTML5 drag, the drag's next event.
  const moveTo = async (at: Point): Promise<void> => {
    if (data === undefined) return mouse(page, progress, "mouseMoved", at, { button: "left", buttons: 1 });
    await dragEvent(entered ? "dragOver" : "dragEnter", at);
    entered = true;
  };
  await page.session.send("Input.setInterceptDrags", { enabled: true });
  try {
    await pumpFrames(
      page,
      clock,
      async () => {
        await mouse(page, progress, "mouseMoved", from, { button: "none", buttons: 0 });
        await mouse(page, progress, "mousePressed", from, { button: "left", buttons: 1, clickCount: 1 });
        let dropped = false;
        try {
          for (let i = 1; i <= DRAG_MOVES; i++) {
            if (i > 1) await sleep(clock, MOVE_PAUSE_MS);
            await moveTo({ x: from.x + ((drop.x - from.x) * i) / DRAG_MOVES, y: from.y + ((drop.y - from.y) * i) / DRAG_MOVES });
          }
          await sleep(clock, REST_MS);
          // Once: a release that chased a list reflowing around the
          // pointer would never end.
          const followed = await follow();
          if (followed !== undefined) {
            drop = followed;
            await moveTo(drop);
            await sleep(clock, REST_MS);
          }
          if (data !== undefined) {
            // Reported during the rest: the drag enters where it is.
            if (!entered) await moveTo(drop);
            // The page may have put another element under the drop point
            // meanwhile: checked right before the text would go in.
            await refuseSensitivePoint(page, await page.frames(), drop, "into", OutcomeDispatched);
            await dragEvent("drop", drop);
            dropped = true;
          }
        } finally {
          // A pointer drag ends with the release; an intercepted drag
          // that did not drop (a failure, a refusal) is cancelled.
          if (data === undefined) await mouse(page, progress, "mouseReleased", drop, { button: "left", buttons: 0, clickCount: 1 });
          else if (!dropped) await dragEvent("dragCancel", drop).catch(() => undefined);
        }
      },
      true,
    );
  } finally {
    stop();
    await page.session.send("Input.setInterceptDrags", { enabled: false }).catch(() => undefined);
  }
  return data !== undefined;
}

/** Whether the dragged element and the target are items of one list (one parent element). */
async function sameList(page: Page, from: Aim, ref: string, to: Aim, toRef: string): Promise<boolean> {
  // Each aim read the frames anew: the same frame is the same document, not the same entry.
  if (!sameDoc(from.frame.doc, to.frame.doc) || from.frame.sessionId !== to.frame.sessionId) return false;
  const answer = await withElement(page, from.frame, (elements) => elements.element(ref), (source) =>
    withElement(page, to.frame, (elements) => elements.element(toRef), (target) =>
      page.session.send(
        "Runtime.callFunctionOn",
        { functionDeclaration: "function (other) { return this.parentElement === other.parentElement; }", objectId: source, arguments: [{ objectId: target }], returnByValue: true },
        { sessionId: from.frame.sessionId },
      ),
    ),
  );
  return answer !== undefined && fieldsOf(answer["result"], "the list check")["value"] === true;
}
