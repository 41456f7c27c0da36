// Pointer input on a ref. Source of truth: issue 3: before pointer input
// the target is scrolled into view, its box read twice (a moving target is
// refused), and the page asked which element receives the pointer at that
// point (a covered target is refused, naming what covers it); hidden,
// transparent, disabled or detached targets are refused. The page agent
// also reports running animations that move the target (page/motion.ts).
// Issue 11: a target that is not actionable yet is waited for, within the
// batch's actionable_timeout_ms, before it is refused; it is scrolled into
// view within every scrolling ancestor (page/clip.ts). There is no force
// option and no coordinate input.
import { CodeTargetCovered, CodeTargetMoving, CodeTargetNotActionable } from "../../protocol/generated";
import type { AimLooks, HitTest, TargetInfo } from "../../shared/page-agent";
import type { AgentClient } from "../agent-client/client";
import type { Clock } from "../clock";
import { FrameGone } from "../agent-client/errors";
import type { FrameEntry, FrameIndex } from "../cdp/frames";
import { Failure, failure } from "../native/failure";
import type { Page } from "../pagework/page-tab";
import type { Progress } from "./receipts";

/**
 * How far apart the two looks at the target's box are (LookApart): on a
 * shown tab after its next frame, at most 20 ms later (a frame at 60 Hz
 * is 16.7 ms); on a background tab, a task's usual case, after 10 ms of
 * the page's queued tasks. There the first build's two looks 20 ms apart
 * "usually see the same box" (page/motion.ts, observed in Chromium 156:
 * no frames, timers once a second) and running animations are asked for
 * directly, so the shorter gap keeps what the second look can catch and
 * gives a click back 10 ms (issue 10).
 */
const SHOWN_LOOK_MS = 20;
const BACKGROUND_LOOK_MS = 10;

/** A box that moved less than this between the looks is still. */
const STILL_PX = 1;

export interface Located {
  frame: FrameEntry;
  index: FrameIndex;
}

/** Where pointer input for a ref goes, in the top frame's viewport. */
export interface Aim extends Located {
  info: TargetInfo;
  x: number;
  y: number;
}

export function sleep(clock: Clock, ms: number): Promise<void> {
  return new Promise((resolve) => clock.after(ms, resolve));
}

const REASONS: Record<string, string> = {
  detached: "no longer in the page",
  hidden: "hidden",
  transparent: "transparent (opacity 0)",
  disabled: "disabled",
  not_editable: "not editable",
  no_box: "not showing any part of itself (outside the viewport, or clipped by a box around it, such as a panel still opening)",
  re_aimed: "aimed at another page than when it was checked",
};

export function notActionable(ref: string, info: TargetInfo, reason = info.reason ?? "no_box"): Failure {
  return failure(CodeTargetNotActionable, `${info.description || ref} is ${REASONS[reason] ?? reason}: ${reason}`);
}

/** The target's centre receives the pointer on something else. */
export function covered(ref: string, info: TargetInfo, hit: HitTest): Failure {
  return failure(CodeTargetCovered, `${info.description || ref} is covered by ${hit.covering ?? "another element"}`);
}

/** Whether a target's box moved or changed size between two looks. */
export function moved(a: TargetInfo, b: TargetInfo): boolean {
  return Math.abs(a.x - b.x) > STILL_PX || Math.abs(a.y - b.y) > STILL_PX || Math.abs(a.width - b.width) > STILL_PX || Math.abs(a.height - b.height) > STILL_PX;
}

/** One look's verdict: where the target is, or why it cannot take the pointer now. */
type Verdict = { ok: true; info: TargetInfo } | { ok: false; failure: Failure; lasting: boolean };

/**
 * Reads the page agent's looks in the order the refusals go (hidden,
 * transparent, disabled or detached; moving; covered). lasting: waiting
 * cannot change it (the element left the page, or the page re-aimed it).
 */
function judge(ref: string, { first, second, hit }: AimLooks): Verdict {
  const refused = (info: TargetInfo): Verdict => ({ ok: false, failure: notActionable(ref, info), lasting: info.reason === "detached" || info.reason === "re_aimed" });
  if (!first.ok) return refused(first);
  if (second === undefined) throw new Error("the page agent's aim answered no second look");
  if (!second.ok) return refused(second);
  if (second.moving || moved(first, second)) {
    const why = second.moving ? "is being moved by a running animation" : "moved between two looks (the page is shifting)";
    return { ok: false, failure: failure(CodeTargetMoving, `${second.description || ref} ${why}`), lasting: false };
  }
  if (hit === undefined) throw new Error("the page agent's aim answered no hit test");
  if (!hit.ok) return { ok: false, failure: covered(ref, second, hit), lasting: false };
  return { ok: true, info: second };
}

/**
 * Checks a ref for pointer input and finds its point; nothing is
 * dispatched. A target that is not actionable yet (hidden, transparent,
 * disabled, moving, covered) is looked at again until it is, within the
 * step's patience (Progress), and only then refused: issue 11, like
 * Playwright's auto-wait. Without progress it is refused at once.
 */
export async function aim(page: Page, ref: string, located?: Located, progress?: Progress): Promise<Aim> {
  const { frame, index } = located ?? (await page.locate(ref));
  const agent = page.agent(frame);
  // Both looks and the hit test in one page call (page/target.ts aim),
  // the gap between the looks timed in the page.
  const shown = await page.shown();
  let verdict = judge(ref, await agent.aim(ref, { frame: shown, ms: shown ? SHOWN_LOOK_MS : BACKGROUND_LOOK_MS }));
  if (!verdict.ok) verdict = await waitUntilActionable(page, agent, ref, shown, verdict, progress);
  if (!verdict.ok) throw verdict.failure;
  const info = verdict.info;
  const offset = await page.offset(frame, index);
  return { frame, index, info, x: info.x + offset.x, y: info.y + offset.y };
}

/**
 * Pauses between looks while waiting, in ms: the first looks come
 * quickly (an animation of a few hundred ms), later ones every
 * WAIT_PAUSE_MS (a banner that stays). Each look itself spans one frame.
 */
export const WAIT_PAUSES_MS = [0, 20, 50];
export const WAIT_PAUSE_MS = 100;

/**
 * Looks again until the target is actionable or the step's patience is
 * spent; answers the last refusal then, saying how long it waited. On a
 * background tab the looks run while pumpFrames makes the tab render
 * frames (docs/notes/background-tabs.md, measured in Chromium 156: a
 * 400 ms CSS transition, Web Animation or jQuery animation ends after
 * 1.1–1.25 s without frames and after 410–460 ms with them), and each
 * second look follows a frame as on a shown tab.
 */
async function waitUntilActionable(page: Page, agent: AgentClient, ref: string, shown: boolean, refused: Verdict & { ok: false }, progress?: Progress): Promise<Verdict> {
  const patience = progress?.patience;
  if (refused.lasting || progress === undefined || patience === undefined || progress.waitedMs >= patience.timeoutMs) return refused;
  const { clock } = patience;
  const started = clock.now();
  const until = started + patience.timeoutMs - progress.waitedMs;
  const looks = async (): Promise<Verdict> => {
    let last = refused;
    for (let n = 0; ; n++) {
      const left = until - clock.now();
      if (left <= 0) return last;
      await sleep(clock, Math.min(WAIT_PAUSES_MS[n] ?? WAIT_PAUSE_MS, left));
      const verdict = judge(ref, await agent.aim(ref, { frame: true, ms: SHOWN_LOOK_MS }));
      if (verdict.ok || verdict.lasting) return verdict;
      last = verdict;
    }
  };
  try {
    const verdict = shown ? await looks() : await pumpFrames(page, clock, looks);
    if (verdict.ok || verdict.lasting) return verdict;
    const d = verdict.failure.detail;
    return { ...verdict, failure: new Failure(d.code, d.outcome, `${d.message} (after waiting ${Math.round(clock.now() - started)} ms)`, d.recovery) };
  } finally {
    progress.waitedMs += clock.now() - started;
  }
}

export async function mouse(page: Page, progress: Progress, type: string, at: { x: number; y: number }, extra: object = {}): Promise<void> {
  progress.dispatched = true;
  await page.session.send("Input.dispatchMouseEvent", { type, x: at.x, y: at.y, pointerType: "mouse", ...extra });
}

// Observed in Chromium 156 on a background tab with focus emulation on
// (notes/chromium.md Trap 1 is the case without it): Chrome delivers
// mouse moves with the page's next frame, and a hidden tab makes about one
// frame a second, so a move that follows another waits up to 1 s; presses
// and releases are not held back, and one flushes the moves queued before
// it. A click therefore does not wait for its move; a hover or a drag,
// which need their moves delivered, keep frames coming meanwhile
// (pumpFrames).

/**
 * Presses and releases at the aim, count times. confirmed: the caller
 * calls into the clicked frame right after (the window.open trap's
 * collection, child-gesture.ts), which also shows that the page ran its
 * handlers; otherwise handled() does.
 */
export async function click(page: Page, clock: Clock, progress: Progress, at: Aim, count: 1 | 2, confirmed: boolean): Promise<void> {
  progress.dispatched = true;
  const move = page.session.send("Input.dispatchMouseEvent", { type: "mouseMoved", x: at.x, y: at.y, pointerType: "mouse", button: "none", buttons: 0 });
  // Its failure, if any, is read below; until then it must not count as unhandled.
  move.catch(() => undefined);
  for (let n = 1; n <= count; n++) {
    await mouse(page, progress, "mousePressed", at, { button: "left", buttons: 1, clickCount: n });
    await mouse(page, progress, "mouseReleased", at, { button: "left", buttons: 0, clickCount: n });
  }
  progress.inputEnded = clock.now();
  await move;
  if (!confirmed) await handled(page, at);
}

/**
 * Waits until the page has run its handlers for the input sent so far.
 * Observed in Chromium 156: Chrome answers mouseReleased before the
 * page's click handlers run, and under load a form's submission began
 * more than 100 ms after the answer, after the step had stopped looking
 * for a navigation. A call into the page agent of the clicked frame runs
 * after the input queued before it.
 */
async function handled(page: Page, at: Aim): Promise<void> {
  try {
    await page.agent(at.frame).knows("e0");
  } catch (e) {
    // The input took the page to a new document: handled, certainly.
    if (!(e instanceof FrameGone)) throw e;
  }
}

/**
 * Runs f while a tiny screencast makes the background tab produce frames
 * (measured: moves take 12–21 ms instead of about 1 s; start and stop cost
 * about 7 ms each). The frames (8×8 JPEG) are acknowledged and dropped.
 *
 * With fresh set, f starts only after the first new frame. Observed in
 * Chromium 156: Chrome routes input among a page's processes (out-of-
 * process iframes) by the layout of the last frame it drew, so on a hidden
 * tab that scrolled since (typing into a field scrolls it into view) a
 * click landed in the wrong frame, at the wrong place.
 */
export async function pumpFrames<T>(page: Page, clock: Clock, f: () => Promise<T>, fresh = false): Promise<T> {
  const session = page.session;
  let drawn: () => void = () => undefined;
  const frame = new Promise<void>((resolve) => (drawn = resolve));
  const stop = session.on("Page.screencastFrame", (sessionId, p) => {
    if (sessionId !== undefined) return;
    drawn();
    session.send("Page.screencastFrameAck", { sessionId: p["sessionId"] }).catch(() => undefined);
  });
  try {
    await session.send("Page.startScreencast", { format: "jpeg", quality: 1, maxWidth: 8, maxHeight: 8 });
    if (fresh) await Promise.race([frame, sleep(clock, FRESH_FRAME_MS)]);
    return await f();
  } finally {
    stop();
    await session.send("Page.stopScreencast").catch(() => undefined);
  }
}

/** The longest wait for a fresh frame before input goes out anyway. */
const FRESH_FRAME_MS = 500;

/**
 * A click where Chrome must route it among processes (the tab has
 * out-of-process iframes) waits for a fresh frame; otherwise the page's
 * one renderer hit-tests it against its current layout.
 */
export async function routedClick(page: Page, clock: Clock, progress: Progress, at: Aim, count: 1 | 2, confirmed = false): Promise<void> {
  if (page.session.children.size === 0) return click(page, clock, progress, at, count, confirmed);
  return pumpFrames(page, clock, () => click(page, clock, progress, at, count, confirmed), true);
}
