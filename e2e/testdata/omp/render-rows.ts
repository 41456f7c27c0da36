// Renders tool rows as OMP's TUI does, for e2e/adapter_omp_test.go: OMP's
// own ToolExecutionComponent with the tool OMP builds from the adapter's
// definition (RegisteredToolAdapter, which forwards its renderCall and
// renderResult), collapsed and expanded. Reads [{name, args, result}] (from
// OMP's events) on stdin and prints [{name, collapsed: [lines], expanded:
// [lines]}] without colour. Run by OMP's Bun with
// --tsconfig-override=render-rows.tsconfig.json (where OMP's packages are).
import { readFileSync } from "node:fs";

import type { ExtensionAPI, ToolDefinition } from "@oh-my-pi/pi-coding-agent";
import { ToolExecutionComponent, type ToolExecutionUi } from "@oh-my-pi/pi-coding-agent/modes/components/tool-execution";
import type { ExtensionRunner } from "@oh-my-pi/pi-coding-agent/extensibility/extensions/runner";
import type { RegisteredTool } from "@oh-my-pi/pi-coding-agent/extensibility/extensions/types";
import { RegisteredToolAdapter } from "@oh-my-pi/pi-coding-agent/extensibility/extensions/wrapper";

import { tools } from "../../../adapters/core/src/index.ts";
import agentTab, { definition as toolDefinition } from "../../../adapters/omp/index.ts";

interface Row {
	name: string;
	args: Record<string, unknown>;
	result: { content: { type: string; text?: string }[]; details?: unknown; isError: boolean };
}

const defs = new Map<string, ToolDefinition>();
// Only what the adapter's factory calls; it opens no connection until a
// session starts, and no session starts here.
const api = { registerTool: (d: ToolDefinition) => defs.set(d.name, d), on: () => undefined };
agentTab(api as unknown as ExtensionAPI);
// browser_developer: the adapter registers it (with the same definition)
// once the host says Developer mode is on; drawing never runs a tool, so it
// needs no sessions.
type Sessions = Parameters<typeof toolDefinition>[1];
for (const spec of tools) if (!defs.has(spec.name)) defs.set(spec.name, toolDefinition(spec, undefined as unknown as Sessions));

// Rendering never executes the tool, so the adapter gets no runner.
const runner = undefined as unknown as ExtensionRunner;
const ui: ToolExecutionUi = { requestRender: () => undefined, requestComponentRender: () => undefined, resetDisplay: () => undefined };
// eslint-disable-next-line no-control-regex
const plain = (lines: readonly string[]): string[] => lines.map((l) => l.replace(/\x1b\[[0-9;]*m/g, "").trim()).filter((l) => l !== "");

const rows = JSON.parse(readFileSync(0, "utf8")) as Row[];
const out = rows.map((row, i) => {
	const definition = defs.get(row.name);
	if (definition === undefined) throw new Error(`the adapter registers no tool ${row.name}`);
	const extensionPath = "adapters/omp/index.ts";
	const registered: RegisteredTool = {
		definition,
		extensionPath,
		sourceInfo: { path: extensionPath, source: "extension", scope: "temporary", origin: "top-level" },
	};
	const tool = new RegisteredToolAdapter(registered, runner);
	const c = new ToolExecutionComponent(row.name, row.args, {}, tool, ui, process.cwd(), `call-${i}`);
	c.setArgsComplete();
	c.setExecutionStarted();
	c.updateResult(row.result, false);
	c.setExpanded(false);
	const collapsed = plain(c.render(200));
	c.setExpanded(true);
	return { name: row.name, collapsed, expanded: plain(c.render(200)) };
});
process.stdout.write(JSON.stringify(out));
