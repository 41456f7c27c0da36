// What Pi's TUI shows of an AgentTab tool call: the tool's title, then the
// card of its result. Collapsed: the card's title and its lines on one row;
// expanded: one line each. Both come from the card alone (counts and
// identifiers, spec 000 "Collapsed OMP and Pi cards show counts and
// identifiers only"), never from the content the model read, so no page
// title, URL or value reaches the screen.
import type { Theme, ToolRenderResultOptions } from "@mariozechner/pi-coding-agent";
import { Text } from "@mariozechner/pi-tui";

import { isCardDetails } from "./result.ts";

/** cardText is the card as text, without colour: the one rendering, tested in render.test.ts. */
export function cardText(details: unknown, isError: boolean, expanded: boolean): { head: string; body: string; failed: boolean } {
  if (!isCardDetails(details)) {
    // Pi's own failure (arguments that fail the schema, a blocked call):
    // its text echoes the arguments, which may hold a URL, so none is shown.
    return { head: isError ? "not run (see the agent's result)" : "no card", body: "", failed: isError };
  }
  const { title, lines } = details.card;
  return { head: title, body: lines.join(expanded ? "\n" : " · "), failed: details.failed || isError };
}

export function renderCard(details: unknown, options: ToolRenderResultOptions, theme: Theme, isError: boolean): Text {
  if (options.isPartial) return new Text(theme.fg("muted", "…"), 0, 0);
  const { head, body, failed } = cardText(details, isError, options.expanded);
  const mark = failed ? theme.fg("error", "✗ ") : theme.fg("success", "✓ ");
  const sep = options.expanded ? "\n" : "  ";
  return new Text(mark + head + (body ? sep + theme.fg("dim", body) : ""), 0, 0);
}
