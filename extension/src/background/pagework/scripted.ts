// The scripting route. Source of truth: spec 000 ("Chrome can refuse
// chrome.debugger on an ordinary page ... AgentTab then serves top-frame
// page work through its scripting route: a page agent injected into the
// extension's isolated world of the tab's top document ... Scripted
// actions dispatch DOM events without Chrome user activation ... Work that
// only the debugger can do ... fails with debugger_unavailable and
// outcome: not_started"). Ownership, the route and expected revisions are
// checked by the callers exactly as on the debugger route; this file makes
// the page-side checks the debugger route makes (hidden, covered, sensitive
// fields) and the origin check of a click's link or form. Refs are bound
// to Chrome's document id, which every call reports.
import { CodeDebuggerUnavailable, CodeTargetNotActionable, OutcomeConfirmed, OutcomeDispatched, OutcomeNotStarted, OutcomeUnknown, RouteScripting, StepRules } from "../../protocol/generated";
import type { ExtSnapshotParams, ExtSnapshotResult, Step, StepKind } from "../../protocol/generated";
import type { SnapshotRequest, TargetInfo } from "../../shared/page-agent";
import { sensitiveField } from "../act/key-guard";
import { covered, notActionable } from "../act/pointer";
import type { Progress } from "../act/receipts";
import { trapped } from "../act/child-gesture";
import { installScriptedTrap } from "../act/open-trap";
import { scrollWith } from "../act/scroll";
import { selectOptions } from "../act/select";
import { STEP_KINDS } from "../act/kinds";
import type { Done } from "../act/typing";
import type { WaitState } from "../act/validate";
import { elementState, FrameGone, frameSnapshot, hitTest, optBool, targetInfo } from "../cdp/agent";
import { bounded, pageBusy, SCRIPT_CALL_MS } from "../bounded";
import type { Context } from "../context";
import { Failure } from "../native/failure";
import { errorText } from "../log";
import { isWeb } from "../origins/origins";
import type { OwnedTab } from "../tabs/ownership";
import { staleRef } from "./page-tab";
import type { FrameDoc } from "./refs";
import { refsIn } from "./refs";
import type { Probe } from "./wait-seen";
import { refSeen, textSeen } from "./wait-seen";

/** The frame id scripting-route refs are recorded under: the top document only. */
const TOP = "scripting:top";

/** chrome.scripting's words when the document it was sent to went away. */
const FRAME_REMOVED = /Frame with ID \d+ was removed|frame was removed|No frame with id/i;

/** The page agent functions that put input into the page: a timeout after them may have dispatched it. */
const INPUT = new Set(["domClick", "domSetValue", "select", "focus", "scrollBy"]);

export function scriptingGranted(ctx: Context): Promise<boolean> {
  return ctx.chrome.permissions.contains("scripting");
}

/** Whether a failure is Chrome refusing the debugger (the scripting route's cue). */
export function debuggerRefused(e: unknown): e is Failure {
  return e instanceof Failure && e.detail.code === CodeDebuggerUnavailable;
}

/** Calls the page agent in the top document, injecting it first when the document has none. */
async function call(ctx: Context, tabId: number, name: string, args: unknown[]): Promise<{ value: unknown; doc: FrameDoc }> {
  const api = ctx.chrome.scripting;
  const r = await bounded(ctx.clock, SCRIPT_CALL_MS, () => pageBusy(`the scripting route's ${name}`, INPUT.has(name) ? OutcomeUnknown : OutcomeNotStarted), async () => {
    const first = await api.callAgent(tabId, name, args);
    if (!first.missing) return first;
    await api.injectFile(tabId, "page-agent.js");
    return api.callAgent(tabId, name, args);
  }).catch((e: unknown) => {
    // Observed in Chromium 156 under load: a call that meets the top
    // document's replacement fails "Frame with ID 0 was removed."
    if (FRAME_REMOVED.test(errorText(e))) throw new FrameGone(errorText(e));
    throw e;
  });
  return { value: r.value, doc: { frameId: TOP, loaderId: r.documentId } };
}

/** A top-frame snapshot through the scripting route (frames are listed, not entered). */
export async function scriptedSnapshot(ctx: Context, p: ExtSnapshotParams, owned: OwnedTab): Promise<ExtSnapshotResult> {
  if (p.screenshot !== "none") throw onlyDebugger("screenshots of a background tab");
  const request: SnapshotRequest = { mode: p.mode, nextId: owned.nextRef, maxChars: Math.max(2_000, p.capture_chars), indent: "" };
  const { value, doc } = await call(ctx, p.tab_id, "snapshot", [request]);
  const snap = frameSnapshot(value);
  owned.nextRef = Math.max(owned.nextRef, snap.nextId);
  ctx.pages.refBook(p.tab_id).record(doc, refsIn(snap.text));
  await ctx.ownership.persist();
  const text = snap.text.length > p.capture_chars ? snap.text.slice(0, p.capture_chars) : snap.text;
  return {
    url: snap.url,
    title: snap.title,
    revision: owned.revision,
    ref_epoch: owned.refEpoch,
    text,
    truncated: snap.truncated || text.length < snap.text.length,
    total: Math.max(text.length, snap.totalChars ?? snap.text.length),
    served_by: RouteScripting,
    lacks_user_activation: true,
  };
}

/** The steps the scripting route can take; every other kind needs the debugger. */
export async function scriptedStep(ctx: Context, tabId: number, step: Step, progress: Progress): Promise<Done> {
  const ref = step.ref ?? "";
  const agent = async (name: string, args: unknown[]) => (await call(ctx, tabId, name, args)).value;
  const done = (d: Done, input: boolean): Done => ({ ...d, servedBy: RouteScripting, ...(input ? { lacksUserActivation: true } : {}) });
  // What this route serves is protocol.StepRules' to say; the switch below must then have its case.
  if (!scriptingServes(step.kind)) throw onlyDebugger(`a ${step.kind} step`);
  switch (step.kind) {
    case "click": {
      await locate(ctx, tabId, ref);
      const to = await clickable(ctx, agent, ref);
      const info = await gesture(ctx, tabId, progress, ref, () => agent("domClick", [ref, to]));
      return done({ outcome: OutcomeDispatched, note: `clicked ${info.description || ref}` }, true);
    }
    case "fill":
    case "type":
    case "clear": {
      await locate(ctx, tabId, ref);
      const text = step.kind === "clear" ? "" : (step.text ?? "");
      const info = targetInfo(await agent("domSetValue", [ref, text, step.kind === "type"]));
      // The page agent refused it in the same call that would set it (page/dom-input.ts): nothing was written.
      if (info.sensitive) throw sensitiveField(info.description || ref);
      if (!info.ok) throw notActionable(ref, info, info.reason ?? "not_editable");
      progress.dispatched = true;
      return done({ outcome: OutcomeConfirmed, note: `${step.kind === "type" ? "typed into" : "set"} ${info.description || ref}` }, true);
    }
    case "focus": {
      await locate(ctx, tabId, ref);
      progress.dispatched = true;
      const focused = (await agent("focus", [ref])) === true;
      return done({ outcome: focused ? OutcomeConfirmed : OutcomeDispatched, note: `${focused ? "focused" : "could not focus"} ${ref}` }, false);
    }
    case "select": {
      await locate(ctx, tabId, ref);
      return done(await selectOptions(agent, progress, ref, step.values ?? []), true);
    }
    case "check":
    case "uncheck": {
      await locate(ctx, tabId, ref);
      const want = step.kind === "check";
      const now = optBool(await agent("checked", [ref]));
      if (now === undefined) throw new Failure(CodeTargetNotActionable, OutcomeNotStarted, `${ref} is not a checkbox, radio button or switch`, "Use click for other elements.");
      if (now === want) return done({ outcome: OutcomeConfirmed, note: `already ${step.kind}ed` }, false);
      const to = await clickable(ctx, agent, ref);
      await gesture(ctx, tabId, progress, ref, () => agent("domClick", [ref, to]));
      const after = optBool(await agent("checked", [ref]));
      return done({ outcome: after === want ? OutcomeConfirmed : OutcomeDispatched, note: `${after === want ? step.kind + "ed" : "still not " + step.kind + "ed"} ${ref}` }, true);
    }
    case "scroll":
      if (step.ref !== undefined) await locate(ctx, tabId, step.ref);
      return done(await scrollWith(agent, progress, step), false);
    default:
      throw new Error(`protocol.StepRules has the scripting route serve ${step.kind} steps, which scriptedStep does not take`);
  }
}

function scriptingServes(kind: StepKind): boolean {
  return (StepRules[kind].routes ?? []).includes(RouteScripting);
}

/** The step kinds the scripting route serves, for messages. */
function scriptedKinds(): string {
  return STEP_KINDS.filter(scriptingServes).join(", ");
}

/**
 * A scripted click with the window.open trap around it, installed in the
 * page's main world for this gesture only (spec 000): without it a
 * target=_blank link opens an active tab (observed in Chromium 156, even
 * without user activation), and window.open is blocked for want of it.
 */
async function gesture(ctx: Context, tabId: number, progress: Progress, ref: string, click: () => Promise<unknown>): Promise<TargetInfo> {
  return trapped(
    ctx,
    tabId,
    () => installScriptedTrap(ctx.chrome, ctx.clock, tabId),
    async () => {
      // The page agent checks the target again and clicks in one call: refused means nothing was clicked.
      const info = targetInfo(await click());
      if (!info.ok) throw notActionable(ref, info);
      progress.dispatched = true;
      return info;
    },
    true,
  );
}

/**
 * The debugger route's checks before pointer input that the scripting
 * route can make (shown, enabled, not covered), and the origin policy on
 * the link or form the click would follow: without the debugger nothing
 * can hold that request once it is sent (origin-guard.ts). Answers where
 * the click would go, which the click checks again in the page.
 */
async function clickable(ctx: Context, agent: (name: string, args: unknown[]) => Promise<unknown>, ref: string): Promise<string | null> {
  const info = targetInfo(await agent("target", [ref]));
  if (!info.ok) throw notActionable(ref, info);
  const hit = hitTest(await agent("hitTest", [ref, info.x, info.y]));
  if (!hit.ok) throw covered(ref, info, hit);
  const raw = await agent("navigationTarget", [ref]);
  const to = typeof raw === "string" ? raw : null;
  // javascript:, mailto: and the like navigate nowhere an origin names.
  if (to !== null && isWeb(to)) ctx.origins.check(to);
  return to;
}

/** A text wait on the top document; a document being replaced shows nothing this round. */
export function scriptedTextProbe(ctx: Context, tabId: number, text: string, gone: boolean): Probe {
  return async () => textSeen((await whileThere(call(ctx, tabId, "hasText", [text])))?.value === true, gone);
}

/** A ref wait on the top document; the ref's document gone counts as the element gone. */
export async function scriptedRefProbe(ctx: Context, tabId: number, ref: string, want: WaitState): Promise<Probe> {
  const bound = await locate(ctx, tabId, ref);
  return async () => {
    const r = await whileThere(call(ctx, tabId, "state", [ref]));
    return refSeen(ref, r !== undefined && r.doc.loaderId === bound.loaderId ? elementState(r.value) : "gone", want);
  };
}

/** The call's answer, or undefined when its document went away meanwhile (FrameGone). */
async function whileThere<T>(p: Promise<T>): Promise<T | undefined> {
  try {
    return await p;
  } catch (e) {
    if (e instanceof FrameGone) return undefined;
    throw e;
  }
}

/** The ref must come from a scripting-route snapshot of the current top document. */
async function locate(ctx: Context, tabId: number, ref: string): Promise<FrameDoc> {
  const doc = ctx.pages.refBook(tabId).locate(ref);
  if (doc === undefined || doc.frameId !== TOP) throw staleRef(ref, "no scripting-route snapshot of the current page showed it");
  const { value, doc: now } = await call(ctx, tabId, "knows", [ref]);
  if (now.loaderId !== doc.loaderId || value !== true) throw staleRef(ref, "the document it belonged to is gone");
  return doc;
}

function onlyDebugger(what: string): Failure {
  return new Failure(
    CodeDebuggerUnavailable,
    OutcomeNotStarted,
    `Chrome refuses the debugger on this tab, and ${what} needs it (the scripting route serves top-frame snapshots, text or ref waits and the steps ${scriptedKinds()} only)`,
    "Open the page in a new task tab, or ask the user to close what holds the tab (DevTools, another extension's frame).",
  );
}
