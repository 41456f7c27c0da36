// The scripting route. Source of truth: spec 000 ("Chrome can refuse
// chrome.debugger on an ordinary page ... AgentTab then serves top-frame
// page work through its scripting route: a page agent injected into the
// extension's isolated world of the tab's top document ... Scripted
// actions dispatch DOM events without Chrome user activation ... Work that
// only the debugger can do ... fails with debugger_unavailable and
// outcome: not_started"). Ownership, the route, expected revisions and
// sensitive fields are checked by the callers exactly as on the debugger
// route; refs are bound to Chrome's document id, which every call reports.
import { CodeDebuggerUnavailable, CodeSensitiveField, CodeTargetNotActionable, OutcomeConfirmed, OutcomeDispatched, OutcomeNotStarted, RouteScripting } from "../protocol/generated";
import type { ExtSnapshotParams, ExtSnapshotResult, Step } from "../protocol/generated";
import type { SnapshotRequest } from "../shared/page-agent";
import { notActionable } from "./act/pointer";
import { frameSnapshot, optBool, selection, targetInfo } from "./cdp/agent";
import type { Context } from "./context";
import { Failure } from "./failure";
import type { OwnedTab } from "./ownership";
import { staleRef } from "./page-tab";
import type { FrameDoc } from "./refs";
import { refsIn } from "./refs";

/** The frame id scripting-route refs are recorded under: the top document only. */
const TOP = "scripting:top";

export function scriptingGranted(ctx: Context): Promise<boolean> {
  return ctx.chrome.permissions.contains("scripting");
}

/** Whether a failure is Chrome refusing the debugger (the scripting route's cue). */
export function debuggerRefused(e: unknown): e is Failure {
  return e instanceof Failure && e.detail.code === CodeDebuggerUnavailable;
}

/** Calls the page agent in the top document, injecting it first when the document has none. */
async function call(ctx: Context, tabId: number, name: string, args: unknown[]): Promise<{ value: unknown; doc: FrameDoc }> {
  let r = await ctx.chrome.scripting.callAgent(tabId, name, args);
  if (r.missing) {
    await ctx.chrome.scripting.injectFile(tabId, "page-agent.js");
    r = await ctx.chrome.scripting.callAgent(tabId, name, args);
  }
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
  };
}

/** The steps the scripting route can take; every other kind needs the debugger. */
export async function scriptedStep(ctx: Context, tabId: number, step: Step): Promise<{ outcome: typeof OutcomeConfirmed | typeof OutcomeDispatched; note: string }> {
  const ref = step.ref ?? "";
  switch (step.kind) {
    case "click": {
      await locate(ctx, tabId, ref);
      const info = targetInfo((await call(ctx, tabId, "domClick", [ref])).value);
      if (!info.ok) throw notActionable(ref, info);
      return { outcome: OutcomeDispatched, note: `clicked ${info.description || ref} through the scripting route (DOM events, no user activation)` };
    }
    case "fill":
    case "type":
    case "clear": {
      await locate(ctx, tabId, ref);
      const text = step.kind === "clear" ? "" : (step.text ?? "");
      const info = targetInfo((await call(ctx, tabId, "domSetValue", [ref, text, step.kind === "type"])).value);
      if (info.sensitive) throw new Failure(CodeSensitiveField, OutcomeNotStarted, `${info.description || ref} is a password, one-time-code or payment-card field`, "Use browser_credentials or browser_handoff.");
      if (!info.ok) throw notActionable(ref, info, info.reason ?? "not_editable");
      return { outcome: OutcomeConfirmed, note: `${step.kind === "type" ? "typed into" : "set"} ${info.description || ref} through the scripting route (DOM events, no user activation)` };
    }
    case "focus": {
      await locate(ctx, tabId, ref);
      const focused = (await call(ctx, tabId, "focus", [ref])).value === true;
      return { outcome: focused ? OutcomeConfirmed : OutcomeDispatched, note: `${focused ? "focused" : "could not focus"} ${ref} through the scripting route` };
    }
    case "select": {
      await locate(ctx, tabId, ref);
      const r = selection((await call(ctx, tabId, "select", [ref, step.values ?? []])).value);
      if (!r.ok) throw new Failure(CodeTargetNotActionable, OutcomeNotStarted, `cannot select in ${ref}: ${r.error ?? "refused"}`, "Check the options in a new browser_snapshot, then retry.");
      return { outcome: OutcomeConfirmed, note: `selected ${r.selected.map((x) => JSON.stringify(x)).join(", ")} through the scripting route` };
    }
    case "check":
    case "uncheck": {
      await locate(ctx, tabId, ref);
      const want = step.kind === "check";
      const now = optBool((await call(ctx, tabId, "checked", [ref])).value);
      if (now === undefined) throw new Failure(CodeTargetNotActionable, OutcomeNotStarted, `${ref} is not a checkbox, radio button or switch`, "Use click for other elements.");
      if (now !== want) {
        const info = targetInfo((await call(ctx, tabId, "domClick", [ref])).value);
        if (!info.ok) throw notActionable(ref, info);
      }
      const after = optBool((await call(ctx, tabId, "checked", [ref])).value);
      return { outcome: after === want ? OutcomeConfirmed : OutcomeDispatched, note: `${after === want ? step.kind + "ed" : "still not " + step.kind + "ed"} ${ref} through the scripting route` };
    }
    default:
      throw onlyDebugger(`a ${step.kind} step`);
  }
}

/** The ref must come from a scripting-route snapshot of the current top document. */
async function locate(ctx: Context, tabId: number, ref: string): Promise<void> {
  const doc = ctx.pages.refBook(tabId).locate(ref);
  if (doc === undefined || doc.frameId !== TOP) throw staleRef(ref, "no scripting-route snapshot of the current page showed it");
  const { value, doc: now } = await call(ctx, tabId, "knows", [ref]);
  if (now.loaderId !== doc.loaderId || value !== true) throw staleRef(ref, "the document it belonged to is gone");
}

function onlyDebugger(what: string): Failure {
  return new Failure(
    CodeDebuggerUnavailable,
    OutcomeNotStarted,
    `Chrome refuses the debugger on this tab, and ${what} needs it (the scripting route serves snapshots, clicks, text fields, select, check and focus only)`,
    "Open the page in a new task tab, or ask the user to close what holds the tab (DevTools, another extension's frame).",
  );
}
