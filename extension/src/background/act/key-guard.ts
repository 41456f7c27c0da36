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
// When focus is in a child frame its parent's focused element is the
// frame's owner (the <iframe>); a frame the worker could not ask (a
// cross-site one not attached yet, one whose tree could not be read) is
// refused, as drop-guard.ts refuses a drop into one: the safe side.
import { CodeSensitiveField, OutcomeDispatched, OutcomeNotStarted, type Outcome } from "../../protocol/generated";
import { appliesTo, isSensitiveField } from "../../shared/sensitive";
import type { FieldAttributes } from "../../shared/sensitive";
import type { FocusedField } from "../../shared/page-agent";
import type { ElementClient } from "../agent-client/client";
import { FrameGone } from "../agent-client/errors";
import type { FrameEntry, FrameIndex } from "../cdp/frames";
import type { Fields } from "../cdp/read";
import { fieldsOf, optStr } from "../cdp/read";
import { Failure, failure } from "../native/failure";
import type { Page } from "../pagework/page-tab";
import type { Progress } from "./receipts";

/** The refusal of input into (or, for a drag, text out of) a sensitive field: what describes it, never its value. */
export function sensitiveField(what: string, outcome: Outcome = OutcomeNotStarted, refuses = "sends no keys or text into it"): Failure {
  return failure(CodeSensitiveField, `${what} is a password, one-time-code or payment-card field; AgentTab ${refuses}`, outcome);
}

/** What a check after text says when it finds a sensitive field focused: the text went out before focus was known to be there. */
export const MAY_HAVE_REACHED = "sent text that may have reached it: the page moved focus there as the text went in";

/** A frame document replaced while it is asked is asked again, this many times in all. */
const ROUNDS = 3;

/** How a check asks (typing.ts: the frames of the step, and the field's frame's waited answer). */
export interface FocusAsk {
  /**
   * The frames to ask: the ones the step located its field in. A frame
   * added since is not missed: its owner is the focused element of a
   * frame asked, and a child frame the index does not list is refused
   * (unseen). When a frame's document went away the tab is read again.
   */
  index?: FrameIndex;
  /** Answers a frame's focused field instead of its focusedField(); undefined: ask focusedField(). */
  answer?: (frame: FrameEntry) => Promise<FocusedField> | undefined;
}

/**
 * Throws sensitive_field when the element that has focus now, in any
 * frame, is a sensitive field. Called right before each key or text the
 * debugger dispatches; the outcome says whether the step had sent
 * anything before (a click into the field, a modifier key). refuses says
 * what AgentTab does (or, checked after the fact, did) about the field.
 */
export async function refuseSensitiveFocus(page: Page, progress: Progress, refuses = "sends no keys or text into it", ask: FocusAsk = {}): Promise<void> {
  let known = ask.index;
  for (let round = 1; ; round++) {
    const index = known ?? (await page.frames());
    let found: (Found | undefined)[];
    try {
      found = await Promise.all(
        [...index.frames.values()].map(async (frame) => sensitiveFocus(page, index, frame, await (ask.answer?.(frame) ?? page.agent(frame).focusedField()))),
      );
    } catch (e) {
      // A frame that navigated meanwhile: its next document is in the next
      // read. A frame of the step's index may be gone altogether (its
      // session detached): the tab is read again.
      if (round === ROUNDS || (!(e instanceof FrameGone) && known === undefined)) throw e;
      known = undefined;
      continue;
    }
    const hit = found.find((f) => f !== undefined);
    if (hit !== undefined) throw refusal(hit, progress.dispatched ? OutcomeDispatched : OutcomeNotStarted, refuses);
    return;
  }
}

/** What is sensitive where input would go: a field's description, or a frame owner's whose document AgentTab did not ask (unseen). */
export interface Found {
  what: string;
  unseen: boolean;
}

/** The refusal of what was found; where says where it is ("under the pointer"). */
export function refusal(found: Found, outcome: Outcome, refuses: string, where = ""): Failure {
  if (!found.unseen) return sensitiveField(found.what, outcome, refuses);
  return sensitiveField(`whatever ${found.what} shows${where} (a frame AgentTab cannot look into)`, outcome, `${refuses}, as it may be one`);
}

/** What is sensitive about the frame's focused element (f, as the frame answered), if anything. */
async function sensitiveFocus(page: Page, index: FrameIndex, frame: FrameEntry, f: FocusedField): Promise<Found | undefined> {
  if (f.sensitive) return { what: f.description || "the focused field", unseen: false };
  if (!f.sealed && !f.frame) return undefined;
  return withElement(page, frame, (elements) => elements.focusedElement(), async (objectId): Promise<Found | undefined> => {
    if (f.sealed) return sealedSensitive(page, index, frame, objectId, f.description);
    // The frame inside answers for its own focus when it was asked.
    const childId = await childFrameOf(page, frame, objectId);
    if (childId === undefined || index.frames.has(childId)) return undefined;
    return { what: f.description || "the focused frame", unseen: true };
  });
}

/**
 * The id of the frame a frame owner element (its remote object in frame)
 * shows; undefined when it shows none (an <object> showing an image has
 * no document to put text in).
 */
export async function childFrameOf(page: Page, frame: FrameEntry, objectId: string): Promise<string | undefined> {
  const owner = await page.session.send("DOM.describeNode", { objectId, depth: 0 }, { sessionId: frame.sessionId });
  return optStr(fieldsOf(owner["node"], "DOM.describeNode.node"), "frameId");
}

/**
 * Runs f on the remote object of the element that one of the frame's page
 * agent's element functions answers (pick), released afterwards;
 * undefined when it answers none.
 */
export async function withElement<T>(page: Page, frame: FrameEntry, pick: (elements: ElementClient) => Promise<string | undefined>, f: (objectId: string) => Promise<T>): Promise<T | undefined> {
  const objectId = await pick(page.elements(frame));
  if (objectId === undefined) return undefined;
  try {
    return await f(objectId);
  } finally {
    page.session.send("Runtime.releaseObject", { objectId }, { sessionId: frame.sessionId }).catch(() => undefined);
  }
}

/**
 * Focus (or a drag's point) is inside a closed shadow root the page agent
 * cannot enter: the DOM domain can (pierce). What is sensitive in the
 * element's closed shadow trees counts, as the element focused (or
 * pointed at) may be it: a sensitive field, or a frame the worker did not
 * ask (a frame it asked answers on its own). The element is described one
 * level deep and only its closed roots whole, so a large element with no
 * closed root costs one small answer. description is the element's.
 */
export async function sealedSensitive(page: Page, index: FrameIndex, frame: FrameEntry, objectId: string, description: string): Promise<Found | undefined> {
  const sessionId = frame.sessionId;
  const describe = async (target: { objectId: string } | { backendNodeId: number }, depth: number): Promise<Fields> =>
    fieldsOf((await page.session.send("DOM.describeNode", { ...target, depth, pierce: true }, { sessionId }))["node"], "DOM.describeNode.node");
  const inside = description || "a closed shadow root";
  for (const root of shadowRoots(await describe({ objectId }, 1))) {
    const backendNodeId = root["backendNodeId"];
    if (root["shadowRootType"] !== "closed" || typeof backendNodeId !== "number") continue;
    const held = heldIn(await describe({ backendNodeId }, -1), index);
    if (held === "field") return { what: `a field inside ${inside}`, unseen: false };
    if (held === "frame") return { what: `a frame inside ${inside}`, unseen: true };
  }
  return undefined;
}

function shadowRoots(node: Fields): Fields[] {
  const roots = node["shadowRoots"];
  return Array.isArray(roots) ? roots.map((r) => fieldsOf(r, "shadowRoots[]")) : [];
}

/**
 * What a DOM.Node subtree (its shadow trees included, frame documents
 * not) holds that input must not reach: a sensitive field, or the owner
 * of a frame the index does not list.
 */
function heldIn(node: Fields, index: FrameIndex): "field" | "frame" | undefined {
  const name = node["localName"];
  if (typeof name === "string" && appliesTo(name) && isSensitiveField(attributesOf(node))) return "field";
  const frameId = node["frameId"];
  if (typeof frameId === "string" && !index.frames.has(frameId)) return "frame";
  const children = node["children"];
  const kids = Array.isArray(children) ? children.map((c) => fieldsOf(c, "children[]")) : [];
  let held: "field" | "frame" | undefined;
  for (const kid of [...kids, ...shadowRoots(node)]) {
    held = heldIn(kid, index);
    if (held === "field") return held;
  }
  return held;
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
