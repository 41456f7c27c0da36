// A scripted model for OMP, loaded with -e next to adapters/omp by
// e2e/adapter_omp_test.go. OMP's pi-ai ships a test provider (the "mock"
// API, createMockModel); this extension registers it as the provider
// "agenttab-scripted" and decides each turn from the conversation OMP sends
// it, as a model would: every browser tool is called through OMP's own
// tool-execution path (schema validation, scheduling, execute, result
// events, session file), and each step reads what it needs (tab handle,
// page revision, ref, notice id) from the previous tool result.
//
// AGENTTAB_OMP_SCRIPT picks the script: "all" (every tool but
// browser_finish, leaving the task open; one turn makes two calls),
// "tabs" (browser_tabs only), "resume" (browser_tabs, then browser_finish),
// "developer" (browser_open, browser_developer evaluate and a refused cdp
// call, browser_finish), "list" (no call: what OMP offers the model). A
// script counts its turns from the prompt of this run, so it also runs in a
// resumed session.
//
// It reports what OMP offered the model (tool names, descriptions,
// schemas, system prompt) on stderr as one line "SCRIPTED-CONTEXT {json}",
// and "SCRIPT FAILED: …" as its final text when a result lacks what the
// next step needs.
import { createMockModel } from "@oh-my-pi/pi-ai";
import type { Context, ToolResultMessage } from "@oh-my-pi/pi-ai";
import type { ExtensionAPI } from "@oh-my-pi/pi-coding-agent";

type Call = { name: string; arguments: Record<string, unknown> };
// What a step learned from earlier results.
interface State {
	tab: string;
}
// A step answers one turn: one call, several (OMP runs them in one batch),
// or the final text.
type Step = (last: Record<string, unknown>, state: State) => Call | Call[] | string;

const base = process.env["AGENTTAB_OMP_SCRIPT_BASE"] ?? "";
const mode = process.env["AGENTTAB_OMP_SCRIPT"] ?? "all";

function textOf(msg: ToolResultMessage): string {
	return msg.content.map((c) => (c.type === "text" ? c.text : "")).join("");
}

function need<T>(v: T | undefined, what: string): T {
	if (v === undefined) throw new Error(`no ${what}`);
	return v;
}

const all: Step[] = [
	() => ({ name: "browser_open", arguments: { url: `${base}/omp-canary-path/counter` } }),
	(last, s) => {
		const tab = last["tab"] as { tab?: string } | undefined;
		s.tab = need(tab?.tab, "tab handle in browser_open's result");
		return { name: "browser_tabs", arguments: {} };
	},
	(_last, s) => ({ name: "browser_snapshot", arguments: { tab: s.tab } }),
	// A snapshot is text for the model (a header, then the tree), not JSON.
	// Two calls in one turn: a wait for the click's effect, then the click.
	// Run in the model's order, the wait ends unsatisfied before the click;
	// run side by side, the click would satisfy it.
	(last, s) => {
		const text = String(last["raw"] ?? "");
		const ref = need(/button "Count"[^\n]*\[ref=(e\d+)\]/.exec(text)?.[1], "ref of the Count button");
		const revision = Number(need(/^page_revision: (\d+)/m.exec(text)?.[1], "page_revision"));
		return [
			{ name: "browser_wait", arguments: { tab: s.tab, until: "text", text: "count: 1", timeout_ms: 1500 } },
			// An agent's own key: the adapter keeps its task's key seed (.keys).
			{ name: "browser_act", arguments: { tab: s.tab, expected_page_revision: revision, idempotency_key: "omp-click-1", actions: [{ kind: "click", ref }] } },
		];
	},
	(_last, s) => ({ name: "browser_wait", arguments: { tab: s.tab, until: "text", text: "count: 1", timeout_ms: 5000 } }),
	(_last, s) => ({ name: "browser_handoff", arguments: { action: "request", tab: s.tab, reason: "captcha" } }),
	(last, s) => {
		const notice = last["notice"] as { notice_id?: string } | undefined;
		return { name: "browser_handoff", arguments: { action: "dismiss", tab: s.tab, notice_id: need(notice?.notice_id, "notice_id") } };
	},
	// A well-formed stage id nobody staged: refused stage_not_found.
	() => ({ name: "browser_commit", arguments: { stage: `stg_${"0".repeat(32)}` } }),
	(_last, s) => ({ name: "browser_credentials", arguments: { action: "prepare", tab: s.tab } }),
	() => ({ name: "browser_profile", arguments: { op: "bookmarks_tree" } }),
	// A value the schema's enum forbids: OMP refuses it itself, nothing reaches AgentTab.
	(_last, s) => ({ name: "browser_wait", arguments: { tab: s.tab, until: "no-such-condition" } }),
	// The task stays open: a later OMP process resuming this session
	// (AGENTTAB_OMP_SCRIPT=resume) takes it back and finishes it.
	() => "paused",
];

// With Developer mode on: browser_developer through OMP's tool execution,
// an evaluation the page answers and a DevTools method the host refuses
// (Storage is addressed by any origin), then the task ends.
const developer: Step[] = [
	() => ({ name: "browser_open", arguments: { url: `${base}/omp-canary-path/developer` } }),
	(last, s) => {
		const tab = last["tab"] as { tab?: string } | undefined;
		s.tab = need(tab?.tab, "tab handle in browser_open's result");
		return { name: "browser_developer", arguments: { tab: s.tab, action: "evaluate", expression: "document.title" } };
	},
	(_last, s) => ({ name: "browser_developer", arguments: { tab: s.tab, action: "cdp", method: "Storage.getCookies" } }),
	() => ({ name: "browser_finish", arguments: {} }),
	() => "developer-done",
];

const scripts: Record<string, Step[]> = {
	all,
	developer,
	tabs: [() => ({ name: "browser_tabs", arguments: {} }), () => "listed-tabs"],
	resume: [() => ({ name: "browser_tabs", arguments: {} }), () => ({ name: "browser_finish", arguments: {} }), () => "done"],
	list: [() => "listed"],
};

export default function scriptedModel(pi: ExtensionAPI): void {
	let reported = false;
	const state: State = { tab: "" };
	const mock = createMockModel({
		id: "scripted",
		provider: "agenttab-scripted",
		handler: (context: Context) => {
			if (!reported) {
				reported = true;
				const tools = (context.tools ?? []).map((t) => ({ name: t.name, description: t.description, parameters: t.parameters }));
				process.stderr.write(`SCRIPTED-CONTEXT ${JSON.stringify({ tools, systemPrompt: context.systemPrompt ?? [] })}\n`);
			}
			const steps = scripts[mode];
			if (steps === undefined) return { content: [`SCRIPT FAILED: no script ${mode}`] };
			// This run's part of the conversation: after its prompt (a resumed
			// session carries the earlier runs' messages before it).
			let from = context.messages.length - 1;
			while (from >= 0 && context.messages[from]?.role !== "user") from--;
			const mine = context.messages.slice(from + 1);
			const turn = mine.filter((m) => m.role === "assistant").length;
			const step = steps[turn];
			if (step === undefined) return { content: ["SCRIPT FAILED: no step left"] };
			const results = mine.filter((m): m is ToolResultMessage => m.role === "toolResult");
			const prev = results[results.length - 1];
			let last: Record<string, unknown> = {};
			if (prev !== undefined && !prev.isError) {
				const text = textOf(prev);
				try {
					last = JSON.parse(text) as Record<string, unknown>;
				} catch {
					last = { raw: text };
				}
			}
			try {
				const next = step(last, state);
				if (typeof next === "string") return { content: [next] };
				const calls = Array.isArray(next) ? next : [next];
				return { content: calls.map((c) => ({ type: "toolCall" as const, name: c.name, arguments: c.arguments })) };
			} catch (err) {
				return { content: [`SCRIPT FAILED at turn ${turn}: ${String(err)}`] };
			}
		},
	});
	pi.registerProvider("agenttab-scripted", {
		baseUrl: "mock://",
		apiKey: "none",
		api: "agenttab-scripted",
		streamSimple: (_model, context, options) => mock.stream(mock, context, options),
		models: [
			{
				id: "scripted",
				name: "AgentTab scripted model",
				reasoning: false,
				input: ["text", "image"],
				cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
				contextWindow: 200000,
				maxTokens: 32000,
			},
		],
	});
}
