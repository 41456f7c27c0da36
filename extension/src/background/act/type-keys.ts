// A type step's keys (issue 11: real key events per character, as a
// person's keyboard sends them, and no slower than Playwright MCP's type;
// issue 9: no key reaches a password, one-time-code or payment-card field).
import { CodeFocusLost, OutcomeDispatched } from "../../protocol/generated";
import type { FieldValue, KeysSeen } from "../../shared/page-agent";
import type { Clock } from "../clock";
import type { FrameEntry } from "../cdp/frames";
import { failure } from "../native/failure";
import type { Page } from "../pagework/page-tab";
import { pressChord } from "./key-press";
import type { FocusAsk } from "./key-guard";
import { MAY_HAVE_REACHED, refuseSensitiveFocus } from "./key-guard";
import type { Chord, KeyEvent } from "./keys";
import { gatedKeyEvents, typed } from "./keys";
import type { Located } from "./pointer";
import type { Progress } from "./receipts";

/**
 * How long, once Chrome answered a key's commands, a check waits for the
 * field's frame to answer. A page whose own window handler stops key
 * events before the gate sees them (it never counts them) is typed into
 * key by key from then on, with pressChord's checks.
 */
const SEEN_GRACE_MS = 30;

/**
 * How many keys may be under way, sent and not yet answered by Chrome. The
 * next key goes out once the oldest was answered, and none after the
 * field's frame said that focus left the field: keys under way then can
 * reach a frame the page added since the gate was armed (it has none),
 * and two are all.
 */
const KEYS_AHEAD = 2;

/**
 * A check of a type step: every frame is asked what has focus (as before
 * every key: key-guard.ts), the field's frame answering once the count'th
 * key up since the gate was armed arrived there, or at once when focus
 * left the field or a key strayed (page/key-gate.ts).
 */
class KeysCheck {
  seen: KeysSeen | undefined;
  answered = false;
  readonly checked: Promise<void>;

  constructor(page: Page, progress: Progress, located: Located, count: number, read: boolean) {
    const agent = page.agent(located.frame);
    this.checked = refuseSensitiveFocus(page, progress, undefined, {
      index: located.index,
      answer: (frame) =>
        inFrame(frame, located)
          ? agent.keysSeen(count, read).then((s) => {
              this.seen = s;
              return s.focused;
            })
          : undefined,
    });
    this.checked.then(
      () => (this.answered = true),
      () => (this.answered = true),
    );
  }

  /** After the keys' commands were answered (acked): true when the field's frame answered too, within the grace. */
  async answeredAfter(acked: Promise<unknown>, clock: Clock): Promise<boolean> {
    try {
      await acked;
    } catch (e) {
      // A key opened a dialog, say (DialogOpened, receipts.ts): that is the step's end.
      await this.checked.catch(() => undefined);
      throw e;
    }
    let cancel = (): void => undefined;
    const grace = new Promise<false>((resolve) => {
      cancel = clock.after(SEEN_GRACE_MS, () => resolve(false));
    });
    const answered = await Promise.race([this.checked.then(() => true, () => true), grace]);
    cancel();
    return answered;
  }
}

function inFrame(frame: FrameEntry, located: Located): boolean {
  return frame.doc.frameId === located.frame.doc.frameId;
}

/**
 * Types text key by key (keys.ts typed) into the focused field of the
 * located frame and answers what the field holds afterwards.
 *
 * The check before the first key asks every frame, as pressChord does,
 * and arms each frame's key gate (page/key-gate.ts): from then on the
 * page itself stops, as it arrives, any key or character that is not
 * aimed at the field, so no key reaches a sensitive field of those frames
 * whatever the page's handlers or timers do; that is the check of each
 * key down, made where the key arrives. The field's frame also answers a
 * pending check as soon as focus leaves the field or a key strays, and no
 * key goes out after that answer: so no more keys go to a frame the page
 * added since (which has no gate) than were under way when focus went
 * there. Every frame is asked again after the first key (which proves that
 * the gate sees the keys) and after the last: focus_lost or
 * sensitive_field when focus left the field or a key strayed.
 */
export async function typeKeys(page: Page, clock: Clock, progress: Progress, located: Located, ref: string, what: string, text: string, multiline: boolean): Promise<FieldValue> {
  const ask: FocusAsk = { index: located.index };
  const parts = typed(text, multiline);
  const total = [...text.replace(/\r\n?/g, "\n")].length;
  let done = 0;
  let ups = 0;
  let slow = false;
  let last: FieldValue | undefined;
  const send = (e: KeyEvent): Promise<unknown> => page.session.send("Input.dispatchKeyEvent", e);

  /** Types keys, the last one read back when read; answers how many went out before a check stopped them. */
  const run = async (keys: Chord[], read: boolean): Promise<number> => {
    const check = new KeysCheck(page, progress, located, ups + keys.length, read);
    let sent = 0;
    const flying: Promise<unknown>[] = [];
    for (const chord of keys) {
      // At most KEYS_AHEAD keys under way: one more when Chrome answered the oldest.
      if (flying.length >= KEYS_AHEAD) await flying.shift()?.catch(() => undefined);
      // Focus left the field or a key strayed: the field's frame answered.
      if (check.answered) break;
      progress.dispatched = true;
      flying.push(Promise.all(gatedKeyEvents(chord).map(send)));
      sent++;
    }
    const acked = Promise.all(flying);
    ups += sent;
    if (!(await check.answeredAfter(acked, clock))) {
      // The gate never saw the key ups: the page's window handler stopped them first.
      slow = true;
      await refuseSensitiveFocus(page, progress, undefined, ask);
      return sent;
    }
    await check.checked;
    const seen = check.seen;
    if (seen !== undefined && seen.seen && seen.onField && seen.strayed === undefined) {
      if (seen.value !== undefined) last = seen.value;
      return sent;
    }
    // Every frame again, now that the keys' events are all in.
    await refuseSensitiveFocus(page, progress, undefined, ask);
    if (seen === undefined || seen.strayed !== undefined || !seen.onField) {
      const where = seen?.strayed ?? (seen?.focused.description || "elsewhere");
      throw failure(CodeFocusLost, `the page moved focus from ${what} to ${where} while it was typed into; ${done + sent} of ${total} characters went in, none elsewhere`, OutcomeDispatched);
    }
    slow = true;
    return sent;
  };

  try {
    await refuseSensitiveFocus(page, progress, undefined, { index: located.index, answer: (frame) => page.agent(frame).armKeys(inFrame(frame, located) ? ref : null) });
    for (let i = 0; i < parts.length; ) {
      const part = parts[i];
      if (part === undefined) break;
      last = undefined;
      progress.dispatched = true;
      if ("text" in part) {
        await page.session.send("Input.insertText", { text: part.text });
        await refuseSensitiveFocus(page, progress, MAY_HAVE_REACHED, ask);
        done += [...part.text].length;
        i++;
      } else if (slow) {
        await pressChord(page, progress, part.key, ask);
        done++;
        i++;
      } else {
        // The keys up to the next text; the step's first key alone.
        const keys: Chord[] = [];
        for (let j = i; j < parts.length && (ups > 0 || j === i); j++) {
          const p = parts[j];
          if (p === undefined || "text" in p) break;
          keys.push(p.key);
        }
        const sent = await run(keys, i + keys.length === parts.length);
        done += sent;
        i += sent;
        // None went out, and nothing was wrong (the gate ended, say): key by key.
        if (sent === 0) slow = true;
      }
    }
  } finally {
    for (const frame of located.index.frames.values()) page.agent(frame).disarmKeys().catch(() => undefined);
  }
  return last ?? (await page.agent(located.frame).keyValue(ref));
}
