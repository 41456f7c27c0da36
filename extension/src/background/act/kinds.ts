// The step kinds as a runtime list, from protocol.StepRules (the one table
// of kinds and their rules; protocol/steps.go).
import { StepRules } from "../../protocol/generated";
import type { StepKind } from "../../protocol/generated";

export function isStepKind(k: string): k is StepKind {
  return Object.hasOwn(StepRules, k);
}

/** Every step kind, in the table's order. */
export const STEP_KINDS: readonly StepKind[] = Object.keys(StepRules).filter(isStepKind);
