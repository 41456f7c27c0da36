// What the model receives from one AgentTab call, in OMP's tool-result
// shape: the content is core's agentContent (adapters/core: every text
// block, images, a resource link as one text line), so Pi and OMP give the
// model the same thing. A failed call stays a tool error (isError), so the
// model reads its code, recovery text and outcome instead of the run
// stopping.
import { type AgentContent, agentContent, type ToolResult } from "../core/src/index.ts";

export interface Card {
	title: string;
	lines: string[];
}

export interface OmpToolResult {
	content: AgentContent[];
	// details is what OMP stores in its session file and hands to the
	// renderer: the card only (counts and identifiers), never the page text.
	details: { card: Card };
	isError?: boolean;
}

export function toOmpResult(result: ToolResult, card: Card): OmpToolResult {
	const out: OmpToolResult = { content: agentContent(result), details: { card } };
	// OMP's agent loop honours isError on a returned result (pi-agent-core
	// AgentToolResult.isError) and reports it to the model as a tool error;
	// returning rather than throwing keeps the card for the renderer.
	if (result.isError) out.isError = true;
	return out;
}
