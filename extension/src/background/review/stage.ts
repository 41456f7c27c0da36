// The Commit decision for one step: does it run now, or stop as a stage for
// the human's review? Source of truth: spec 000 (Commit: "prepare,
// classify, revalidate, execute"; YOLO mode bypasses only Commit review)
// and protocol/commit.go (ExtStage). The classifier is the page agent's
// effect() (shared/effects.ts's rules), asked about the step's located
// target before any input; with YOLO mode off a recognised effect stages.
// The stage binds what the human approves: its fingerprint (the target's
// descriptor) and preview digest (what the popup shows) are HMACs keyed by
// the review handle, which only the extension holds (state.db keeps them
// and the handle's hash, from which neither a descriptor nor a form value
// can be guess-checked), and the commit recomputes both (sameTarget).
import { EffectUpload, EffectValues } from "../../protocol/generated";
import type { Effect, ExtStage, Step, StepKind } from "../../protocol/generated";
import { NO_EFFECT, type EffectReport } from "../../shared/page-agent";
import type { PreviewField } from "../../shared/status";
import type { AgentClient } from "../agent-client/client";
import { parseChord } from "../act/keys";
import { fileName } from "../act/upload";
import { hmacHex } from "../random";
import { shownOrigin } from "../tabs/shown-origin";
import type { HasReviews } from "./reviews";
import { newReviewHandle } from "./reviews";

/**
 * The steps that can trigger a control by pointer, with a ref: a click, or
 * a check (a checkbox may submit on change). A select's target is a
 * combobox or listbox, never a command role the rules recognise
 * (shared/effects.ts), so it is not asked about.
 */
const POINTER: ReadonlySet<StepKind> = new Set<StepKind>(["click", "double_click", "check", "uncheck"]);

/** How much of a type step's text a preview shows (as the page agent clips a field's value). */
const TYPED_CHARS = 120;

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

/** What the classifier is asked about a step. */
export interface Classified {
  /** The step's ref; null: the document's focused element (a press without a ref). */
  ref: string | null;
  /** The keys (Enter or Space, with modifiers); null for a pointer step. */
  press: string | null;
  /**
   * A type step's line break, which act/keys.ts types as a real Enter
   * only into a multiline field (a chat composer sends on it); into a
   * one-line field it goes in as text, which the field drops.
   */
  lineBreak: boolean;
  /**
   * An upload_file step's file name (its staged copy keeps the user's):
   * the effect is upload whatever the page says; the page agent is asked
   * only for the input's descriptor and form. Never the path.
   */
  upload: string | null;
}

/** How the step is classified before input, or undefined when it is not. */
export function classifiedAs(step: Step): Classified | undefined {
  if (POINTER.has(step.kind)) return step.ref === undefined ? undefined : { ref: step.ref, press: null, lineBreak: false, upload: null };
  if (step.kind === "upload_file") return step.ref === undefined ? undefined : { ref: step.ref, press: null, lineBreak: false, upload: fileName(step.path ?? "") };
  if (step.kind === "press") {
    const press = pressKeys(step);
    return press === null ? undefined : { ref: step.ref ?? null, press, lineBreak: false, upload: null };
  }
  if (step.kind === "type" && step.ref !== undefined && /[\r\n]/.test(step.text ?? "")) return { ref: step.ref, press: "Enter", lineBreak: true, upload: null };
  return undefined;
}

/** The protocol Effect the agent reported, or null (an unknown name is none: the catalog and the protocol are checked together in tests). */
export function effectOf(report: EffectReport): Effect | null {
  return EffectValues.find((e) => e === report.effect) ?? null;
}

/**
 * What the agents report for the step: the ref's document's agent, or,
 * for the focused element, every frame's (each answers for its own focus,
 * as key-guard.ts asks them), the first recognised effect in the order
 * given (the top document first), else the first report.
 */
export async function classify(agents: readonly AgentClient[], c: Classified): Promise<EffectReport> {
  const reports = await Promise.all(agents.map((agent) => classifyOne(agent, c)));
  return reports.find((r) => effectOf(r) !== null) ?? reports[0] ?? NO_EFFECT;
}

async function classifyOne(agent: AgentClient, c: Classified): Promise<EffectReport> {
  if (c.lineBreak && c.ref !== null && (await agent.keyTarget(c.ref, "press")).multiline !== true) return NO_EFFECT;
  const report = await agent.effect(c.ref, c.press);
  return c.upload === null ? report : { ...report, effect: EffectUpload, rule: "upload_file" };
}

/** What the popup shows of a stage, and what its digest covers. */
export interface Preview {
  effect: Effect;
  control: string;
  /** The tab's origin as Chrome reported its URL, never the page's word. */
  origin: string;
  fields: PreviewField[];
}

/**
 * The preview of a recognised effect: a sensitive field's value is never
 * kept, whatever the page agent sent; a type step's own text is shown
 * too, since its Enter sends it.
 */
function previewOf(effect: Effect, report: EffectReport, url: string, step: Step, c: Classified): Preview {
  const fields = report.preview.fields.map((f) => ({ label: f.label, value: f.sensitive ? "" : f.value, sensitive: f.sensitive }));
  if (c.upload !== null) fields.push({ label: "File to upload", value: c.upload, sensitive: false });
  if (c.lineBreak) fields.push({ label: "Typed by this step, line breaks as Enter", value: clipped(step.text ?? ""), sensitive: false });
  return { effect, control: report.preview.control, origin: shownOrigin({ url }), fields };
}

function clipped(text: string): string {
  const chars = [...text];
  return chars.length <= TYPED_CHARS ? text : chars.slice(0, TYPED_CHARS).join("") + "…";
}

/** The stage's target fingerprint: the descriptor (it may hold page text) keyed by the review handle. */
function fingerprint(handle: string, report: EffectReport): Promise<string> {
  return hmacHex(handle, report.descriptor);
}

/** The preview's digest, keyed by the review handle, over its members in a fixed order (a stored entry digests as the preview it was made from). */
export function previewDigest(handle: string, p: Preview): Promise<string> {
  const fields = p.fields.map((f) => ({ label: f.label, value: f.value, sensitive: f.sensitive }));
  return hmacHex(handle, JSON.stringify({ effect: p.effect, control: p.control, origin: p.origin, fields }));
}

/** The step and what answers for its target. */
export interface Where {
  step: Step;
  classified: Classified;
  /** The tab's URL as Chrome reported it when the step began: the preview's origin comes from here, never from the page. */
  url: string;
  /** The page agents that answer for the target (classify). */
  agents: readonly AgentClient[];
}

/** Where the step is and what it acts on. */
export interface StageAsk extends Where {
  taskId: string;
  tabId: number;
  /** The step's index in its batch. */
  index: number;
}

/**
 * The stage the step stops at, or undefined when it runs now: YOLO mode is
 * on, or no effect is recognised. A stage's preview is stored for the
 * popup under a new review handle before the answer goes to the host.
 */
export async function stageStep(ctx: HasReviews, ask: StageAsk): Promise<ExtStage | undefined> {
  // With YOLO mode on nothing a page shows stages: the classifier is not asked (one call fewer per click).
  if (ctx.reviews.yolo) return undefined;
  const report = await classify(ask.agents, ask.classified);
  const effect = effectOf(report);
  if (effect === null) return undefined;
  const handle = newReviewHandle();
  const preview = previewOf(effect, report, ask.url, ask.step, ask.classified);
  const [print, digest] = await Promise.all([fingerprint(handle, report), previewDigest(handle, preview)]);
  await ctx.reviews.add({ handle, taskId: ask.taskId, tabId: ask.tabId, ...preview, ...ctx.reviews.times(), state: "pending" });
  return { step: ask.index, review_handle: handle, effect, fingerprint: print, preview_digest: digest };
}

/** A commit's stage: its review handle, and what the target must still be. */
export interface Staged {
  handle: string;
  effect: Effect;
  fingerprint: string;
  /** The digest of the preview the human approved (the extension's stored entry). */
  previewDigest: string;
}

/**
 * Whether the target still is the one staged: the same element, with the
 * same effect, a descriptor of the same fingerprint and the same preview
 * (a field filled after the approval changes what would be sent: the
 * commit's recheck). An element the page removed or replaced, even by an
 * identical copy, is not the control the user approved (effect() throws
 * for it).
 */
export async function sameTarget(at: Where, staged: Staged): Promise<boolean> {
  const { ref } = at.classified;
  if (ref !== null && (await Promise.all(at.agents.map((a) => a.target(ref)))).some((t) => t.reason === "detached")) return false;
  const report = await classify(at.agents, at.classified);
  const effect = effectOf(report);
  if (effect !== staged.effect) return false;
  const preview = previewOf(effect, report, at.url, at.step, at.classified);
  const [print, digest] = await Promise.all([fingerprint(staged.handle, report), previewDigest(staged.handle, preview)]);
  return print === staged.fingerprint && digest === staged.previewDigest;
}
