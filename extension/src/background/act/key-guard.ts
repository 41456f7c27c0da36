// No key reaches a password, one-time-code or payment-card field. Source
// of truth: issue 9 ("any key input (press, chords, type) whose target or
// focused element at dispatch time is a sensitive field is refused,
// checked in the page right before each key"); which fields are sensitive
// is decided by one rule (src/shared/sensitive.ts) and nowhere else.
//
// The check asks every frame of the tab for its focused element: focus
// can sit in a cross-site frame (another process, another session) and
// the frame that holds it is not named anywhere cheaper. Chrome clears the
// focused element of the document focus leaves, so a field focused once
// does not refuse keys after focus moved on (e2e TestKeysNeverReachSensitiveFields).
import { CodeSensitiveField, OutcomeDispatched, OutcomeNotStarted, type Outcome } from "../../protocol/generated";
import type { FocusedField } from "../../shared/page-agent";
import { isSensitiveField } from "../../shared/sensitive";
import type { FieldAttributes } from "../../shared/sensitive";
import { FrameGone } from "../cdp/agent";
import type { FrameEntry } from "../cdp/frames";
import type { Fields } from "../cdp/read";
import { fieldsOf, optStr } from "../cdp/read";
import { Failure } from "../failure";
import type { Page } from "../page-tab";
import type { Progress } from "./receipts";

/** The refusal of input into (or, for a drag, text out of) a sensitive field: what describes it, never its value. */
export function sensitiveField(what: string, outcome: Outcome = OutcomeNotStarted, refuses = "sends no keys or text into it"): Failure {
  return new Failure(
    CodeSensitiveField,
    outcome,
    `${what} is a password, one-time-code or payment-card field; AgentTab ${refuses}`,
    "Ask the user to type it into the tab themselves (name the field), then go on from the next step; AgentTab never sends keys, text or drops into such a field.",
  );
}

/** A frame document replaced while it is asked is asked again, this many times in all. */
const ROUNDS = 3;

/**
 * Throws sensitive_field when the element that has focus now, in any
 * frame, is a sensitive field. Called right before each key or text the
 * debugger dispatches; the outcome says whether the step had sent
 * anything before (a click into the field, a modifier key).
 */
export async function refuseSensitiveFocus(page: Page, progress: Progress): Promise<void> {
  for (let round = 1; ; round++) {
    const frames = [...(await page.frames()).frames.values()];
    try {
      const found = await Promise.all(frames.map((frame) => sensitiveFocus(page, frame)));
      const what = found.find((w) => w !== undefined);
      if (what !== undefined) throw sensitiveField(what, progress.dispatched ? OutcomeDispatched : OutcomeNotStarted);
      return;
    } catch (e) {
      // A frame that navigated meanwhile: its next document is in the next read.
      if (!(e instanceof FrameGone) || round === ROUNDS) throw e;
    }
  }
}

/** The description of the frame's focused element when it is sensitive. */
async function sensitiveFocus(page: Page, frame: FrameEntry): Promise<string | undefined> {
  const f = focusedField(await page.call(frame, "focusedField", []));
  if (f.sensitive) return f.description || "the focused field";
  if (f.sealed && (await withElement(page, frame, "focusedElement", [], (objectId) => sealedSensitive(page, frame, objectId)))) {
    return `a field inside ${f.description || "a closed shadow root"}`;
  }
  return undefined;
}

/** A page agent's FocusedField answer (or the FocusedField part of a PointField). */
export function focusedField(v: unknown): FocusedField {
  const f = fieldsOf(v, "a focused field");
  return { sensitive: f["sensitive"] === true, description: optStr(f, "description") ?? "", sealed: f["sealed"] === true };
}

/**
 * Runs f on the remote object of the element the page agent's function
 * name answers with args, released afterwards; undefined when it answers
 * none.
 */
export async function withElement<T>(page: Page, frame: FrameEntry, name: string, args: unknown[], f: (objectId: string) => Promise<T>): Promise<T | undefined> {
  const objectId = await page.tab.worlds.elementOf(page.session, frame, name, args);
  if (objectId === undefined) return undefined;
  try {
    return await f(objectId);
  } finally {
    page.session.send("Runtime.releaseObject", { objectId }, { sessionId: frame.sessionId }).catch(() => undefined);
  }
}

/**
 * Focus (or a drag's point) is inside a closed shadow root the page agent
 * cannot enter: the DOM domain can (pierce). Any sensitive field in the
 * element's closed shadow trees counts, as the one focused (or pointed
 * at) may be it; frames inside are asked on their own. The element is
 * described one level deep and only its closed roots whole, so a large
 * element with no closed root costs one small answer.
 */
export async function sealedSensitive(page: Page, frame: FrameEntry, objectId: string): Promise<boolean> {
  const sessionId = frame.sessionId;
  const describe = async (target: { objectId: string } | { backendNodeId: number }, depth: number): Promise<Fields> =>
    fieldsOf((await page.session.send("DOM.describeNode", { ...target, depth, pierce: true }, { sessionId }))["node"], "DOM.describeNode.node");
  for (const root of shadowRoots(await describe({ objectId }, 1))) {
    const backendNodeId = root["backendNodeId"];
    if (root["shadowRootType"] !== "closed" || typeof backendNodeId !== "number") continue;
    if (holdsSensitive(await describe({ backendNodeId }, -1))) return true;
  }
  return false;
}

function shadowRoots(node: Fields): Fields[] {
  const roots = node["shadowRoots"];
  return Array.isArray(roots) ? roots.map((r) => fieldsOf(r, "shadowRoots[]")) : [];
}

/** Whether a DOM.Node subtree (its shadow trees included, frames not) holds a sensitive input. */
function holdsSensitive(node: Fields): boolean {
  if (node["localName"] === "input" && isSensitiveField(attributesOf(node))) return true;
  const children = node["children"];
  const kids = Array.isArray(children) ? children.map((c) => fieldsOf(c, "children[]")) : [];
  return [...kids, ...shadowRoots(node)].some(holdsSensitive);
}

/** DOM.Node attributes are a flat [name, value, …] list. */
function attributesOf(node: Fields): FieldAttributes {
  const raw = node["attributes"];
  const list: unknown[] = Array.isArray(raw) ? raw : [];
  const get = (name: string): string => {
    for (let i = 0; i + 1 < list.length; i += 2) {
      const key = list[i];
      const value = list[i + 1];
      if (typeof key === "string" && key.toLowerCase() === name && typeof value === "string") return value;
    }
    return "";
  };
  return { type: get("type"), autocomplete: get("autocomplete"), name: get("name"), id: get("id") };
}
