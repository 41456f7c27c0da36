// The select step: options of a <select> chosen by label or value, on
// either route. Source of truth: issue 3 (step kinds: select confirms the
// options selected) and issue 9 (a payment-card select, a card's expiry
// month or year, gets no choice: sensitive_field, nothing dispatched).
import { CodeTargetNotActionable, OutcomeConfirmed, OutcomeNotStarted } from "../../protocol/generated";
import type { AgentClient } from "../agent-client/client";
import { Failure } from "../native/failure";
import { sensitiveField } from "./key-guard";
import type { Progress } from "./receipts";
import type { Done } from "./typing";

/** agent: the page agent of the document that showed the ref (either route). */
export async function selectOptions(agent: Pick<AgentClient, "target" | "select">, progress: Progress, ref: string, values: string[]): Promise<Done> {
  const info = await agent.target(ref);
  if (info.sensitive) throw sensitiveField(info.description || ref, OutcomeNotStarted, "chooses no option in it");
  progress.dispatched = true;
  const r = await agent.select(ref, values);
  if (!r.ok) throw new Failure(CodeTargetNotActionable, OutcomeNotStarted, `cannot select in ${ref}: ${r.error ?? "refused"}`, "Check the options in a new browser_snapshot, then retry.");
  return { outcome: OutcomeConfirmed, note: `selected ${r.selected.map((s) => JSON.stringify(s)).join(", ")}` };
}
