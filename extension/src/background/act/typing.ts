// Keyboard steps: type (append), fill (replace), clear, press. Source of
// truth: issue 3: type/fill check that the intended field holds focus
// after the click and fail without typing when focus went elsewhere;
// typing into password, one-time-code or payment-card fields is refused;
// issue 9: so is every key and text whose focused element is one when it
// goes out (key-guard.ts, checked right before each).
// Text goes in with Input.insertText (notes/chromium.md: types Unicode
// correctly), which the page sees as trusted input.
import { CodeFocusLost, OutcomeConfirmed, OutcomeDispatched, OutcomeNotStarted } from "../../protocol/generated";
import type { Outcome } from "../../protocol/generated";
import type { Clock } from "../clock";
import { fieldsOf } from "../cdp/read";
import { Failure, failure } from "../native/failure";
import type { Page } from "../pagework/page-tab";
import { refuseSensitiveFocus, sensitiveField } from "./key-guard";
import type { Chord, KeyEvent } from "./keys";
import { keyEvents, parseChord } from "./keys";
import type { Located } from "./pointer";
import { aim, notActionable, routedClick } from "./pointer";
import type { Progress } from "./receipts";

export interface Done {
  outcome: Outcome;
  note?: string;
  /** The route that worked in the page when it was not the debugger (protocol StepReceipt.served_by). */
  servedBy?: string;
  /** The step went out as DOM events without Chrome user activation (the scripting route). */
  lacksUserActivation?: boolean;
}

function focusLost(what: string, outcome: Outcome): Failure {
  return failure(CodeFocusLost, `focus is not on ${what}; nothing was typed`, outcome);
}

/** Types text into a field located by ref: appended (type) or replacing its content (fill, and clear with ""). */
export async function typeInto(page: Page, clock: Clock, progress: Progress, ref: string, located: Located, text: string, mode: "type" | "fill"): Promise<Done> {
  const agent = page.agent(located.frame);
  const info = await agent.target(ref);
  const what = info.description || ref;
  if (info.sensitive) throw sensitiveField(what);
  if (!info.ok) throw notActionable(ref, info);
  if (info.editable === false) throw notActionable(ref, info, "not_editable");
  if (!(await agent.hasFocus(ref))) {
    const at = await aim(page, ref, located);
    await routedClick(page, clock, progress, at, 1);
    if (!(await agent.hasFocus(ref))) throw focusLost(what, OutcomeDispatched);
  }
  const before = await agent.valueLength(ref);
  if (mode === "type") await caretToEnd(page, located, ref);
  else if (!(await agent.selectAllText(ref))) throw notActionable(ref, info, "not_editable");
  if (text !== "") {
    // The page can move focus at any time (a focus handler that runs when
    // the field is selected, a timer): the text goes where focus is now.
    await refuseSensitiveFocus(page, progress);
    progress.dispatched = true;
    await page.session.send("Input.insertText", { text });
  } else if ((before ?? 0) > 0) await pressChord(page, progress, { modifiers: [], bits: 0, key: { key: "Delete", code: "Delete", keyCode: 46 } });
  const after = await agent.valueLength(ref);
  const want = mode === "type" ? (before ?? 0) + text.length : text.length;
  // Not closable before the fact: Input.insertText is one command, and a
  // page's beforeinput handler that moves focus sends its text to the new
  // focus (observed in Chromium 156, from an input too), as can a timer
  // between the check and the command. When the text did not arrive and
  // focus now is on a sensitive field, the step says so and the batch stops.
  if (text !== "" && after !== want) await refuseSensitiveFocus(page, progress, "sent text that may have reached it: the page moved focus there as the text went in");
  const chars = `${text.length} character${text.length === 1 ? "" : "s"}`;
  const did = mode === "type" ? `typed ${chars} into ${what}` : text === "" ? `cleared ${what}` : `filled ${what} with ${chars}`;
  if (after === want) return { outcome: OutcomeConfirmed, note: did };
  return { outcome: OutcomeDispatched, note: `${did}; the field now holds ${after ?? "an unknown number of"} characters, not ${want} (the page may limit or reformat it)` };
}

// Puts the caret after the field's last character, so that typing
// appends. Runs on the element in AgentTab's world; a field type without
// a text selection (email, number) keeps the caret where the click left it.
const CARET_TO_END = `function () {
  const c = this.control instanceof Element ? this.control : this;
  try {
    if (typeof c.setSelectionRange === "function" && typeof c.value === "string") {
      c.setSelectionRange(c.value.length, c.value.length);
      return true;
    }
  } catch (e) {}
  if (c.isContentEditable) {
    const s = c.ownerDocument.getSelection();
    s.selectAllChildren(c);
    s.collapseToEnd();
    return true;
  }
  return false;
}`;

async function caretToEnd(page: Page, located: Located, ref: string): Promise<void> {
  const objectId = await page.elements(located.frame).element(ref);
  if (objectId === undefined) return;
  const sessionId = located.frame.sessionId;
  try {
    fieldsOf(await page.session.send("Runtime.callFunctionOn", { functionDeclaration: CARET_TO_END, objectId, returnByValue: true }, { sessionId }), "caret");
  } finally {
    page.session.send("Runtime.releaseObject", { objectId }, { sessionId }).catch(() => undefined);
  }
}

/**
 * Dispatches a chord's events, each key down and each character after the
 * check that focus is not in a sensitive field (a page can move focus on a
 * modifier's keydown, or on the typing key's own keydown before its
 * character goes in: keys.ts). A refusal after keys went down lets them up
 * again: key ups put nothing into a field.
 *
 * Not closable from here: the page can still move focus between the check
 * and the event (a timer), or, from a contenteditable region, in the
 * keypress, beforeinput or textInput of the char itself; observed in
 * Chromium 156, the text then goes where focus went. (From an input or a
 * textarea it stays in the field that had focus.) A page's script can put
 * any text it is given into any of its fields anyway.
 */
export async function pressChord(page: Page, progress: Progress, chord: Chord): Promise<void> {
  const events = keyEvents(chord);
  const down = new Set<string>();
  const id = (e: KeyEvent): string => `${e.code} ${e.key}`;
  for (const [i, e] of events.entries()) {
    if (e.type !== "keyUp") {
      try {
        await refuseSensitiveFocus(page, progress);
      } catch (refused) {
        // The keys down so far go up, in the chord's release order.
        for (const up of events.slice(i).filter((u) => u.type === "keyUp" && down.has(id(u)))) await page.session.send("Input.dispatchKeyEvent", up);
        throw refused;
      }
    }
    progress.dispatched = true;
    await page.session.send("Input.dispatchKeyEvent", e);
    if (e.type === "rawKeyDown") down.add(id(e));
  }
}

/** press: a key or chord, into the focused element, or into ref after focusing it. */
export async function press(page: Page, progress: Progress, keys: string, ref: string | undefined): Promise<Done> {
  const chord = parseChord(keys);
  if (typeof chord === "string") throw new Error(chord); // checkStep refused it
  let into = "the focused element";
  if (ref !== undefined) {
    const agent = page.agent((await page.locate(ref)).frame);
    const info = await agent.target(ref);
    into = info.description || ref;
    if (info.sensitive) throw sensitiveField(into);
    if (!info.ok) throw notActionable(ref, info);
    if (!(await agent.focus(ref))) throw focusLost(into, OutcomeNotStarted);
  }
  await pressChord(page, progress, chord);
  return { outcome: OutcomeDispatched, note: `pressed ${keys} in ${into}` };
}
