// Keyboard steps: type (append), fill (replace), clear, press. Sources of
// truth:
// - issue 3: type/fill check that the intended field holds focus after
//   the click and fail without typing when focus went elsewhere; typing
//   into password, one-time-code or payment-card fields is refused;
// - issue 9: so is every key and text whose focused element is one when
//   it goes out (key-guard.ts, checked right before each key down and
//   each text);
// - issue 11: type sends real key events per character, as a person's
//   keyboard does (key handlers, input masks and terminals react), and is
//   no slower than Playwright MCP's; fill stays the fast path, one
//   Input.insertText (notes/chromium.md: types Unicode correctly), which
//   the page sees as trusted beforeinput and input, as frameworks observe;
//   a picker field (date, time, colour, range…) is set from its value
//   format; a fill the field does not take fails value_not_accepted; a
//   field nobody sees (an editor's hidden input) is focused, not clicked.
import { CodeFocusLost, OutcomeConfirmed, OutcomeDispatched, OutcomeNotStarted } from "../../protocol/generated";
import type { Outcome } from "../../protocol/generated";
import type { FieldValue, KeyTarget } from "../../shared/page-agent";
import type { AgentClient } from "../agent-client/client";
import type { Clock } from "../clock";
import type { Failure } from "../native/failure";
import { failure } from "../native/failure";
import type { Page } from "../pagework/page-tab";
import type { FocusAsk } from "./key-guard";
import { MAY_HAVE_REACHED, refuseSensitiveFocus, sensitiveField } from "./key-guard";
import { pressChord } from "./key-press";
import { parseChord } from "./keys";
import type { Located } from "./pointer";
import { aim, notActionable, routedClick } from "./pointer";
import { notAccepted, readBack, shown } from "./read-back";
import type { Progress } from "./receipts";
import { typeKeys } from "./type-keys";

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
  const info = await agent.keyTarget(ref, mode);
  const what = info.description || ref;
  if (info.sensitive) throw sensitiveField(what);
  if (!info.ok) throw notActionable(ref, info);
  if (info.editable === false) throw notActionable(ref, info, "not_editable");
  if (info.picker !== undefined) return pick(agent, progress, ref, what, info.picker, text);
  const held = info.ready ?? (await focusField(page, clock, progress, ref, located, info, mode));
  const ask: FocusAsk = { index: located.index };
  if (mode === "type") {
    const after = await typeKeys(page, clock, progress, located, ref, what, text, info.multiline === true);
    const want = (held.value ?? "") + text;
    const verdict = readBack(want, after);
    const chars = `${[...text].length} character${[...text].length === 1 ? "" : "s"}`;
    if (verdict === "same") return { outcome: OutcomeConfirmed, note: `typed ${chars} into ${what}` };
    if (verdict === "formatted") return { outcome: OutcomeConfirmed, note: `typed ${chars} into ${what}, which formatted it: it holds ${shown(after)}` };
    if (info.byFocus === true) return { outcome: OutcomeDispatched, note: `typed ${chars} into ${what}, an editor's hidden input (the editor takes the keys; its field holds ${shown(after)})` };
    return { outcome: OutcomeDispatched, note: `typed ${chars} into ${what}; the field now holds ${shown(after)} (the page may limit or reformat it)` };
  }
  if (text === "") {
    if (held.length > 0) await pressChord(page, progress, { modifiers: [], bits: 0, key: { key: "Delete", code: "Delete", keyCode: 46 } }, ask);
  } else {
    // The page can move focus at any time (a focus handler that runs when
    // the field is selected, a timer): the text goes where focus is now.
    await refuseSensitiveFocus(page, progress, undefined, ask);
    progress.dispatched = true;
    await page.session.send("Input.insertText", { text });
  }
  const after = await agent.keyValue(ref);
  const verdict = readBack(text, after);
  // Not closable before the fact: Input.insertText is one command, and a
  // page's beforeinput handler that moves focus sends its text to the new
  // focus (observed in Chromium 156, from an input too), as can a timer
  // between the check and the command. When the text did not arrive and
  // focus now is on a sensitive field, the step says so and the batch stops.
  if (text !== "" && verdict === "different") await refuseSensitiveFocus(page, progress, MAY_HAVE_REACHED, ask);
  const did = text === "" ? `cleared ${what}` : `filled ${what} with ${[...text].length} character${[...text].length === 1 ? "" : "s"}`;
  if (verdict === "same" || verdict === "unknown") return { outcome: OutcomeConfirmed, note: did };
  if (verdict === "formatted") return { outcome: OutcomeConfirmed, note: `${did}, which it formatted: it holds ${shown(after)}` };
  if (info.byFocus === true) return { outcome: OutcomeDispatched, note: `${did}, an editor's hidden input (the editor takes the text; its field holds ${shown(after)})` };
  throw notAccepted(what, after);
}

/**
 * Gives the field focus when it lacks it: a click where a person sees it
 * (the page's own mouse handlers run, as for a person), focus by script
 * where nobody does (an editor's hidden input: a click would aim at
 * nothing). Answers what it held, readied for mode.
 */
async function focusField(page: Page, clock: Clock, progress: Progress, ref: string, located: Located, info: KeyTarget, mode: "type" | "fill"): Promise<FieldValue> {
  const agent = page.agent(located.frame);
  if (info.byFocus === true) progress.dispatched = true;
  else await routedClick(page, clock, progress, await aim(page, ref, located, progress), 1);
  const ready = await agent.keyReady(ref, mode, info.byFocus === true);
  if (!ready.focused || ready.held === undefined) throw focusLost(info.description || ref, OutcomeDispatched);
  return ready.held;
}

/** A picker field (date, time, colour, range…): set from its value format, as its picker would; one it does not take fails. */
async function pick(agent: AgentClient, progress: Progress, ref: string, what: string, picker: string, value: string): Promise<Done> {
  progress.dispatched = true;
  const r = await agent.pickValue(ref, value);
  // The page agent refused it in the same call that would set it: nothing was written.
  if (r.done === "refused") throw sensitiveField(what, OutcomeNotStarted);
  if (r.done === "not_accepted") throw notAccepted(what, r.held, picker, r.became);
  const note = r.held.value !== undefined && r.held.value !== value ? `, which reads ${shown(r.held)}` : "";
  return { outcome: OutcomeConfirmed, note: `set ${what} to the value given${note}` };
}

/** press: a key or chord, into the focused element, or into ref's key field after focusing it (by script: no pointer). */
export async function press(page: Page, progress: Progress, keys: string, ref: string | undefined): Promise<Done> {
  const chord = parseChord(keys);
  if (typeof chord === "string") throw new Error(chord); // checkStep refused it
  let into = "the focused element";
  if (ref !== undefined) {
    const agent = page.agent((await page.locate(ref)).frame);
    const info = await agent.keyTarget(ref, "press");
    into = info.description || ref;
    if (info.sensitive) throw sensitiveField(into);
    if (!info.ok) throw notActionable(ref, info);
    if (!(await agent.keyReady(ref, "press", true)).focused) throw focusLost(into, OutcomeNotStarted);
  }
  await pressChord(page, progress, chord);
  return { outcome: OutcomeDispatched, note: `pressed ${keys} in ${into}` };
}
