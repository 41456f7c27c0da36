// Renders tool rows as Pi's TUI does, for e2e/adapter_pi_test.go: Pi's own
// ToolExecutionComponent with the adapter's tool definitions (its
// renderCall/renderResult), collapsed and expanded. Reads
// [{name, args, result, isError}] (from Pi's events) on stdin and prints
// [{name, collapsed: [lines], expanded: [lines]}] without colour.
import { readFileSync } from "node:fs";

import { type ExtensionAPI, initTheme, type ToolDefinition, ToolExecutionComponent } from "@mariozechner/pi-coding-agent";
import type { TUI } from "@mariozechner/pi-tui";

import { tools } from "../../../adapters/core/src/index.ts";
import agenttab from "../../../adapters/pi/index.ts";
import { piTool } from "../../../adapters/pi/tool.ts";

interface Row {
  name: string;
  args: Record<string, unknown>;
  result: { content: { type: string; text?: string }[]; details?: unknown; isError: boolean };
}

const defs = new Map<string, ToolDefinition>();
// Only what the adapter's factory calls; it opens no connection until a tool runs.
const api = { registerTool: (d: ToolDefinition) => defs.set(d.name, d), on: () => undefined };
const ext = api as unknown as ExtensionAPI;
agenttab(ext);
// browser_developer: the adapter registers it (with piTool, as every tool)
// before a prompt, once the host says Developer mode is on; drawing needs
// only its definition, never a connection.
const noConnection = (): never => {
  throw new Error("render-rows: drawing runs no tool");
};
for (const spec of tools) if (!defs.has(spec.name)) ext.registerTool(piTool(spec, noConnection, []));

initTheme("dark");
const ui = { requestRender: () => undefined } as unknown as TUI;
// eslint-disable-next-line no-control-regex
const plain = (lines: string[]): string[] => lines.map((l) => l.replace(/\x1b\[[0-9;]*m/g, "").trimEnd()).filter((l) => l !== "");

const rows = JSON.parse(readFileSync(0, "utf8")) as Row[];
const out = rows.map((row, i) => {
  const c = new ToolExecutionComponent(row.name, `call-${i}`, row.args, {}, defs.get(row.name), ui, process.cwd());
  c.setArgsComplete();
  c.markExecutionStarted();
  c.updateResult(row.result, false);
  c.setExpanded(false);
  const collapsed = plain(c.render(200));
  c.setExpanded(true);
  return { name: row.name, collapsed, expanded: plain(c.render(200)) };
});
process.stdout.write(JSON.stringify(out));
