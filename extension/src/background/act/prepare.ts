// What a step does between locating its target and giving it input (spec
// 000: "prepare, classify, revalidate, execute"), on either route: the
// challenge guard, then Commit review (review/stage.ts). Source of truth:
// issue 12: input to a recognised bot challenge is refused
// challenge_present, not_started; with YOLO mode off a recognised effect
// stops the batch as a stage; a commit's step is rechecked against its
// stage (target and preview) instead of classified again.
import { CodeChallengePresent, CodeStageTargetChanged, OutcomeStaged, RouteDebugger } from "../../protocol/generated";
import type { ExtStage, Step, StepKind } from "../../protocol/generated";
import type { TargetInfo } from "../../shared/page-agent";
import type { AgentClient } from "../agent-client/client";
import { Failure, failure } from "../native/failure";
import type { PageRoute } from "../pagework/page-route";
import type { HasReviews } from "../review/reviews";
import { classifiedAs, sameTarget, stageStep } from "../review/stage";
import type { Classified, Staged } from "../review/stage";
import { notActionable, sleep, WAIT_PAUSE_MS, WAIT_PAUSES_MS } from "./pointer";
import type { Progress } from "./receipts";
import type { Done } from "./typing";

/** The steps that give an element input (pointer, keys, values): the challenge guard's. Scroll only moves it into view. */
const INPUT: ReadonlySet<StepKind> = new Set<StepKind>(["click", "double_click", "hover", "focus", "type", "fill", "clear", "press", "select", "check", "uncheck", "drag"]);

/** What prepare knows of the step beyond the step itself. */
export interface PrepareAt {
  taskId: string;
  tabId: number;
  index: number;
  /** The tab's URL as Chrome reported it when the step began. */
  url: string;
  /** Set for browser_commit's step: revalidated, never classified again. */
  commit?: Staged;
}

/**
 * Runs the checks before input. Answers the staged step's Done (and puts
 * its ExtStage in stage) when the step stops for review; undefined when it
 * goes on. Throws the refusals, all not_started.
 */
export async function prepare(ctx: HasReviews, route: PageRoute, step: Step, at: PrepareAt, progress: Progress, stage: (s: ExtStage) => void): Promise<Done | undefined> {
  if (INPUT.has(step.kind)) {
    for (const ref of [step.ref, step.to_ref]) {
      if (ref === undefined) continue;
      const { agent } = await route.locate(ref);
      if (await agent.inChallenge(ref)) {
        throw failure(CodeChallengePresent, `${ref} is part of a recognised bot challenge (or the page is one); AgentTab gives it no input`);
      }
    }
  }
  const classified = classifiedAs(step);
  // With YOLO mode on nothing is located or asked for review (a commit is rechecked whatever the mode).
  if (classified === undefined || (at.commit === undefined && ctx.reviews.yolo)) return undefined;
  // A typed line break is an Enter only as a key event (the debugger's); the scripting route sets the value.
  if (classified.lineBreak && route.name !== RouteDebugger) return undefined;
  const agents = await classifiers(route, step, classified);
  const where = { step, classified, url: at.url, agents };
  if (at.commit !== undefined) {
    if (!(await sameTarget(where, at.commit))) {
      const what = classified.ref ?? "the focused element";
      throw failure(CodeStageTargetChanged, `${what} is no longer the control that was staged, or what it would send changed (its effect, description or form's values)`);
    }
    return undefined;
  }
  // A stage is made only of a control that could take the pointer: one
  // the human approves must be one the commit can click. (A key goes to
  // a field, which may be an editor's unseen one: its step checks it.)
  const [agent] = agents;
  // (A file input is often drawn hidden behind its label: upload.ts does not require it shown.)
  if (classified.press === null && classified.upload === null && classified.ref !== null && agent !== undefined) await actionable(agent, classified.ref, progress);
  const staged = await stageStep(ctx, { ...where, taskId: at.taskId, tabId: at.tabId, index: at.index });
  if (staged === undefined) return undefined;
  stage(staged);
  return { outcome: OutcomeStaged, note: `staged for review: ${staged.effect}; nothing was done` };
}

/**
 * The page agents that answer for the step's target: its ref's
 * document's, or for the focused element (a press without a ref) every
 * frame's, top first, each answering for its own focus as the key guard
 * asks them (key-guard.ts); only the debugger presses keys.
 */
async function classifiers(route: PageRoute, step: Step, classified: Classified): Promise<AgentClient[]> {
  if (classified.ref !== null) return [(await route.locate(classified.ref)).agent];
  const page = route.debugger(`a ${step.kind} step`);
  return [...(await page.frames()).frames.values()].map((frame) => page.agent(frame));
}

/** A refusal that waiting cannot change: the element left the page, or the page re-aimed the ref. */
function lasting(info: TargetInfo): boolean {
  return info.reason === "detached" || info.reason === "re_aimed";
}

/**
 * Looks at a target about to be staged until it could take input (shown,
 * opaque, enabled, in the page), within the step's patience, as the click
 * it stands for would (pointer.ts aim, issue 11: a control still appearing
 * is waited for, not refused at once); refused then, saying how long it
 * waited. Route-agnostic: the looks follow the page's own timers, without
 * the debugger route's frame pumping on a background tab, and covered or
 * moving targets are left to the commit's click, which waits for them.
 */
async function actionable(agent: AgentClient, ref: string, progress: Progress): Promise<void> {
  let info = await agent.target(ref);
  const patience = progress.patience;
  if (info.ok) return;
  if (lasting(info) || patience === undefined || progress.waitedMs >= patience.timeoutMs) throw notActionable(ref, info);
  const { clock } = patience;
  const started = clock.now();
  const until = started + patience.timeoutMs - progress.waitedMs;
  try {
    for (let n = 0; until - clock.now() > 0; n++) {
      await sleep(clock, Math.min(WAIT_PAUSES_MS[n] ?? WAIT_PAUSE_MS, until - clock.now()));
      info = await agent.target(ref);
      if (info.ok) return;
      if (lasting(info)) throw notActionable(ref, info);
    }
  } finally {
    progress.waitedMs += clock.now() - started;
  }
  const d = notActionable(ref, info).detail;
  throw new Failure(d.code, d.outcome, `${d.message} (after waiting ${Math.round(clock.now() - started)} ms)`, d.recovery);
}
