// What the model receives from one AgentTab call, in OMP's tool-result
// shape. The agent gets the whole result (spec 000: cards are collapsed,
// the agent still receives everything): every text block as is, images as
// OMP image content, resource links as a text line naming them. A failed
// call stays a tool error (isError), so the model reads its code, recovery
// text and outcome instead of the run stopping.
import type { ToolResult } from "../core/src/index.ts";

export type OmpContent = { type: "text"; text: string } | { type: "image"; data: string; mimeType: string };

export interface Card {
	title: string;
	lines: string[];
}

export interface OmpToolResult {
	content: OmpContent[];
	// details is what OMP stores in its session file and hands to the
	// renderer: the card only (counts and identifiers), never the page text.
	details: { card: Card };
	isError?: boolean;
}

export function toOmpContent(result: ToolResult): OmpContent[] {
	return result.content.map((block): OmpContent => {
		switch (block.type) {
			case "text":
				return { type: "text", text: block.text };
			case "image":
				return { type: "image", data: block.data, mimeType: block.mimeType };
			case "resource_link":
				return { type: "text", text: `resource_link ${block.name}: ${block.uri}${block.mimeType ? ` (${block.mimeType})` : ""}` };
		}
	});
}

export function toOmpResult(result: ToolResult, card: Card): OmpToolResult {
	const out: OmpToolResult = { content: toOmpContent(result), details: { card } };
	// OMP's agent loop honours isError on a returned result (pi-agent-core
	// AgentToolResult.isError) and reports it to the model as a tool error;
	// returning rather than throwing keeps the card for the renderer.
	if (result.isError) out.isError = true;
	return out;
}
