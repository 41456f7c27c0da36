// No key reaches a password, one-time-code or payment-card field. Source
// of truth: issue 9 ("any key input (press, chords, type) whose target or
// focused element at dispatch time is a sensitive field is refused,
// checked in the page right before each key"); which fields are sensitive
// is decided by the page agent (src/page/sensitive.ts) and nowhere else.
//
// The check asks every frame of the tab for its focused element: focus
// can sit in a cross-site frame (another process, another session) and
// the frame that holds it is not named anywhere cheaper. Chrome clears the
// focused element of the document focus leaves, so a field focused once
// does not refuse keys after focus moved on (e2e TestKeysNeverReachSensitiveFields).
import { CodeSensitiveField, OutcomeDispatched, OutcomeNotStarted, type Outcome } from "../../protocol/generated";
import { PAGE_AGENT_GLOBAL } from "../../shared/page-agent";
import type { FocusedField } from "../../shared/page-agent";
import { isSensitiveField } from "../../page/sensitive";
import type { FieldAttributes } from "../../page/sensitive";
import { FrameGone } from "../cdp/agent";
import type { FrameEntry } from "../cdp/frames";
import type { Fields } from "../cdp/read";
import { fieldsOf, optStr } from "../cdp/read";
import { Failure } from "../failure";
import type { Page } from "../page-tab";
import type { Progress } from "./receipts";

/** The refusal of key input into a sensitive field (what describes it, never its value). */
export function sensitiveField(what: string, outcome: Outcome = OutcomeNotStarted): Failure {
  return new Failure(
    CodeSensitiveField,
    outcome,
    `${what} is a password, one-time-code or payment-card field; AgentTab sends no keys or text into it`,
    "Use browser_credentials to fill it from 1Password, or browser_handoff to let the user type it.",
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
  if (f.sealed && (await sealedSensitive(page, frame))) return `a field inside ${f.description || "a closed shadow root"}`;
  return undefined;
}

function focusedField(v: unknown): FocusedField {
  const f = fieldsOf(v, "a focused field");
  return { sensitive: f["sensitive"] === true, description: optStr(f, "description") ?? "", sealed: f["sealed"] === true };
}

const FOCUSED = `function () {
  const agent = globalThis.${PAGE_AGENT_GLOBAL};
  return agent === undefined ? null : agent.focusedElement();
}`;

/**
 * Focus is inside a closed shadow root the page agent cannot enter: the
 * DOM domain can (pierce). Any sensitive field in the focused element's
 * closed shadow trees refuses the key, as the focused one may be it;
 * frames inside are asked on their own.
 */
async function sealedSensitive(page: Page, frame: FrameEntry): Promise<boolean> {
  const sessionId = frame.sessionId;
  const executionContextId = await page.tab.worlds.context(page.session, frame);
  const r = await page.session.send("Runtime.callFunctionOn", { functionDeclaration: FOCUSED, executionContextId, returnByValue: false }, { sessionId });
  const objectId = optStr(fieldsOf(r["result"], "result"), "objectId");
  if (objectId === undefined) return false;
  try {
    const described = await page.session.send("DOM.describeNode", { objectId, depth: -1, pierce: true }, { sessionId });
    const node = fieldsOf(described["node"], "DOM.describeNode.node");
    return shadowRoots(node).some((root) => root["shadowRootType"] === "closed" && holdsSensitive(root));
  } finally {
    page.session.send("Runtime.releaseObject", { objectId }, { sessionId }).catch(() => undefined);
  }
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
