// A key or chord pressed with a check before each key down and each
// character (issue 9: no key reaches a password, one-time-code or
// payment-card field; key-guard.ts): the press step, clear's Delete, and
// a type step whose page hides its keys from the key gate (type-keys.ts).
import type { Page } from "../pagework/page-tab";
import type { FocusAsk } from "./key-guard";
import { refuseSensitiveFocus } from "./key-guard";
import type { Chord, KeyEvent } from "./keys";
import { keyEvents } from "./keys";
import type { Progress } from "./receipts";

/**
 * Dispatches a chord's events, each key down and each character after the
 * check that focus is not in a sensitive field (a page can move focus on a
 * modifier's keydown, or on the typing key's own keydown before its
 * character goes in: keys.ts). A refusal after keys went down lets them up
 * again: key ups put nothing into a field. ask: the frames to ask (the
 * step's), else the tab's frames are read for each check.
 *
 * Not closable from here: the page can still move focus between the check
 * and the event (a timer), or, from a contenteditable region, in the
 * keypress, beforeinput or textInput of the char itself; observed in
 * Chromium 156, the text then goes where focus went. (From an input or a
 * textarea it stays in the field that had focus.) A page's script can put
 * any text it is given into any of its fields anyway.
 */
export async function pressChord(page: Page, progress: Progress, chord: Chord, ask: FocusAsk = {}): Promise<void> {
  const events = keyEvents(chord);
  const down = new Set<string>();
  const id = (e: KeyEvent): string => `${e.code} ${e.key}`;
  for (const [i, e] of events.entries()) {
    if (e.type !== "keyUp") {
      try {
        await refuseSensitiveFocus(page, progress, undefined, ask);
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
