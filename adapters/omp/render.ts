// How an AgentTab call looks in OMP's transcript: a card built by the
// Core client's card() (adapters/core), counts and identifiers only (spec
// 000 "Private data stays with the caller": never titles, URLs or values).
// Collapsed shows the card's title line; expanded adds its lines, never the
// raw result the model received.
import type { Card } from "./result.ts";

export interface RenderOptions {
	expanded: boolean;
	isPartial: boolean;
}

// The subset of OMP's Theme the renderer uses (modes/theme/theme-class.ts).
export interface CardTheme {
	fg(color: "toolTitle" | "muted" | "error", text: string): string;
}

// cardText is the text the renderer shows under the call line (the tool's
// title). e2e/testdata/omp/render-rows.ts draws the rows with OMP's own
// tool component, collapsed and expanded, for the e2e test to check.
export function cardText(card: Card | undefined, isError: boolean, options: RenderOptions): string {
	if (options.isPartial) return "…";
	if (card === undefined) return isError ? "failed" : "done";
	const head = card.title;
	if (!options.expanded) return head;
	return [head, ...card.lines.map((line) => `  ${line}`)].join("\n");
}

export function cardOf(details: unknown): Card | undefined {
	if (typeof details !== "object" || details === null || !("card" in details)) return undefined;
	const card: unknown = details.card;
	if (typeof card !== "object" || card === null || !("title" in card) || !("lines" in card)) return undefined;
	const { title, lines } = card;
	if (typeof title !== "string" || !Array.isArray(lines) || !lines.every((l): l is string => typeof l === "string")) return undefined;
	return { title, lines };
}
