// The scripting route (page-route.ts). Source of truth: spec 000 ("Chrome
// can refuse chrome.debugger on an ordinary page ... AgentTab then serves
// top-frame page work through its scripting route: a page agent injected
// into the extension's isolated world of the tab's top document ...
// Scripted actions dispatch DOM events without Chrome user activation ...
// Work that only the debugger can do ... fails with debugger_unavailable
// and outcome: not_started"). Ownership, the route and expected revisions
// are checked by the callers exactly as on the debugger route; this file
// makes the page-side checks the debugger route makes (hidden, covered,
// sensitive fields) and the origin check of a click's link or form. Refs
// are bound to Chrome's document id, which every call reports
// (scripting-agent.ts).
import { CodeDebuggerUnavailable, OutcomeConfirmed, OutcomeNotStarted, RouteScripting } from "../../protocol/generated";
import type { ExtSnapshotParams, ExtSnapshotResult, StepKind } from "../../protocol/generated";
import type { SnapshotRequest, TargetInfo } from "../../shared/page-agent";
import { trapped } from "../act/child-gesture";
import type { GestureEnv } from "../act/child-gesture";
import { STEP_KINDS } from "../act/kinds";
import { sensitiveField } from "../act/key-guard";
import { installScriptedTrap } from "../act/open-trap";
import { covered, notActionable } from "../act/pointer";
import type { Progress } from "../act/receipts";
import type { Done } from "../act/typing";
import type { WaitState } from "../act/validate";
import type { AgentClient } from "../agent-client/client";
import { FrameGone } from "../agent-client/errors";
import type { HasClock } from "../capabilities";
import type { HasPages } from "../context";
import { Failure } from "../native/failure";
import { isWeb } from "../origins/origins";
import type { OwnedTab } from "../tabs/ownership";
import type { Page } from "./page-tab";
import { staleRef } from "./page-tab";
import type { PageRoute, Target } from "./page-route";
import { routeServes } from "./page-route";
import { notOwned } from "./page-work";
import type { FrameDoc } from "./refs";
import { refsIn } from "./refs";
import { TOP, TopDocument } from "./scripting-agent";
import type { Probe } from "./wait-seen";
import { refSeen, textSeen } from "./wait-seen";

/** What a scripted target uses of the worker's Context (context.ts): the gesture's trap (act/child-gesture.ts), injected within the clock's bound, and the origin check of a click's link. */
type TargetEnv = GestureEnv & HasClock;

/** What the scripting route uses: its targets', and the refs and records of owned pages. */
type ScriptingEnv = TargetEnv & HasPages;

export class ScriptingRoute implements PageRoute {
  readonly name = RouteScripting;
  readonly lacksUserActivation = true;
  private readonly document: TopDocument;

  constructor(
    private readonly ctx: ScriptingEnv,
    private readonly tabId: number,
  ) {
    this.document = new TopDocument(ctx, tabId);
  }

  serves(kind: StepKind): boolean {
    return routeServes(this.name, kind);
  }

  refuse(what: string): Failure {
    return new Failure(
      CodeDebuggerUnavailable,
      OutcomeNotStarted,
      `Chrome refuses the debugger on this tab, and ${what} needs it (the scripting route serves top-frame snapshots, text or ref waits and the steps ${scriptedKinds()} only)`,
      "Open the page in a new task tab, or ask the user to close what holds the tab (DevTools, another extension's frame).",
    );
  }

  /** A top-frame snapshot (frames are listed, not entered). */
  async snapshot(p: ExtSnapshotParams): Promise<ExtSnapshotResult> {
    if (p.screenshot !== "none") throw this.refuse("screenshots of a background tab");
    const owned = this.owned();
    const request: SnapshotRequest = { mode: p.mode, nextId: owned.nextRef, maxChars: Math.max(2_000, p.capture_chars), indent: "" };
    const snap = await this.document.agent.snapshot(request);
    owned.nextRef = Math.max(owned.nextRef, snap.nextId);
    this.ctx.pages.refBook(this.tabId).record(this.answered(), refsIn(snap.text));
    await this.ctx.ownership.persist();
    const text = snap.text.length > p.capture_chars ? snap.text.slice(0, p.capture_chars) : snap.text;
    return {
      ...(snap.clipped === undefined ? {} : { clipped: snap.clipped }),
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

  async locate(ref: string): Promise<Target> {
    await this.bound(ref);
    return new ScriptingTarget(this.ctx, this.tabId, this.document.agent, ref, (what) => this.refuse(what));
  }

  async top(): Promise<AgentClient> {
    return this.document.agent;
  }

  /** A text wait on the top document; a document being replaced shows nothing this round. */
  textProbe(text: string, gone: boolean): Probe {
    return async () => textSeen((await whileThere(this.document.agent.hasText(text))) === true, gone);
  }

  /** A ref wait on the top document; the ref's document gone counts as the element gone. */
  async refProbe(ref: string, want: WaitState): Promise<Probe> {
    const bound = await this.bound(ref);
    return async () => {
      const state = await whileThere(this.document.agent.state(ref));
      return refSeen(ref, state !== undefined && this.document.doc?.loaderId === bound.loaderId ? state : "gone", want);
    };
  }

  debugger(what: string): Page {
    throw this.refuse(what);
  }

  private owned(): OwnedTab {
    const owner = this.ctx.ownership.owner(this.tabId);
    if (owner === undefined) throw notOwned();
    return owner.tab;
  }

  /** The document of the call just answered. */
  private answered(): FrameDoc {
    const doc = this.document.doc;
    if (doc === undefined) throw new Error("the scripting route read no document");
    return doc;
  }

  /** The ref must come from a scripting-route snapshot of the current top document. */
  private async bound(ref: string): Promise<FrameDoc> {
    const doc = this.ctx.pages.refBook(this.tabId).locate(ref);
    if (doc === undefined || doc.frameId !== TOP) throw staleRef(ref, "no scripting-route snapshot of the current page showed it");
    const known = await this.document.agent.knows(ref);
    if (this.answered().loaderId !== doc.loaderId || !known) throw staleRef(ref, "the document it belonged to is gone");
    return doc;
  }
}

/** A ref of the top document, with DOM input (no user activation). */
class ScriptingTarget implements Target {
  constructor(
    private readonly ctx: TargetEnv,
    private readonly tabId: number,
    readonly agent: AgentClient,
    readonly ref: string,
    private readonly refuse: (what: string) => Failure,
  ) {}

  /**
   * A DOM click with the window.open trap around it, installed in the
   * page's main world for this gesture only (spec 000): without it a
   * target=_blank link opens an active tab (observed in Chromium 156, even
   * without user activation), and window.open is blocked for want of it.
   */
  async click(count: 1 | 2, progress: Progress): Promise<TargetInfo> {
    if (count !== 1) throw this.refuse("a double click");
    const { ctx, tabId, agent, ref } = this;
    const to = await this.clickable();
    return trapped(
      ctx,
      tabId,
      () => installScriptedTrap(ctx.chrome, ctx.clock, tabId),
      async () => undefined,
      async () => {
        // The page agent checks the target again and clicks in one call: refused means nothing was clicked.
        const info = await agent.domClick(ref, to);
        if (!info.ok) throw notActionable(ref, info);
        progress.dispatched = true;
        return info;
      },
      true,
    );
  }

  async setValue(text: string, mode: "type" | "fill", progress: Progress): Promise<Done> {
    const ref = this.ref;
    const info = await this.agent.domSetValue(ref, text, mode === "type");
    // The page agent refused it in the same call that would set it (page/dom-input.ts): nothing was written.
    if (info.sensitive) throw sensitiveField(info.description || ref);
    if (!info.ok) throw notActionable(ref, info, info.reason ?? "not_editable");
    progress.dispatched = true;
    return { outcome: OutcomeConfirmed, note: `${mode === "type" ? "typed into" : "set"} ${info.description || ref}` };
  }

  /**
   * The debugger route's checks before pointer input that the scripting
   * route can make (shown, enabled, not covered), and the origin policy on
   * the link or form the click would follow: without the debugger nothing
   * can hold that request once it is sent (origin-guard.ts). Answers where
   * the click would go, which the click checks again in the page.
   */
  private async clickable(): Promise<string | null> {
    const { agent, ref } = this;
    const info = await agent.target(ref);
    if (!info.ok) throw notActionable(ref, info);
    const hit = await agent.hitTest(ref, info.x, info.y);
    if (!hit.ok) throw covered(ref, info, hit);
    const to = await agent.navigationTarget(ref);
    // javascript:, mailto: and the like navigate nowhere an origin names.
    if (to !== null && isWeb(to)) this.ctx.origins.check(to);
    return to;
  }
}

/** The step kinds the scripting route serves, for messages. */
function scriptedKinds(): string {
  return STEP_KINDS.filter((kind) => routeServes(RouteScripting, kind)).join(", ");
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
