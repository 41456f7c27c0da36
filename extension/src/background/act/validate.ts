// Checks a batch's steps and wait conditions before anything runs: a step
// that lacks what its kind needs fails the whole call invalid_params with
// nothing dispatched. Source of truth: protocol/steps.go (StepRules: what
// each kind takes), protocol/page.go (Step, WaitCondition) and issue 3.
import {
  CodeInvalidParams,
  CodeInvalidURL,
  CodeLocalFileDenied,
  DefaultIdleMs,
  LocalFileViewSource,
  DefaultWaitMs,
  MaxIdleMs,
  MaxSteps,
  MaxURLBytes,
  MaxWaitMs,
  NavigableSchemes,
  OutcomeNotStarted,
  RefNone,
  RefRequired,
  StepRules,
  WaitStateValues,
  WaitVisible,
} from "../../protocol/generated";
import type { Step, WaitCondition, WaitState } from "../../protocol/generated";
import { Failure, failure } from "../native/failure";
import { isFile, isLocalFile } from "../origins/origins";
import { refNumber } from "../pagework/refs";
import { parseChord } from "./keys";
import { isStepKind } from "./kinds";

/** The states a ref wait can wait for (protocol.WaitState). */
export type { WaitState };

function invalid(message: string, recovery = "Fix the step and send the batch again; nothing was run."): Failure {
  return new Failure(CodeInvalidParams, OutcomeNotStarted, message, recovery);
}

function needRef(ref: string | undefined, what: string): void {
  if (ref === undefined || ref === "") throw invalid(`${what} needs a ref`);
  if (refNumber(ref) === undefined) throw invalid(`${what}: ${JSON.stringify(ref)} is not a ref (refs look like "e12" in a snapshot)`);
}

// The schemes AgentTab navigates to: protocol.NavigableSchemes, the list
// the host reads too (internal/host/validate.go).
const NAVIGABLE = new Set(NavigableSchemes.map((s) => `${s}:`));

/**
 * Checks a navigate target as Chrome reads it (the URL parser's reading;
 * the step then navigates to the URL as given, which Chrome reads the same
 * way): view-source: of a local file is local_file_denied, and
 * view-source: must wrap a target of its own (issue 9). A plain local file
 * passes: the step asks the host about it (origin-guard.ts admit), which
 * alone can say where its path leads.
 */
export function checkNavigateUrl(raw: string, what: string): void {
  const bad = (why: string) => failure(CodeInvalidURL, `${what}: url ${why}`);
  if (raw === "") throw bad("is required");
  if (raw.length > MaxURLBytes) throw bad(`is longer than ${MaxURLBytes} characters`);
  if (isLocalFile(raw) && !isFile(raw)) throw failure(CodeLocalFileDenied, `${what}: url: ${LocalFileViewSource}`);
  let u: URL;
  try {
    u = new URL(raw.trim());
  } catch {
    throw bad("does not parse");
  }
  if (u.protocol === "file:") return;
  if (!NAVIGABLE.has(u.protocol)) throw bad(`has scheme ${JSON.stringify(u.protocol.slice(0, -1))}, which AgentTab does not navigate to`);
  if ((u.protocol === "http:" || u.protocol === "https:") && u.hostname === "") throw bad("has no host");
  if (u.protocol === "view-source:") {
    const inner = u.href.slice(u.protocol.length);
    if (/^view-source:/i.test(inner.trim())) throw bad("nests view-source: inside view-source:");
    checkNavigateUrl(inner, what);
  }
}

/** A wait condition's limits, resolved: given, or the protocol's defaults. */
export interface WaitLimits {
  timeoutMs: number;
  /** The quiet period of until network_idle. */
  idleMs: number;
}

/**
 * An optional count: omitted means def; given, it must be 1 to max. An
 * explicit 0 is refused, not read as the default, exactly as the host
 * refuses it (internal/host/optional.go; both are tested on the table in
 * protocol/testdata/wait_counts.json).
 */
function count(v: number | undefined, name: string, def: number, max: number, what: string): number {
  if (v === undefined) return def;
  if (!Number.isInteger(v) || v < 1 || v > max) throw invalid(`${what}: ${name} must be between 1 and ${max}, or omitted for ${def}; it was ${v}`);
  return v;
}

/** Checks a wait condition and returns its limits (protocol.DefaultWaitMs, DefaultIdleMs when omitted). */
export function checkWait(c: WaitCondition, what: string): WaitLimits {
  const timeoutMs = count(c.timeout_ms, "timeout_ms", DefaultWaitMs, MaxWaitMs, what);
  let idleMs = DefaultIdleMs;
  switch (c.until) {
    case "network_idle":
      idleMs = count(c.idle_ms, "idle_ms", DefaultIdleMs, MaxIdleMs, what);
      break;
    case "download":
      break;
    case "url":
      if ((c.url ?? "") === "") throw invalid(`${what}: until url needs url`);
      break;
    case "text":
      if ((c.text ?? "") === "") throw invalid(`${what}: until text needs text`);
      break;
    case "ref":
      needRef(c.ref, `${what}: until ref`);
      waitState(c, what);
      break;
    case "load":
    case "navigation":
      break;
  }
  if (c.idle_ms !== undefined && c.until !== "network_idle") throw invalid(`${what}: idle_ms is only for until network_idle`);
  return { timeoutMs, idleMs };
}

export function waitState(c: WaitCondition, what: string): WaitState {
  const s: string = c.state ?? "";
  if (s === "") return WaitVisible;
  const found = WaitStateValues.find((w) => w === s);
  if (found !== undefined) return found;
  throw invalid(`${what}: state must be one of ${WaitStateValues.map((w) => JSON.stringify(w)).join(", ")}`);
}

/** The fields a step gives besides kind and ref. */
function given(s: Step): string[] {
  return Object.entries(s)
    .filter(([k, v]) => k !== "kind" && k !== "ref" && v !== undefined)
    .map(([k]) => k);
}

/**
 * A kind the switch does not know: tsc fails the build when a StepKind has
 * no case (every dispatch over kinds ends here), and a kind that is not a
 * StepKind at all fails the call.
 */
export function unknownKind(kind: never): never {
  throw invalid(`${JSON.stringify(kind)} is not a step kind`);
}

/**
 * Checks one step against its kind's rule (protocol.StepRules, which the
 * host checks first, protocol.StepProblem) and the values only the
 * extension reads (the URL as Chrome reads it, the wait condition); throws
 * invalid_params (or invalid_url) naming it.
 */
export function checkStep(s: Step, index: number): void {
  const what = `step ${index} (${s.kind})`;
  if (!isStepKind(s.kind)) throw invalid(`${what}: ${JSON.stringify(s.kind)} is not a step kind`);
  const rule = StepRules[s.kind];
  if (rule.ref === RefRequired || s.ref !== undefined) {
    if (rule.ref === RefNone) throw invalid(`${what} takes no ref`);
    needRef(s.ref, what);
  }
  if (s.to_ref !== undefined) needRef(s.to_ref, `${what} to_ref`);
  const fields = given(s);
  const needs: readonly string[] = rule.needs ?? [];
  const takes: readonly string[] = rule.takes ?? [];
  for (const f of needs) if (!fields.includes(f)) throw invalid(`${what} needs ${f}`);
  for (const f of fields) if (!needs.includes(f) && !takes.includes(f)) throw invalid(`${what} takes no ${f}; see the browser_act schema for each kind's fields`);
  switch (s.kind) {
    case "type":
      if ((s.text ?? "") === "") throw invalid(`${what} needs text (use fill or clear to empty a field)`);
      return;
    case "press": {
      const c = parseChord(s.keys ?? "");
      if (typeof c === "string") throw invalid(`${what}: ${c}`);
      return;
    }
    case "select":
      if ((s.values ?? []).length === 0) throw invalid(`${what} needs values (option labels or values)`);
      return;
    case "scroll":
      if (s.ref === undefined && (s.delta_x ?? 0) === 0 && (s.delta_y ?? 0) === 0) {
        throw invalid(`${what} needs a ref to scroll into view, or delta_x/delta_y`);
      }
      return;
    case "navigate":
      checkNavigateUrl(s.url ?? "", what);
      return;
    case "wait":
      if (s.wait !== undefined) checkWait(s.wait, what);
      return;
    case "click":
    case "double_click":
    case "hover":
    case "focus":
    case "fill":
    case "clear":
    case "check":
    case "uncheck":
    case "drag":
    case "dialog":
    case "reload":
    case "back":
    case "forward":
    case "close":
    case "upload_file":
      return;
    default:
      return unknownKind(s.kind);
  }
}

export function checkSteps(steps: Step[]): void {
  if (steps.length === 0 || steps.length > MaxSteps) throw invalid(`a batch has 1 to ${MaxSteps} steps, not ${steps.length}`);
  steps.forEach(checkStep);
}
