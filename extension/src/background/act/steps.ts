// One browser_act step: the checks every step makes, what each kind does,
// and the navigation it causes. Source of truth: issue 3 (step kinds,
// outcomes, navigation followed inside a step) and spec 000 (tab_only
// pages admit only tab-lifecycle steps; no step activates or focuses the
// tab: navigation goes through chrome.tabs, input through the debugger;
// the managed origin policy checks every navigation target, and a
// navigation the page starts toward a refused origin is stopped and
// reported: origin-guard.ts).
import {
  CodeInvalidParams,
  CodeNavigationFailed,
  CodeTargetNotActionable,
  CodeWaitTimeout,
  NavigationAbandoned,
  NavigationCommitted,
  NavigationRefused,
  NavigationSameDocument,
  NavigationUnknown,
  NavigatesExpected,
  NavigatesNever,
  NavigatesPossible,
  OutcomeConfirmed,
  OutcomeDispatched,
  OutcomeNotStarted,
  OutcomeStaged,
  StepRules,
} from "../../protocol/generated";
import type { ExtPopup, ExtStage, Step, StepNavigates, StepReceipt } from "../../protocol/generated";
import { DialogOpened } from "../cdp/session";
import { Failure, failure } from "../native/failure";
import { errorText } from "../log";
import { stopFailure } from "../origins/origin-guard";
import type { OriginStop } from "../origins/origin-guard";
import { isWeb } from "../origins/origins";
import { onRoute } from "../pagework/choose-route";
import type { Page } from "../pagework/page-tab";
import type { PageRoute } from "../pagework/page-route";
import { routed } from "../pagework/page-route";
import { admitPageWork, dialogFailure, ownedPage } from "../pagework/page-work";
import { waitFor } from "../pagework/wait";
import type { ScanEnv } from "../challenges/scan";
import type { HasReviews } from "../review/reviews";
import { drag } from "./drag";
import { moveInHistory } from "./history";
import { GRACE_MS, NavigationWatch } from "./navigation";
import { aim, mouse, notActionable, pumpFrames } from "./pointer";
import { trapped } from "./child-gesture";
import { prepare } from "./prepare";
import type { Staged } from "../review/stage";
import { installTrap } from "./open-trap";
import { scrollWith } from "./scroll";
import { selectOptions } from "./select";
import { Progress, stepFailure, withWait } from "./receipts";
import type { Done } from "./typing";
import { uploadFile } from "./upload";
import { press } from "./typing";
import { unknownKind } from "./validate";

export interface StepEnv {
  /** What a step uses of the worker's Context: a page route's (choose-route.ts), which covers its checks, navigation watch and wait (wait.ts) too, and Commit review's. */
  ctx: ScanEnv & HasReviews;
  taskId: string;
  tabId: number;
  /** The popups the batch's steps caused, in order. */
  popups: ExtPopup[];
  /** How long each step may wait for its target to become actionable (ExtActParams.actionable_timeout_ms). */
  actionableMs: number;
  /** The step the batch stopped at for review (act/prepare.ts), once one did. */
  staged?: ExtStage;
  /** browser_commit's stage: its step is rechecked against it, not classified (review/commit.ts). */
  commit?: Staged;
}

/** Whether the step navigates by itself, may start a navigation, or never does (protocol.StepRules). */
function navigationOf(step: Step): StepNavigates {
  return StepRules[step.kind].navigates;
}

export async function runStep(env: StepEnv, step: Step, index: number): Promise<StepReceipt> {
  const { ctx, taskId, tabId } = env;
  const progress = new Progress({ clock: ctx.clock, timeoutMs: env.actionableMs });
  const receipt: StepReceipt = { index, kind: step.kind, outcome: OutcomeNotStarted };
  const follow = navigationOf(step);
  // Listening starts before anything is dispatched, so an early commit is not missed.
  const watch =
    follow === NavigatesNever
      ? undefined
      : new NavigationWatch(
          ctx.chrome,
          ctx.clock,
          tabId,
          (began) => ctx.pages.onNavigationStart(tabId, began),
          (opened) => ctx.pages.onDialog(tabId, opened),
          (stopped) => ctx.origins.onStop(tabId, stopped),
        );
  // A step that may navigate may also open popups (a gesture's window.open, a target=_blank link).
  const popups = follow === NavigatesPossible ? ctx.children.watch(tabId) : undefined;
  try {
    const { url } = await ownedPage(ctx, taskId, tabId);
    const dialog = ctx.pages.session(tabId)?.dialog;
    // A dialog blocks the page; closing the tab still works.
    if (dialog !== undefined && step.kind !== "dialog" && step.kind !== "close") throw dialogFailure(dialog.info);
    // Page steps need page access; the rest use tab-lifecycle APIs (a
    // wait checks its own condition's: wait.ts). An open dialog is
    // answered wherever it is: that is how a held tab gets free.
    if (routed(step.kind) && step.kind !== "dialog") await admitPageWork(ctx, tabId, url);
    const done = await perform(env, step, progress, { index, url });
    receipt.outcome = done.outcome;
    if (done.note !== undefined) receipt.note = done.note;
    if (done.servedBy !== undefined) receipt.served_by = done.servedBy;
    if (done.lacksUserActivation === true) receipt.lacks_user_activation = true;
    // A staged step sent nothing: there is no navigation to wait for.
    if (watch !== undefined && done.outcome !== OutcomeStaged) {
      const navigation = await watch.settle(follow === NavigatesExpected, GRACE_MS, progress.inputEnded);
      if (navigation !== undefined) receipt.navigation = navigation;
      const dialog = ctx.pages.session(tabId)?.dialog;
      if (receipt.navigation === NavigationRefused && watch.refusal !== undefined) {
        stopped(receipt, watch.refusal);
      } else if (dialog !== undefined && receipt.navigation === NavigationUnknown) {
        receipt.note = `the page opened a ${dialog.info.type} dialog; the navigation waits for a dialog step`;
      } else if (follow === NavigatesExpected) {
        settleLifecycle(receipt, step);
      }
    }
    return withWait(receipt, progress);
  } catch (e) {
    if (e instanceof DialogOpened && progress.dispatched) {
      // The input reached the page, which answered with a dialog (the
      // command itself stays pending until the dialog is answered).
      receipt.outcome = OutcomeDispatched;
      receipt.note = `the page opened a ${e.dialog.type} dialog: ${JSON.stringify(e.dialog.message)}`;
      return withWait(receipt, progress);
    }
    const failure = stepFailure(e, progress);
    return withWait({ ...receipt, outcome: failure.detail.outcome, error: failure.detail }, progress);
  } finally {
    watch?.stop();
    for (const p of (await popups?.stop(ctx.clock)) ?? []) env.popups.push({ step: index, ...p });
  }
}

// The origin guard stopped the navigation: the step's input went out (or
// Chrome was asked to navigate), the page stayed where it was.
function stopped(receipt: StepReceipt, stop: OriginStop): void {
  const f = stopFailure(stop, receipt.outcome, `the navigation to ${stop.url} was stopped: ${stop.reason}; the tab stays on its page`);
  receipt.error = f.detail;
  receipt.outcome = f.detail.outcome;
}

// A navigate, reload, back or forward step is confirmed by its commit.
function settleLifecycle(receipt: StepReceipt, step: Step): void {
  switch (receipt.navigation) {
    case NavigationCommitted:
    case NavigationSameDocument:
      receipt.outcome = OutcomeConfirmed;
      return;
    case NavigationRefused: {
      const f = new Failure(CodeNavigationFailed, OutcomeDispatched, `the ${step.kind} did not commit: Chrome reported an error loading the page`, "Check the URL and the network, then retry.");
      receipt.error = f.detail;
      receipt.outcome = f.detail.outcome;
      return;
    }
    case NavigationAbandoned:
      receipt.note = "the navigation was dropped (a download, an empty 204 answer, or another navigation replaced it)";
      return;
    case NavigationUnknown:
    case undefined:
      receipt.note = "no commit within 10 s; the page may still be loading";
      return;
  }
}

/** Where a step is: its index in the batch and the tab's URL when it began. */
interface StepAt {
  index: number;
  url: string;
}

/**
 * Runs a page step on the route that serves the tab (choose-route.ts;
 * the scripting route only while nothing was dispatched). A kind the
 * route does not serve is refused from protocol.StepRules' routes; the
 * receipt says which route served it. Before work gives any input, the
 * challenge guard and Commit review run (prepare.ts), on either route.
 */
function onPage(env: StepEnv, step: Step, progress: Progress, at: StepAt, work: (route: PageRoute) => Promise<Done>): Promise<Done> {
  return onRoute(
    env.ctx,
    env.tabId,
    async (route) => {
      if (!route.serves(step.kind)) throw route.refuse(`a ${step.kind} step`);
      const commit = env.commit === undefined ? {} : { commit: env.commit };
      const held = await prepare(env.ctx, route, step, { taskId: env.taskId, tabId: env.tabId, ...at, ...commit }, progress, (s) => {
        env.staged = s;
      });
      if (held !== undefined) return { ...held, servedBy: route.name };
      return { ...(await work(route)), servedBy: route.name };
    },
    () => !progress.dispatched,
  );
}

/** A step whose input went out: as DOM events without user activation on a route that sends such (receipts say so). */
function input(route: PageRoute, done: Done): Done {
  return route.lacksUserActivation ? { ...done, lacksUserActivation: true } : done;
}

/** The debugger's page, for a step only it serves (the route's table said it does). */
function debuggerPage(route: PageRoute, step: Step): Page {
  return route.debugger(`a ${step.kind} step`);
}

function ref(step: Step): string {
  return step.ref ?? "";
}

/** Does the step; at.url is the tab's page when the step began. */
async function perform(env: StepEnv, step: Step, progress: Progress, at: StepAt): Promise<Done> {
  const { ctx, tabId } = env;
  const url = at.url;
  const clock = ctx.clock;
  switch (step.kind) {
    case "click":
    case "double_click":
      return onPage(env, step, progress, at, async (route) => {
        const info = await (await route.locate(ref(step))).click(step.kind === "click" ? 1 : 2, progress);
        return input(route, { outcome: OutcomeDispatched, note: `${step.kind === "click" ? "clicked" : "double-clicked"} ${info.description || ref(step)}` });
      });
    case "hover":
      return onPage(env, step, progress, at, async (route) => {
        const page = debuggerPage(route, step);
        const at = await aim(page, ref(step), undefined, progress);
        await pumpFrames(page, clock, () => mouse(page, progress, "mouseMoved", at, { button: "none", buttons: 0 }), true);
        return { outcome: OutcomeDispatched, note: `hovering ${at.info.description || ref(step)}` };
      });
    case "focus":
      return onPage(env, step, progress, at, async (route) => {
        const { agent } = await route.locate(ref(step));
        const info = await agent.target(ref(step));
        if (!info.ok) throw notActionable(ref(step), info);
        progress.dispatched = true;
        const focused = await agent.focus(ref(step));
        const what = info.description || ref(step);
        return { outcome: focused ? OutcomeConfirmed : OutcomeDispatched, note: focused ? `focused ${what}` : `${what} did not take focus` };
      });
    case "type":
    case "fill":
    case "clear":
      return onPage(env, step, progress, at, async (route) => {
        const target = await route.locate(ref(step));
        return input(route, await target.setValue(step.kind === "clear" ? "" : (step.text ?? ""), step.kind === "type" ? "type" : "fill", progress));
      });
    case "press":
      return onPage(env, step, progress, at, async (route) => {
        const page = debuggerPage(route, step);
        const frame = step.ref === undefined ? (await page.frames()).top : (await page.locate(step.ref)).frame;
        return trapped(ctx, tabId, () => installTrap(page, frame), async () => undefined, () => press(page, progress, step.keys ?? "", step.ref));
      });
    case "select":
      return onPage(env, step, progress, at, async (route) => {
        const { agent } = await route.locate(ref(step));
        return input(route, await selectOptions(agent, progress, ref(step), step.values ?? []));
      });
    case "check":
    case "uncheck":
      return onPage(env, step, progress, at, (route) => setChecked(route, progress, ref(step), step.kind === "check"));
    case "scroll":
      return onPage(env, step, progress, at, async (route) => {
        const agent = step.ref === undefined ? await route.top() : (await route.locate(step.ref)).agent;
        return scrollWith(agent, progress, step);
      });
    case "drag":
      return onPage(env, step, progress, at, async (route) => ({ outcome: OutcomeDispatched, note: await drag(debuggerPage(route, step), clock, progress, ref(step), step.to_ref ?? "", step.position) }));
    case "navigate":
      // The host checked the target; this checks it as Chrome reads it
      // (a local file: the host again, origin-guard.ts admit).
      await ctx.origins.admit(step.url ?? "");
      return lifecycle(progress, `navigate to ${step.url ?? ""}`, () => ctx.chrome.tabs.navigate(tabId, step.url ?? ""));
    case "reload":
      // A web page is asked for again; reloading a browser-owned page is
      // a recovery operation and stays admitted (DESIGN.md "Origin policy").
      if (isWeb(url)) ctx.origins.check(url);
      return lifecycle(progress, "reload", () => ctx.chrome.tabs.reload(tabId));
    case "back":
      if (ctx.origins.constrained) return moveInHistory(env, progress, url, "back");
      return lifecycle(progress, "go back", () => ctx.chrome.tabs.goBack(tabId));
    case "forward":
      if (ctx.origins.constrained) return moveInHistory(env, progress, url, "forward");
      return lifecycle(progress, "go forward", () => ctx.chrome.tabs.goForward(tabId));
    case "close": {
      progress.dispatched = true;
      await ctx.pages.release(tabId);
      const closed = await ctx.chrome.tabs.remove(tabId);
      return { outcome: OutcomeConfirmed, note: closed ? "closed the tab" : "the tab was already closed" };
    }
    case "dialog":
      return onPage(env, step, progress, at, (route) => answerDialog(debuggerPage(route, step), progress, step));
    case "upload_file":
      return onPage(env, step, progress, at, (route) => uploadFile(debuggerPage(route, step), progress, step));
    case "wait": {
      const condition = step.wait ?? { until: "load" };
      const r = await waitFor(ctx, env.taskId, tabId, condition, false);
      const route = r.served_by === undefined ? {} : { servedBy: r.served_by };
      if (r.satisfied) return { outcome: OutcomeConfirmed, note: `${condition.until} after ${r.elapsed_ms} ms${r.last_seen ? `: ${r.last_seen}` : ""}`, ...route };
      throw failure(CodeWaitTimeout, `until ${condition.until} did not hold within ${r.elapsed_ms} ms; last seen: ${r.last_seen ?? "nothing"}`);
    }
    default:
      return unknownKind(step.kind);
  }
}

async function lifecycle(progress: Progress, what: string, f: () => Promise<void>): Promise<Done> {
  try {
    await f();
  } catch (e) {
    throw new Failure(CodeNavigationFailed, OutcomeNotStarted, `Chrome refused to ${what}: ${errorText(e)}`, "Check the tab's history or the URL, then retry.");
  }
  progress.dispatched = true;
  return { outcome: OutcomeDispatched };
}

async function setChecked(route: PageRoute, progress: Progress, r: string, want: boolean): Promise<Done> {
  const target = await route.locate(r);
  const now = await target.agent.checked(r);
  const word = want ? "checked" : "unchecked";
  if (now === undefined) {
    throw new Failure(CodeTargetNotActionable, OutcomeNotStarted, `${r} is not a checkbox, radio button or switch`, "Use click for other elements.");
  }
  if (now === want) return { outcome: OutcomeConfirmed, note: `already ${word}` };
  const info = await target.click(1, progress);
  const after = await target.agent.checked(r);
  const what = info.description || r;
  return input(
    route,
    after === want ? { outcome: OutcomeConfirmed, note: `${word} ${what}` } : { outcome: OutcomeDispatched, note: `clicked ${what}, but it is still ${want ? "unchecked" : "checked"}` },
  );
}

/**
 * Answers the open dialog through the tab's session (attached for the
 * step if none was: where Chrome refuses the debugger the route's refusal
 * is debugger_unavailable, as spec 000 has it for dialogs).
 */
async function answerDialog(page: Page, progress: Progress, step: Step): Promise<Done> {
  const session = page.session;
  const dialog = session.dialog;
  if (dialog === undefined) {
    throw new Failure(CodeInvalidParams, OutcomeNotStarted, "no JavaScript dialog is open on the tab", "Remove the dialog step; dialogs are reported in act results and in dialog_open errors.");
  }
  const accept = step.accept === true;
  const params: { accept: boolean; promptText?: string } = { accept };
  if (step.prompt_text !== undefined) params.promptText = step.prompt_text;
  progress.dispatched = true;
  await session.send("Page.handleJavaScriptDialog", params, { sessionId: dialog.sessionId, duringDialog: true });
  // The closing event may come after the answer; the dialog is answered either way.
  session.dialog = undefined;
  return { outcome: OutcomeConfirmed, note: `${accept ? "accepted" : "dismissed"} the ${dialog.info.type} dialog` };
}
