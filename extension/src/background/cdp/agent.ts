// Calling the page agent (src/page, contract in src/shared/page-agent.ts)
// in AgentTab's isolated world of one frame, and reading its answers. The
// world is made with Page.createIsolatedWorld, which returns the same
// context for the same name and frame (and, observed in Chromium 156, the
// same one again after the debugger detached and re-attached: the world
// and its registry live as long as the document).
import { PAGE_AGENT_GLOBAL, PAGE_AGENT_WORLD } from "../../shared/page-agent";
import type { AimLooks, FrameSnapshot, HitTest, NotActionable, TargetInfo } from "../../shared/page-agent";
import { errorText } from "../log";
import type { FrameEntry } from "./frames";
import type { Fields } from "./read";
import { fieldsOf, numField, optStr, ProtocolShapeError, strField } from "./read";
import type { SendOptions, TabSession } from "./session";

/** The frame's document went away (navigation, removal) while AgentTab used it. */
export class FrameGone extends Error {
  constructor(what: string) {
    super(`the frame's document is gone: ${what}`);
    this.name = "FrameGone";
  }
}

/** The page agent threw (a bug in it, or a page that breaks an assumption). */
export class AgentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "AgentError";
  }
}

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

  /** Calls one function of the frame's agent and returns its (JSON) answer. */
  async call(session: TabSession, frame: FrameEntry, name: string, args: unknown[], opts: SendOptions = {}): Promise<unknown> {
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

  /** The remote object id of the element behind ref, or undefined when it does not resolve. */
  element(session: TabSession, frame: FrameEntry, ref: string): Promise<string | undefined> {
    return this.elementOf(session, frame, "element", [ref]);
  }

  /** The remote object id of the element the agent's function name answers with args, or undefined when it answers none. */
  async elementOf(session: TabSession, frame: FrameEntry, name: string, args: unknown[]): Promise<string | undefined> {
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

// Answers, read defensively: the agent is ours, but it runs in a page.

export function frameSnapshot(v: unknown): FrameSnapshot {
  const f = fieldsOf(v, "a frame snapshot");
  const frames = f["frames"];
  if (!Array.isArray(frames) || typeof f["truncated"] !== "boolean") throw new ProtocolShapeError("a frame snapshot's frames");
  const snap: FrameSnapshot = {
    text: strField(f, "text", "snapshot"),
    truncated: f["truncated"],
    nextId: numField(f, "nextId", "snapshot"),
    frames: frames.map((x) => {
      const g = fieldsOf(x, "snapshot.frames[]");
      return { ref: strField(g, "ref", "frame"), line: numField(g, "line", "frame") };
    }),
    title: strField(f, "title", "snapshot"),
    url: strField(f, "url", "snapshot"),
  };
  if (typeof f["totalChars"] === "number") snap.totalChars = f["totalChars"];
  return snap;
}

const NOT_ACTIONABLE: readonly string[] = ["detached", "hidden", "transparent", "disabled", "not_editable", "no_box"];

function isNotActionable(v: unknown): v is NotActionable {
  return typeof v === "string" && NOT_ACTIONABLE.includes(v);
}

export function targetInfo(v: unknown): TargetInfo {
  const f = fieldsOf(v, "a target");
  const info: TargetInfo = {
    ok: f["ok"] === true,
    x: numField(f, "x", "target"),
    y: numField(f, "y", "target"),
    width: numField(f, "width", "target"),
    height: numField(f, "height", "target"),
    sensitive: f["sensitive"] === true,
    description: optStr(f, "description") ?? "",
  };
  if (isNotActionable(f["reason"])) info.reason = f["reason"];
  if (typeof f["editable"] === "boolean") info.editable = f["editable"];
  // page/motion.ts: a running animation moves it (a hidden tab's two looks rarely see it).
  if (f["moving"] === true) info.moving = true;
  return info;
}

export function aimLooks(v: unknown): AimLooks {
  const f = fieldsOf(v, "an aim");
  const looks: AimLooks = { first: targetInfo(f["first"]) };
  if (f["second"] !== undefined) looks.second = targetInfo(f["second"]);
  if (f["hit"] !== undefined) looks.hit = hitTest(f["hit"]);
  return looks;
}

export function hitTest(v: unknown): HitTest {
  const f = fieldsOf(v, "a hit test");
  const covering = optStr(f, "covering");
  return covering === undefined ? { ok: f["ok"] === true } : { ok: f["ok"] === true, covering };
}

export function bool(v: unknown): boolean {
  return v === true;
}

export function optNumber(v: unknown): number | undefined {
  return typeof v === "number" ? v : undefined;
}

export function optBool(v: unknown): boolean | undefined {
  return typeof v === "boolean" ? v : undefined;
}

export function position(v: unknown): { x: number; y: number } {
  const f = fieldsOf(v, "a scroll position");
  return { x: numField(f, "x", "position"), y: numField(f, "y", "position") };
}

export function selection(v: unknown): { ok: boolean; selected: string[]; error?: string } {
  const f = fieldsOf(v, "a selection");
  const selected = Array.isArray(f["selected"]) ? f["selected"].filter((s): s is string => typeof s === "string") : [];
  const error = optStr(f, "error");
  return error === undefined ? { ok: f["ok"] === true, selected } : { ok: f["ok"] === true, selected, error };
}

export type ElementState = "visible" | "hidden" | "enabled" | "disabled" | "gone";

export function elementState(v: unknown): ElementState {
  if (v === "visible" || v === "hidden" || v === "enabled" || v === "disabled" || v === "gone") return v;
  throw new ProtocolShapeError("an element state");
}
