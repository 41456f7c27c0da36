// AgentTab's native Pi extension: registers the Standard browser tools (and
// browser_developer while the user's policy turns Developer mode on) and
// runs each call through the shared Core client (../core) on
// STATE/core.sock. One AgentTab task per Pi session: the AgentTab is opened
// once session_start names the session, for that session id, so a new Pi
// session (a run without --continue, /new, a fork) is a new task and
// resuming a session (--continue, --session, /resume) resumes its task. Its
// resume capability lives in the Core client's private file under
// STATE/adapters/ and never in Pi's session, prompt or output.
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
  // The session's AgentTab; undefined before session_start and after
  // session_shutdown, so no call can run in a task that is not its session's.
  let current: { session: string; tab: AgentTab } | undefined;
  const connection = (): AgentTab => {
    if (current === undefined) {
      throw new Error("AgentTab: this Pi session has not started (or has ended), so it has no AgentTab task; send the prompt again in the running session.");
    }
    return current.tab;
  };
  const closeCurrent = async (): Promise<void> => {
    const closing = current;
    current = undefined;
    await closing?.tab.close();
  };

  const ours = new Set<string>();
  const register = (spec: (typeof tools)[number]): void => {
    pi.registerTool(piTool(spec, connection, guidelines));
    ours.add(spec.name);
  };
  for (const spec of tools) {
    if (!spec.developerOnly) register(spec);
  }

  // Pi gives each session (startup, /new, /resume, fork, reload) a fresh
  // extension instance: the old one gets session_shutdown, this one
  // session_start. A session_start for another session than the open one
  // (a Pi that reuses the instance) closes the old task's AgentTab first.
  // session_before_switch is not used: another extension may cancel the
  // switch after it, and the old session then goes on with its task.
  pi.on("session_start", async (_event, ctx) => {
    const session = ctx.sessionManager.getSessionId();
    if (current?.session === session) return;
    await closeCurrent();
    current = {
      session,
      tab: AgentTab.open({ adapter: "pi", adapterVersion: adapterVersion(), session }),
    };
  });

  // browser_developer exists only while the host's hello says Developer
  // mode is on; asked before each prompt so the first turn already lists it.
  // Asked again on every prompt while it is off, because the user may turn
  // Developer mode on in policy.json and restart Chrome while Pi runs. The
  // probe is bounded by the Core client (developerEnabled never waits for a
  // host that is not there longer than its probe bound), so a missing host
  // delays a prompt by at most that bound: it means "not now", and the
  // Standard tools answer the failure with its recovery.
  pi.on("before_agent_start", async () => {
    const developer = tools.filter((spec) => spec.developerOnly && !ours.has(spec.name));
    if (developer.length === 0 || current === undefined) return;
    const enabled = await current.tab.developerEnabled().catch(() => false);
    if (enabled) for (const spec of developer) register(spec);
  });

  // A failed AgentTab result reaches the model as a Pi error (isError)
  // with its whole text (code, recovery, outcome). It is returned, not
  // thrown, so its card stays in details.
  pi.on("tool_result", (event) => {
    if (ours.has(event.toolName) && isCardDetails(event.details) && event.details.failed) return { isError: true };
    return undefined;
  });

  pi.on("session_shutdown", closeCurrent);
}
