// One page route: what snapshots, waits and steps do in a page, whichever
// way AgentTab reaches it. Source of truth: spec 000 (the debugger serves
// page work; where Chrome refuses it, the scripting route serves top-frame
// work through chrome.scripting; work only the debugger can do fails
// debugger_unavailable, not_started) and protocol.StepRules (which routes
// serve each step kind). The debugger's implementation is
// debugger-route.ts, the scripting route's scripting-route.ts; which one
// serves a call is chosen once, by choose-route.ts.
import { StepRules } from "../../protocol/generated";
import type { ExtSnapshotParams, ExtSnapshotResult, RouteDebugger, RouteScripting, StepKind } from "../../protocol/generated";
import type { TargetInfo } from "../../shared/page-agent";
import type { WaitState } from "../act/validate";
import type { Progress } from "../act/receipts";
import type { Done } from "../act/typing";
import type { AgentClient } from "../agent-client/client";
import type { Failure } from "../native/failure";
import type { Page } from "./page-tab";
import type { Probe } from "./wait-seen";

/** A route's name, as receipts, waits and snapshots report it (served_by). */
export type RouteName = typeof RouteDebugger | typeof RouteScripting;

export interface PageRoute {
  readonly name: RouteName;
  /** Its input goes out as DOM events, without Chrome's user activation (receipts say lacks_user_activation). */
  readonly lacksUserActivation: boolean;
  /** Whether it serves a step kind: protocol.StepRules' routes. */
  serves(kind: StepKind): boolean;
  /** The refusal of work it cannot do; what names the work ("a hover step"). */
  refuse(what: string): Failure;
  /** browser_snapshot. The caller checked ownership and page access. */
  snapshot(p: ExtSnapshotParams): Promise<ExtSnapshotResult>;
  /** The element of a ref in the document whose snapshot on this route showed it; stale_ref when that document is gone or no longer knows it. */
  locate(ref: string): Promise<Target>;
  /** The page agent of the top document (a scroll without a ref). */
  top(): Promise<AgentClient>;
  /** A text wait's probe: text in the visible text (gone: in none). */
  textProbe(text: string, gone: boolean): Probe;
  /** A ref wait's probe (located now); the ref's document gone counts as the element gone. */
  refProbe(ref: string, want: WaitState): Promise<Probe>;
  /** The debugger's view of the page, for work only it can do (what names it); the route's refusal on any other route. */
  debugger(what: string): Page;
}

/** A located ref: its document's page agent, and the input the route puts into the element. */
export interface Target {
  readonly ref: string;
  /** The page agent of the ref's document. */
  readonly agent: AgentClient;
  /**
   * Clicks count times after the checks before pointer input (shown,
   * enabled, not covered, not moving; on the scripting route the origin
   * policy on the link or form it follows), inside the window.open trap.
   * Answers the target as the checks saw it. A refusal dispatched nothing.
   */
  click(count: 1 | 2, progress: Progress): Promise<TargetInfo>;
  /** type (mode "type": appended), fill and clear ("fill" with ""), after the route's checks (sensitive, editable). */
  setValue(text: string, mode: "type" | "fill", progress: Progress): Promise<Done>;
}

/** Whether the route named serves a step kind (protocol.StepRules' routes column). */
export function routeServes(name: RouteName, kind: StepKind): boolean {
  return (StepRules[kind].routes ?? []).includes(name);
}

/** Whether any route serves the kind: a page step, not a tab-lifecycle one (or a wait, whose route follows its condition). */
export function routed(kind: StepKind): boolean {
  return (StepRules[kind].routes ?? []).length > 0;
}
