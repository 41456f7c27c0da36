// One Pi tool per AgentTab tool spec. Name, description and input schema
// are the generated ones as they are (../core/src/tools.generated.ts, from
// the Go registry `agenttab mcp` lists): Type.Unsafe hands Pi the JSON
// Schema unchanged (its marker is not enumerable, so the provider sends the
// schema byte for byte), and Pi validates every call against it before
// execute runs (pi-ai validateToolArguments compiles it with TypeBox).
import type { ToolDefinition } from "@mariozechner/pi-coding-agent";
import { Text } from "@mariozechner/pi-tui";
import { Type, type TUnsafe } from "typebox";

import type { AgentTab, ToolSpec } from "../core/src/index.ts";
import { renderCard } from "./render.ts";
import { type CardDetails, toPiResult } from "./result.ts";

type Params = TUnsafe<Record<string, unknown>>;

/**
 * piTool turns spec into Pi's tool definition; connection gives the
 * session's AgentTab at call time (it throws before session_start, and Pi
 * reports that as the call's error). guidelines are the server
 * instructions as Pi's guideline bullets (Pi prints each distinct bullet
 * once however many tools carry it, and only while one of them is active).
 */
export function piTool(spec: ToolSpec, connection: () => AgentTab, guidelines: string[]): ToolDefinition<Params, CardDetails> {
  return {
    name: spec.name,
    label: spec.title,
    description: spec.description,
    promptSnippet: spec.title,
    promptGuidelines: guidelines,
    parameters: Type.Unsafe<Record<string, unknown>>(spec.inputSchema),
    // The host runs a task's calls in the order it reads them; Pi would
    // start a turn's calls together, so it would be the race that decides.
    executionMode: "sequential",
    async execute(_toolCallId, params, signal) {
      return toPiResult(spec.name, await connection().call(spec.name, params, signal));
    },
    // The call row shows the tool's title only: its arguments can hold a
    // URL or typed text.
    renderCall(_args, theme) {
      return new Text(theme.fg("toolTitle", theme.bold(spec.title)), 0, 0);
    },
    renderResult(result, options, theme, context) {
      return renderCard(result.details, options, theme, context.isError);
    },
  };
}
