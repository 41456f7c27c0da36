// AgentTab's native Pi extension: registers the Standard browser tools (and
// browser_developer while the user's policy turns Developer mode on) and
// runs each call through the shared Core client (../core) on
// STATE/core.sock. One AgentTab per extension runtime; its resume
// capability lives in the Core client's private file under STATE/adapters/
// and never in Pi's session, prompt or output.
import { readFileSync } from "node:fs";

import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";

import { AgentTab, instructions, tools } from "../core/src/index.ts";
import { piTool } from "./tool.ts";
import { isCardDetails } from "./result.ts";

/** adapterVersion is this package's version (package.json), sent in the Core hello. */
function adapterVersion(): string {
  const pkg: unknown = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8"));
  return typeof pkg === "object" && pkg !== null && "version" in pkg && typeof pkg.version === "string" ? pkg.version : "unknown";
}

/** The server instructions, one Pi guideline bullet per paragraph. */
const guidelines = instructions.split(/\n\s*\n/).map((p) => p.trim()).filter((p) => p !== "");

export default function agenttab(pi: ExtensionAPI): void {
  let tab: AgentTab | undefined;
  let sessionId: string | undefined;
  const connection = (): AgentTab => {
    tab ??= AgentTab.open({ adapter: "pi", adapterVersion: adapterVersion(), ...(sessionId === undefined ? {} : { conversationId: sessionId }) });
    return tab;
  };
  const ours = new Set<string>();
  const register = (spec: (typeof tools)[number]): void => {
    pi.registerTool(piTool(spec, connection, guidelines));
    ours.add(spec.name);
  };
  for (const spec of tools) {
    if (!spec.developerOnly) register(spec);
  }

  pi.on("session_start", (_event, ctx) => {
    sessionId = ctx.sessionManager.getSessionId();
  });

  // browser_developer exists only while the host's hello says Developer
  // mode is on; asked before each prompt so the first turn already lists it.
  // No host yet (Chrome not started) means not now: the next prompt asks
  // again, and the Standard tools answer the failure with its recovery.
  pi.on("before_agent_start", async () => {
    const developer = tools.filter((spec) => spec.developerOnly && !ours.has(spec.name));
    if (developer.length === 0) return;
    const enabled = await connection()
      .developerEnabled()
      .catch(() => false);
    if (enabled) for (const spec of developer) register(spec);
  });

  // A failed AgentTab result reaches the model as a Pi error (isError)
  // with its whole text (code, recovery, outcome). It is returned, not
  // thrown, so its card stays in details.
  pi.on("tool_result", (event) => {
    if (ours.has(event.toolName) && isCardDetails(event.details) && event.details.failed) return { isError: true };
    return undefined;
  });

  pi.on("session_shutdown", async () => {
    const closing = tab;
    tab = undefined;
    await closing?.close();
  });
}
