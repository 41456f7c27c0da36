// AgentTab's native extension for OMP (oh-my-pi, @oh-my-pi/pi-coding-agent):
// registers the Standard browser tools, exactly as `agenttab mcp` lists them
// (names, descriptions and JSON input schemas come from the Go registry
// through adapters/core's generated tools), and browser_developer only when
// the host says Developer mode is on. Each call goes to the AgentTab host
// over Core RPC (adapters/core); this file never talks to the socket, never
// reads or prints the resume capability (adapter-owned state under
// STATE/adapters/, kept by the Core client), and never decides a tool's
// outcome itself. Load it with `omp -e adapters/omp/index.ts`.
//
// One AgentTab task per OMP session, never per process or free slot: the
// AgentTab opens once OMP names the session (session_start), for that
// session id, so a fresh session (a run without --continue, /new, a fork)
// is a fresh task and a resumed one (--continue, --resume, /resume) takes
// its own task back.
import type { AgentTool } from "@oh-my-pi/pi-agent-core";
import type { ExtensionAPI, ExtensionContext, ToolDefinition } from "@oh-my-pi/pi-coding-agent";
import { Text } from "@oh-my-pi/pi-tui";
import { AgentTab, card, instructions, type ToolSpec, tools } from "../core/src/index.ts";
import pkg from "./package.json" with { type: "json" };
import { type CardTheme, cardOf, cardText } from "./render.ts";
import { toOmpResult } from "./result.ts";

const ADAPTER = "omp";

// developerProbeMs bounds how long a prompt waits for the Developer-mode
// probe. The Core client bounds its own probe (it never waits for a lost
// host); this keeps that promise here too, whatever the client does.
const developerProbeMs = 2000;

// The session's AgentTab. OMP keeps one extension instance across session
// replacements (/new, /resume, /fork fire session_switch or session_branch
// on the same listeners), so the AgentTab follows the session id OMP
// reports, closing the previous session's before opening the next.
class Sessions {
	#current: { session: string; tab: AgentTab } | undefined;

	// of is the AgentTab of ctx's session, opened for it if it is not the
	// open one. Execute asks too, so no call can run in another session's
	// task even if OMP replaced the session without an event we handle.
	of(ctx: ExtensionContext): AgentTab {
		const session = ctx.sessionManager.getSessionId();
		if (this.#current?.session === session) return this.#current.tab;
		const previous = this.#current;
		// The session id keys the private files (STATE/adapters/omp-<hash>…)
		// and is the hello's conversation id: metadata for the host; nothing
		// secret travels the other way.
		this.#current = { session, tab: AgentTab.open({ adapter: ADAPTER, adapterVersion: pkg.version, session }) };
		void previous?.tab.close();
		return this.#current.tab;
	}

	async close(): Promise<void> {
		const closing = this.#current;
		this.#current = undefined;
		await closing?.tab.close();
	}
}

// OMP copies every property of a registered definition onto the tool its
// agent loop runs (extensibility/tool-proxy.ts), so AgentTool's intent and
// concurrency settings apply though ToolDefinition does not declare them.
type Definition = ToolDefinition & Pick<AgentTool, "intent" | "concurrency">;

// Exported for e2e/testdata/omp/render-rows.ts, which draws browser_developer
// rows without the host that registers it here.
export function definition(spec: ToolSpec, sessions: Sessions): Definition {
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
		// OMP runs the tool calls of one turn concurrently unless a tool is
		// "exclusive" (pi-agent-core agent-loop.ts: the default is "shared").
		// Browser calls depend on each other's effects (a click, then the
		// snapshot that reads it), so each waits for the previous one and the
		// host gets them in the model's order (e2e TestOMPAdapter).
		concurrency: "exclusive",
		approval: spec.readOnly ? "read" : "write",
		async execute(_toolCallId, params, signal, _onUpdate, ctx) {
			const result = await sessions.of(ctx).call(spec.name, params, signal);
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

// developerEnabled asks the host whether Developer mode is on, answering
// false after developerProbeMs: a missing host means "not now".
async function developerEnabled(tab: AgentTab): Promise<boolean> {
	let timer: ReturnType<typeof setTimeout> | undefined;
	const late = new Promise<boolean>((resolve) => {
		timer = setTimeout(() => resolve(false), developerProbeMs);
		timer.unref?.();
	});
	try {
		return await Promise.race([tab.developerEnabled().catch(() => false), late]);
	} finally {
		clearTimeout(timer);
	}
}

export default function agentTab(pi: ExtensionAPI): void {
	const sessions = new Sessions();
	const registered = new Set<string>();
	const register = (spec: ToolSpec): void => {
		pi.registerTool(definition(spec, sessions));
		registered.add(spec.name);
	};
	for (const spec of tools) if (!spec.developerOnly) register(spec);

	// browser_developer exists only while the user's policy enables
	// Developer mode (spec 000); the host's hello says whether it does. OMP
	// adds a tool registered after startup to the live session. Asked at
	// session start and again before every prompt while it is off, because
	// the user may turn Developer mode on in policy.json and restart Chrome
	// while OMP runs; the probe is bounded, so a missing host delays a prompt
	// by at most developerProbeMs.
	const probeDeveloper = async (ctx: ExtensionContext): Promise<void> => {
		const missing = tools.filter((spec) => spec.developerOnly && !registered.has(spec.name));
		if (missing.length === 0) return;
		if (await developerEnabled(sessions.of(ctx))) for (const spec of missing) register(spec);
	};

	pi.on("session_start", async (_event, ctx) => {
		await probeDeveloper(ctx);
	});
	// A replaced session (/new, /resume, /fork) gets its own task: the
	// previous session's AgentTab is closed (its claim released, its task
	// left to resume) and the new session's opened. session_before_switch is
	// not used: another extension may still cancel the switch after it.
	pi.on("session_switch", async (_event, ctx) => {
		sessions.of(ctx);
	});
	pi.on("session_branch", async (_event, ctx) => {
		sessions.of(ctx);
	});
	// The shared guidance for the browser tools (the same text `agenttab mcp`
	// sends as its instructions) goes where OMP puts an extension's guidance:
	// appended to the system prompt once.
	pi.on("before_agent_start", async (event, ctx) => {
		await probeDeveloper(ctx);
		if (event.systemPrompt.includes(instructions)) return undefined;
		return { systemPrompt: [...event.systemPrompt, instructions] };
	});
	pi.on("session_shutdown", async () => {
		await sessions.close();
	});
}
