// How an AgentTab tool result becomes a Pi tool result. The model gets the
// whole result, as ../core agentContent() maps it for every agent whose
// content is text and images; Pi's UI and session file get, in `details`,
// only the card (../core card(): counts and identifiers, never titles,
// URLs or values) and whether the call failed.
import type { AgentToolResult } from "@mariozechner/pi-coding-agent";

import { agentContent, card, type ToolResult } from "../core/src/index.ts";

/** What a Pi tool result of an AgentTab tool keeps beside its content. */
export interface CardDetails {
  card: { title: string; lines: string[] };
  /** The AgentTab result was isError; index.ts's tool_result hook marks Pi's result so. */
  failed: boolean;
}

export function toPiResult(name: string, result: ToolResult): AgentToolResult<CardDetails> {
  return { content: agentContent(result), details: { card: card(name, result), failed: result.isError } };
}

/** isCardDetails tells a result of this adapter's execute from one Pi made itself (a validation error, details {}). */
export function isCardDetails(details: unknown): details is CardDetails {
  if (typeof details !== "object" || details === null || !("card" in details) || !("failed" in details)) return false;
  const c: unknown = details.card;
  return typeof c === "object" && c !== null && "title" in c && "lines" in c && typeof c.title === "string" && Array.isArray(c.lines);
}
