// Calling the page agent (src/page, contract in src/shared/page-agent.ts)
// in AgentTab's isolated world of one frame: the debugger route's
// transport of the typed client (agent-client/client.ts), which checks the
// answers. The world is made with Page.createIsolatedWorld, which returns the same
// context for the same name and frame (and, observed in Chromium 156, the
// same one again after the debugger detached and re-attached: the world
// and its registry live as long as the document).
//
// Every attachment also asks Chrome to evaluate the agent in that world of
// each new document as it is created (preinstall), so the first call into
// a freshly loaded document finds it there; a document that was created
// before the attachment gets it on the first call that finds it missing.
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
// focusedElement, elementAt), returned as an object. Without the agent it
// throws MISSING, so the caller installs it and asks again.
const MISSING = "AgentTab's page agent is not installed";
const ELEMENT = `function (name, args) {
  const agent = globalThis.${PAGE_AGENT_GLOBAL};
  if (agent === undefined) throw new Error(${JSON.stringify(MISSING)});
  return agent[name].apply(agent, args);
}`;

/**
 * Has Chrome evaluate the page agent (source) in AgentTab's world of every
 * document the session's frames load from now on, as each is created and
 * before the page's own scripts run, and at once in the documents already
 * there (runImmediately): the first snapshot of a document then neither
 * makes the world nor evaluates the agent (3–6 ms a document,
 * docs/benchmarks.md). Observed in Chromium 156: the world is the one
 * Page.createIsolatedWorld returns for the same name, also after the
 * debugger detached and attached again (the agent installs itself once
 * per world, src/page/agent.ts, so its registry and refs stay), and
 * runImmediately reaches the same-process child frames too.
 */
export async function preinstall(session: TabSession, sessionId: string | undefined, source: string): Promise<void> {
  await session.send("Page.addScriptToEvaluateOnNewDocument", { source, worldName: PAGE_AGENT_WORLD, runImmediately: true }, { sessionId, duringDialog: true });
}

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

function worldKey(frame: FrameEntry): string {
  return `${frame.sessionId ?? ""}|${frame.doc.frameId}|${frame.doc.loaderId}`;
}

/** The page agent's worlds in one tab: one per frame document, made once, the agent installed when found missing. */
export class Worlds {
  private readonly contexts = new Map<string, Promise<number>>();
  /** Installations in progress or done by this worker, per world (the same key as contexts). */
  private readonly installs = new Map<string, Promise<void>>();

  constructor(private readonly source: string) {}

  clear(): void {
    this.contexts.clear();
    this.installs.clear();
  }

  /** The execution context of the frame's world (the agent may still be missing there: see call). */
  context(session: TabSession, frame: FrameEntry): Promise<number> {
    const key = worldKey(frame);
    let ctx = this.contexts.get(key);
    if (ctx === undefined) {
      ctx = this.world(session, frame);
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
    const send = (contextId: number): Promise<Fields> =>
      session.send(
        "Runtime.callFunctionOn",
        { functionDeclaration: CALL, executionContextId: contextId, arguments: [{ value: name }, { value: args }], returnByValue: true, awaitPromise: true },
        { ...opts, sessionId: frame.sessionId },
      );
    const missing = (r: Fields): boolean => exceptionText(r) === undefined && fieldsOf(fieldsOf(r["result"], "result")["value"], `${name}'s answer`)["missing"] === true;
    const r = await this.invoke(session, frame, send, missing);
    const thrown = exceptionText(r);
    if (thrown !== undefined) throw new AgentError(`the page agent's ${name} failed: ${thrown}`);
    return fieldsOf(fieldsOf(r["result"], "result")["value"], `${name}'s answer`)["value"];
  }

  /** The remote object id of the element the agent's function name answers with args, or undefined when it answers none. */
  private async elementOf(session: TabSession, frame: FrameEntry, name: ElementMethod, args: readonly unknown[]): Promise<string | undefined> {
    const send = (contextId: number): Promise<Fields> =>
      session.send(
        "Runtime.callFunctionOn",
        { functionDeclaration: ELEMENT, executionContextId: contextId, arguments: [{ value: name }, { value: args }], returnByValue: false, objectGroup: PAGE_AGENT_WORLD },
        { sessionId: frame.sessionId },
      );
    const r = await this.invoke(session, frame, send, (r) => exceptionText(r)?.includes(MISSING) === true);
    const thrown = exceptionText(r);
    if (thrown !== undefined) throw new AgentError(`the page agent's ${name} failed: ${thrown}`);
    return optStr(fieldsOf(r["result"], "result"), "objectId");
  }

  /**
   * Sends one call into the frame's world; when its answer says the agent
   * is missing (a document created before the attachment, which preinstall
   * did not reach), installs it and sends the call once more.
   */
  private async invoke(session: TabSession, frame: FrameEntry, send: (contextId: number) => Promise<Fields>, missing: (r: Fields) => boolean): Promise<Fields> {
    const contextId = await this.context(session, frame);
    const r = await this.run(frame, () => send(contextId));
    if (!missing(r)) return r;
    await this.install(session, frame, contextId);
    const again = await this.run(frame, () => send(contextId));
    if (missing(again)) {
      this.forget(frame);
      throw new FrameGone("the page agent is missing from its world");
    }
    return again;
  }

  private forget(frame: FrameEntry): void {
    this.contexts.delete(worldKey(frame));
    this.installs.delete(worldKey(frame));
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

  /** The frame's world (made now, or the one preinstall or an earlier call made: the same name gives the same context). */
  private async world(session: TabSession, frame: FrameEntry): Promise<number> {
    const world = await this.run(frame, () =>
      session.send(
        "Page.createIsolatedWorld",
        { frameId: frame.doc.frameId, worldName: PAGE_AGENT_WORLD, grantUniveralAccess: false },
        { sessionId: frame.sessionId },
      ),
    );
    return numField(world, "executionContextId", "Page.createIsolatedWorld");
  }

  /** Evaluates the agent in the world, once per world however many calls find it missing together. */
  private install(session: TabSession, frame: FrameEntry, contextId: number): Promise<void> {
    const key = worldKey(frame);
    let done = this.installs.get(key);
    if (done === undefined) {
      done = this.evaluate(session, frame, contextId);
      this.installs.set(key, done);
      done.catch(() => this.installs.delete(key));
    }
    return done;
  }

  private async evaluate(session: TabSession, frame: FrameEntry, contextId: number): Promise<void> {
    // The agent installs itself once per world and keeps its registry when
    // evaluated again (src/page/agent.ts).
    const r = await this.run(frame, () =>
      session.send("Runtime.evaluate", { expression: this.source, contextId, returnByValue: true }, { sessionId: frame.sessionId }),
    );
    const thrown = exceptionText(r);
    if (thrown !== undefined) throw new AgentError(`the page agent did not install: ${thrown}`);
  }
}
