// AgentTab's native extension for OMP (oh-my-pi, @oh-my-pi/pi-coding-agent):
// registers the Standard browser tools, exactly as `agenttab mcp` lists them
// (names, descriptions and JSON input schemas come from the Go registry
// through adapters/core's generated tools), and browser_developer only when
// the host says Developer mode is on. Each call goes to the AgentTab host
// over Core RPC (adapters/core); this file never talks to the socket, never
// reads or prints the resume capability (adapter-owned state under
// STATE/adapters/, kept by the Core client), and never decides a tool's
// outcome itself. Load it with `omp -e adapters/omp/index.ts`.
import type { AgentTool } from "@oh-my-pi/pi-agent-core";
import type { ExtensionAPI, ExtensionContext, ToolDefinition } from "@oh-my-pi/pi-coding-agent";
import { Text } from "@oh-my-pi/pi-tui";
import { AgentTab, card, instructions, type ToolSpec, tools } from "../core/src/index.ts";
import pkg from "./package.json" with { type: "json" };
import { type CardTheme, cardOf, cardText } from "./render.ts";
import { toOmpResult } from "./result.ts";

const ADAPTER = "omp";

// One AgentTab (one Core client, one task) per OMP process, opened on the
// first tool call so loading the extension costs nothing.
class Session {
	#tab: AgentTab | undefined;
	#conversation: string | undefined;

	bind(ctx: ExtensionContext | undefined): void {
		// OMP's session id is metadata for the host (which conversation a task
		// belongs to); nothing secret travels the other way.
		if (this.#conversation === undefined && ctx !== undefined) this.#conversation = ctx.sessionManager.getSessionId();
	}

	tab(): AgentTab {
		const conversation = this.#conversation;
		this.#tab ??= AgentTab.open({ adapter: ADAPTER, adapterVersion: pkg.version, ...(conversation === undefined ? {} : { conversationId: conversation }) });
		return this.#tab;
	}

	async close(): Promise<void> {
		const tab = this.#tab;
		this.#tab = undefined;
		if (tab !== undefined) await tab.close();
	}
}

// OMP copies every property of a registered definition onto the tool its
// agent loop runs (extensibility/tool-proxy.ts), so AgentTool's intent
// setting applies though ToolDefinition does not declare it.
type Definition = ToolDefinition & Pick<AgentTool, "intent">;

function definition(spec: ToolSpec, session: Session): Definition {
	return {
		name: spec.name,
		label: spec.title,
		description: spec.description,
		// OMP takes a plain JSON Schema object as a tool's parameters (pi-ai's
		// TJsonSchema), sends it to the model unchanged and validates the
		// model's arguments against it before execute (e2e/adapter_omp_test.go).
		parameters: spec.inputSchema,
		// Extension tools default to "discoverable" (hidden behind OMP's tool
		// search); the browser tools are the point of loading this extension.
		loadMode: "essential",
		// OMP would otherwise add a required "i" (intent) property to every
		// schema, and the schema must reach the model as the registry wrote it.
		intent: "omit",
		approval: spec.readOnly ? "read" : "write",
		async execute(_toolCallId, params, signal, _onUpdate, ctx) {
			session.bind(ctx);
			const result = await session.tab().call(spec.name, params, signal);
			return toOmpResult(result, card(spec.name, result));
		},
		renderCall(_args, _options, theme: CardTheme) {
			// The arguments can hold URLs and typed values: the call line names
			// the tool only.
			return new Text(theme.fg("toolTitle", spec.title), 0, 0);
		},
		renderResult(result, options, theme: CardTheme) {
			const isError = "isError" in result && result.isError === true;
			const text = cardText(cardOf(result.details), isError, options);
			return new Text(theme.fg(isError ? "error" : "muted", text), 0, 0);
		},
	};
}

export default function agentTab(pi: ExtensionAPI): void {
	const session = new Session();
	for (const spec of tools) if (!spec.developerOnly) pi.registerTool(definition(spec, session));

	pi.on("session_start", async (_event, ctx) => {
		session.bind(ctx);
		// browser_developer exists only while the user's policy enables
		// Developer mode (spec 000); the host's hello says whether it does.
		// OMP adds a tool registered after startup to the live session.
		const developer = await session.tab().developerEnabled().catch(() => false);
		if (!developer) return;
		for (const spec of tools) if (spec.developerOnly) pi.registerTool(definition(spec, session));
	});
	// The shared guidance for the browser tools (the same text `agenttab mcp`
	// sends as its instructions) goes where OMP puts an extension's guidance:
	// appended to the system prompt once.
	pi.on("before_agent_start", async (event) => {
		if (event.systemPrompt.includes(instructions)) return undefined;
		return { systemPrompt: [...event.systemPrompt, instructions] };
	});
	pi.on("session_shutdown", async () => {
		await session.close();
	});
}
