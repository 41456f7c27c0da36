// The Commit decision for one step: does it run now, or stop as a stage for
// the human's review? Source of truth: spec 000 (Commit: "prepare,
// classify, revalidate, execute"; YOLO mode bypasses only Commit review)
// and protocol/commit.go (ExtStage). The classifier is the page agent's
// effect() (shared/effects.ts's rules), asked about the step's located
// target before any input; with YOLO mode off a recognised effect stages.
import { EffectValues } from "../../protocol/generated";
import type { Effect, ExtStage, Step, StepKind } from "../../protocol/generated";
import type { EffectReport } from "../../shared/page-agent";
import type { AgentClient } from "../agent-client/client";
import { parseChord } from "../act/keys";
import { randomHex, sha256Hex } from "../random";
import { shownOrigin } from "../tabs/shown-origin";
import type { HasReviews } from "./reviews";

/** The pointer and form steps that can trigger a control (a press only with the keys that do: pressKeys). */
const CLASSIFIED: ReadonlySet<StepKind> = new Set<StepKind>(["click", "double_click", "press", "check", "uncheck", "select"]);

/** A review handle's random bytes (protocol ExtStage.ReviewHandle). */
const HANDLE_BYTES = 32;

/**
 * The keys of a press step the classifier is told about: Enter and Space,
 * with or without modifiers (Control+Enter sends in many editors), which
 * activate a focused button or link or submit a form from a field; null
 * for any other key, which is not classified.
 */
export function pressKeys(step: Step): string | null {
  const chord = parseChord(step.keys ?? "");
  if (typeof chord === "string") return null;
  return chord.key.code === "Enter" || chord.key.code === "Space" ? (step.keys ?? null) : null;
}

/** Whether the step's target is classified before input: a classified kind with a ref (a press only with Enter or Space). */
export function classified(step: Step): step is Step & { ref: string } {
  if (step.ref === undefined || !CLASSIFIED.has(step.kind)) return false;
  return step.kind !== "press" || pressKeys(step) !== null;
}

/** The protocol Effect the agent reported, or null (an unknown name is none: the catalog and the protocol are checked together in tests). */
export function effectOf(report: EffectReport): Effect | null {
  return EffectValues.find((e) => e === report.effect) ?? null;
}

/** The stage's target fingerprint: the descriptor hashed, never sent as text (it may hold page text). */
export function fingerprint(report: EffectReport): Promise<string> {
  return sha256Hex(report.descriptor);
}

export function classify(agent: AgentClient, step: Step & { ref: string }): Promise<EffectReport> {
  return agent.effect(step.ref, step.kind === "press" ? pressKeys(step) : null);
}

/** Where the step is and what it acts on. */
export interface StageAsk {
  taskId: string;
  tabId: number;
  /** The step's index in its batch. */
  index: number;
  step: Step & { ref: string };
  /** The tab's URL as Chrome reported it when the step began: the preview's origin comes from here, never from the page. */
  url: string;
  /** The page agent of the ref's document. */
  agent: AgentClient;
}

/**
 * The stage the step stops at, or undefined when it runs now: YOLO mode is
 * on (bookmark removal, which never comes from a page, would stage
 * anyway: protocol.AlwaysStaged), or no effect is recognised. A stage's
 * preview is stored for the popup under a new review handle before the
 * answer goes to the host.
 */
export async function stageStep(ctx: HasReviews, ask: StageAsk): Promise<ExtStage | undefined> {
  // With YOLO mode on nothing a page shows stages: the classifier is not asked (one call fewer per click).
  if (ctx.reviews.yolo) return undefined;
  const report = await classify(ask.agent, ask.step);
  const effect = effectOf(report);
  if (effect === null) return undefined;
  const handle = randomHex(HANDLE_BYTES);
  // What the human sees; a sensitive field's value is never kept, whatever the page agent sent.
  const fields = report.preview.fields.map((f) => ({ label: f.label, value: f.sensitive ? "" : f.value, sensitive: f.sensitive }));
  const preview = { effect, control: report.preview.control, origin: shownOrigin({ url: ask.url }), fields };
  const [print, digest] = await Promise.all([fingerprint(report), sha256Hex(JSON.stringify(preview))]);
  await ctx.reviews.add({ handle, taskId: ask.taskId, tabId: ask.tabId, ...preview, ...ctx.reviews.times(), state: "pending" });
  return { step: ask.index, review_handle: handle, effect, fingerprint: print, preview_digest: digest };
}

/**
 * Whether the target still is the one staged: the same element, with the
 * same effect and a descriptor of the same fingerprint (commit's recheck).
 * An element the page removed or replaced, even by an identical copy, is
 * not the control the user approved (effect() throws for it).
 */
export async function sameTarget(agent: AgentClient, step: Step & { ref: string }, effect: Effect, print: string): Promise<boolean> {
  if ((await agent.target(step.ref)).reason === "detached") return false;
  const report = await classify(agent, step);
  return effectOf(report) === effect && (await fingerprint(report)) === print;
}
