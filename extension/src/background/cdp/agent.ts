// Calling the page agent (src/page, contract in src/shared/page-agent.ts)
// in AgentTab's isolated world of one frame: the debugger route's
// transport of the typed client (agent-client/client.ts), which checks the
// answers. The world is made with Page.createIsolatedWorld, which returns the same
// context for the same name and frame (and, observed in Chromium 156, the
// same one again after the debugger detached and re-attached: the world
// and its registry live as long as the document).
import { PAGE_AGENT_GLOBAL, PAGE_AGENT_WORLD } from "../../shared/page-agent";
import type { ElementMethod, ValueMethod } from "../agent-client/answers";
import type { AgentClient, ElementClient } from "../agent-client/client";
import { agentClient, elementClient } from "../agent-client/client";
import { AgentError, FrameGone } from "../agent-client/errors";
import { errorText } from "../log";
import type { FrameEntry } from "./frames";
import type { Fields } from "./read";
import { fieldsOf, numField, optStr } from "./read";
import type { SendOptions, TabSession } from "./session";

// Called with Runtime.callFunctionOn (awaitPromise) in the world's global
// scope; the answer is wrapped so that an undefined result survives
// returnByValue, and an asynchronous function's (aim) is awaited first.
const CALL = `function (name, args) {
  const agent = globalThis.${PAGE_AGENT_GLOBAL};
  if (agent === undefined) return { missing: true };
  const value = agent[name].apply(agent, args);
  return value instanceof Promise ? value.then((v) => ({ value: v })) : { value };
}`;

// The element one of the agent's functions hands out (element,
// focusedElement, elementAt), returned as an object.
const ELEMENT = `function (name, args) {
  const agent = globalThis.${PAGE_AGENT_GLOBAL};
  return agent === undefined ? null : agent[name].apply(agent, args);
}`;

// Chrome's words for a call whose document went away. "Inspected target
// navigated or closed" was observed in Chromium 156 under CPU load: a
// click on a link navigated the page before the call that follows the
// click (act/pointer.ts handled) reached it.
function contextGone(e: unknown): boolean {
  const t = errorText(e);
  return (
    t.includes("Cannot find context") ||
    t.includes("context was destroyed") ||
    t.includes("No frame with given id") ||
    t.includes("No frame for given id") ||
    t.includes("Inspected target navigated or closed")
  );
}

function exceptionText(r: Fields): string | undefined {
  const d = r["exceptionDetails"];
  if (d === undefined) return undefined;
  const f = fieldsOf(d, "exceptionDetails");
  const ex = f["exception"];
  const described = typeof ex === "object" && ex !== null && "description" in ex ? ex.description : undefined;
  return typeof described === "string" ? described.split("\n")[0] ?? "" : (optStr(f, "text") ?? "exception");
}

/** The page agent's worlds in one tab: one per frame document, made and installed once. */
export class Worlds {
  private readonly contexts = new Map<string, Promise<number>>();

  constructor(private readonly source: string) {}

  clear(): void {
    this.contexts.clear();
  }

  /** The execution context of the frame's world, with the agent installed. */
  context(session: TabSession, frame: FrameEntry): Promise<number> {
    const key = `${frame.sessionId ?? ""}|${frame.doc.frameId}|${frame.doc.loaderId}`;
    let ctx = this.contexts.get(key);
    if (ctx === undefined) {
      ctx = this.install(session, frame);
      this.contexts.set(key, ctx);
      ctx.catch(() => this.contexts.delete(key));
    }
    return ctx;
  }

  /** The typed client of the frame's page agent, through this session (opts for every call it makes). */
  agent(session: TabSession, frame: FrameEntry, opts: SendOptions = {}): AgentClient {
    return agentClient((name, args) => this.call(session, frame, name, args, opts));
  }

  /** The frame's page agent's element functions, answered with remote object ids. */
  elements(session: TabSession, frame: FrameEntry): ElementClient {
    return elementClient((name, args) => this.elementOf(session, frame, name, args));
  }

  /** Calls one function of the frame's agent and returns its raw (JSON) answer: the client's transport. */
  private async call(session: TabSession, frame: FrameEntry, name: ValueMethod, args: readonly unknown[], opts: SendOptions): Promise<unknown> {
    const contextId = await this.context(session, frame);
    const r = await this.run(frame, () =>
      session.send(
        "Runtime.callFunctionOn",
        { functionDeclaration: CALL, executionContextId: contextId, arguments: [{ value: name }, { value: args }], returnByValue: true, awaitPromise: true },
        { ...opts, sessionId: frame.sessionId },
      ),
    );
    const thrown = exceptionText(r);
    if (thrown !== undefined) throw new AgentError(`the page agent's ${name} failed: ${thrown}`);
    const answer = fieldsOf(fieldsOf(r["result"], "result")["value"], `${name}'s answer`);
    if (answer["missing"] === true) {
      this.forget(frame);
      throw new FrameGone("the page agent is missing from its world");
    }
    return answer["value"];
  }

  /** The remote object id of the element the agent's function name answers with args, or undefined when it answers none. */
  private async elementOf(session: TabSession, frame: FrameEntry, name: ElementMethod, args: readonly unknown[]): Promise<string | undefined> {
    const contextId = await this.context(session, frame);
    const r = await this.run(frame, () =>
      session.send(
        "Runtime.callFunctionOn",
        { functionDeclaration: ELEMENT, executionContextId: contextId, arguments: [{ value: name }, { value: args }], returnByValue: false, objectGroup: PAGE_AGENT_WORLD },
        { sessionId: frame.sessionId },
      ),
    );
    const thrown = exceptionText(r);
    if (thrown !== undefined) throw new AgentError(`the page agent's ${name} failed: ${thrown}`);
    return optStr(fieldsOf(r["result"], "result"), "objectId");
  }

  private forget(frame: FrameEntry): void {
    this.contexts.delete(`${frame.sessionId ?? ""}|${frame.doc.frameId}|${frame.doc.loaderId}`);
  }

  private async run(frame: FrameEntry, f: () => Promise<Fields>): Promise<Fields> {
    try {
      return await f();
    } catch (e) {
      if (!contextGone(e)) throw e;
      this.forget(frame);
      throw new FrameGone(errorText(e));
    }
  }

  private async install(session: TabSession, frame: FrameEntry): Promise<number> {
    const world = await this.run(frame, () =>
      session.send(
        "Page.createIsolatedWorld",
        { frameId: frame.doc.frameId, worldName: PAGE_AGENT_WORLD, grantUniveralAccess: false },
        { sessionId: frame.sessionId },
      ),
    );
    const contextId = numField(world, "executionContextId", "Page.createIsolatedWorld");
    // The agent installs itself once per world and keeps its registry when
    // evaluated again (src/page/agent.ts).
    const r = await this.run(frame, () =>
      session.send("Runtime.evaluate", { expression: this.source, contextId, returnByValue: true }, { sessionId: frame.sessionId }),
    );
    const thrown = exceptionText(r);
    if (thrown !== undefined) throw new AgentError(`the page agent did not install: ${thrown}`);
    return contextId;
  }
}
