// A scripted model for e2e/adapter_pi_test.go: pi-ai's faux provider,
// registered with Pi as provider "agenttab-scripted", model "scripted".
// Each turn reads what a model reads (the user's prompt, the tools Pi
// sends, the previous tool results' text) and answers the next tool call
// of the script the prompt names, so every call goes through Pi's own
// tool-execution path (argument validation included). When the script
// ends it answers one text message, a JSON report of what it saw, which
// the test reads from Pi's event stream.
import {
  type AssistantMessage,
  type Context,
  fauxAssistantMessage,
  fauxText,
  fauxToolCall,
  getApiProvider,
  registerFauxProvider,
} from "@mariozechner/pi-ai";
import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";

/** The prompt: {"script": "browse" | "finish" | "fresh" | "developer" | "list", "base": "http://127.0.0.1:port"}. */
interface Prompt {
  script: string;
  base: string;
}

type Call = { name: string; args: Record<string, unknown> };

/** What the previous results said, as a model would pick it out of their text. */
interface Seen {
  prompt: Prompt;
  texts: string[]; // each tool result's text, in order
}

function json(text: string | undefined): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(text ?? "");
    return typeof v === "object" && v !== null ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function match(text: string | undefined, re: RegExp): string {
  const m = re.exec(text ?? "");
  if (!m?.[1]) throw new Error(`scripted model: ${re} not in ${text}`);
  return m[1];
}

const tab = (s: Seen): string => match(s.texts[0], /"tab":\{"tab":"(tab_[^"]+)"/);
const snapshot = (s: Seen): string | undefined => s.texts[2];

// The browse script: every Standard tool but browser_finish once, in an
// order a model would use them, plus one call that fails Pi's schema check
// (kind "explode"). The task stays open for the finish script, which a
// second Pi run (continuing the session) plays.
const browse: ((s: Seen) => Call)[] = [
  (s) => ({ name: "browser_open", args: { url: `${s.prompt.base}/pi-url-canary-5c1e` } }),
  () => ({ name: "browser_tabs", args: {} }),
  (s) => ({ name: "browser_snapshot", args: { tab: tab(s) } }),
  (s) => ({
    name: "browser_act",
    args: {
      tab: tab(s),
      expected_page_revision: Number(match(snapshot(s), /page_revision: (\d+)/)),
      actions: [{ kind: "click", ref: match(snapshot(s), /button "Count"[^\n]*\[ref=(e\d+)\]/) }],
      // An agent's own key: the adapter keeps the task's key seed (.keys).
      idempotency_key: "pi-click-1",
    },
  }),
  (s) => ({ name: "browser_wait", args: { tab: tab(s), until: "text", text: "count: 1", timeout_ms: 5000 } }),
  (s) => ({ name: "browser_handoff", args: { action: "request", tab: tab(s), reason: "captcha" } }),
  (s) => ({ name: "browser_handoff", args: { action: "dismiss", notice_id: match(s.texts[5], /"notice_id":"([^"]+)"/) } }),
  () => ({ name: "browser_commit", args: { stage: "stg_00000000000000000000000000000000" } }),
  (s) => ({ name: "browser_credentials", args: { action: "prepare", tab: tab(s) } }),
  () => ({ name: "browser_profile", args: { op: "bookmarks_tree" } }),
  (s) => ({ name: "browser_act", args: { tab: tab(s), expected_page_revision: 1, actions: [{ kind: "explode" }] } }),
];

const finish: ((s: Seen) => Call)[] = [() => ({ name: "browser_tabs", args: {} }), () => ({ name: "browser_finish", args: {} })];

// The fresh script, for a new Pi session: what its task holds, then a tab of its own.
const fresh: ((s: Seen) => Call)[] = [() => ({ name: "browser_tabs", args: {} }), (s) => ({ name: "browser_open", args: { url: `${s.prompt.base}/pi-url-canary-5c1e` } })];

// The developer script, with Developer mode on: browser_developer through
// Pi's tool execution, an evaluation the page answers and a DevTools
// method the host refuses (Storage is addressed by any origin), then the
// task ends.
const developer: ((s: Seen) => Call)[] = [
  (s) => ({ name: "browser_open", args: { url: `${s.prompt.base}/pi-url-canary-5c1e` } }),
  (s) => ({ name: "browser_developer", args: { tab: tab(s), action: "evaluate", expression: "document.title" } }),
  (s) => ({ name: "browser_developer", args: { tab: tab(s), action: "cdp", method: "Storage.getCookies" } }),
  () => ({ name: "browser_finish", args: {} }),
];

const scripts: Record<string, ((s: Seen) => Call)[]> = { browse, finish, fresh, developer, list: [] };

export default function scriptedModel(pi: ExtensionAPI): void {
  let firstTools: unknown;
  let firstSystemPrompt: string | undefined;
  const turn = (context: Context): AssistantMessage => {
    firstTools ??= (context.tools ?? []).map((t) => ({ name: t.name, description: t.description, parameters: t.parameters }));
    firstSystemPrompt ??= context.systemPrompt;
    // This prompt's part of the context: a continued session holds the
    // earlier prompts and results before it.
    const start = context.messages.findLastIndex((m) => m.role === "user");
    const user = context.messages[start];
    const promptText = user?.role !== "user" ? "" : typeof user.content === "string" ? user.content : user.content.map((c) => (c.type === "text" ? c.text : "")).join("");
    const prompt = json(promptText) as unknown as Prompt;
    const texts = context.messages.slice(start).flatMap((m) =>
      m.role === "toolResult" ? [m.content.map((c) => (c.type === "text" ? c.text : "")).join("\n")] : [],
    );
    const script = scripts[prompt.script] ?? [];
    const next = script[texts.length];
    if (next) {
      const call = next({ prompt, texts });
      return fauxAssistantMessage(fauxToolCall(call.name, call.args), { stopReason: "toolUse" });
    }
    return fauxAssistantMessage(fauxText(JSON.stringify({ report: { tools: firstTools, systemPrompt: firstSystemPrompt } })));
  };
  const faux = registerFauxProvider({
    api: "agenttab-scripted",
    provider: "agenttab-scripted",
    models: [{ id: "scripted" }],
    // One chunk per block: Pi prints each partial message whole, so small
    // chunks of a long report would print it thousands of times.
    tokenSize: { min: 1_000_000, max: 1_000_000 },
  });
  faux.setResponses(Array.from({ length: 64 }, () => turn));
  const provider = getApiProvider(faux.api);
  if (!provider) throw new Error("scripted model: the faux api is not registered");
  pi.registerProvider("agenttab-scripted", {
    baseUrl: "http://127.0.0.1:9",
    apiKey: "scripted-model-needs-no-key",
    api: faux.api,
    streamSimple: provider.streamSimple,
    models: [
      {
        id: "scripted",
        name: "Scripted model",
        reasoning: false,
        input: ["text", "image"],
        cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
        contextWindow: 1_000_000,
        maxTokens: 16_384,
      },
    ],
  });
}
