// The key gate of a type step. Source of truth: issue 11 (type sends real
// key events per character, and is no slower than Playwright MCP's) and
// issue 9 (no key reaches a password, one-time-code or payment-card
// field: focus is checked before every key down).
//
// While a type step runs, every frame of the tab has a gate: in the frame
// of the field typed into, it lets through only the trusted key and input
// events aimed at that field (checked not sensitive before the first key);
// in every other frame, none. Any other is stopped in the capture phase at
// the window, before the page's handlers on its target run and before its
// default action: nothing goes in, the field it was aimed at never sees
// it, and the gate says where it went (strayed). That is a check of each
// key and character as it arrives, in the page, which a check from the
// worker cannot be (a page timer can move focus between the two).
//
// The worker still asks every frame after each character (typing.ts): the
// gates cover the frames that existed when it armed them, and a frame the
// page adds later, or a field inside a closed shadow root, is what that
// check finds (key-guard.ts). Handlers the page put on the window before
// the gate run first; that is the page's own script, which can read
// whatever is typed into its fields anyway.

import type { FocusedField, KeysSeen } from "../shared/page-agent";
import { describe } from "./describe";
import { composedContains, deepActiveElement } from "./dom";
import { focusedField } from "./focus";
import { fieldValue, hasFocus, keyField } from "./key-target";

const GUARDED = ["keydown", "keypress", "keyup", "beforeinput", "textInput"];

// A gate the worker never ends (the worker went away mid-step) ends by
// itself this long after its last use; timers of a background tab fire
// late (aligned to 1 s), never early.
const IDLE_MS = 10_000;

interface Waiter {
  count: number;
  read: boolean;
  resolve: (seen: KeysSeen) => void;
}

class Gate {
  private ups = 0;
  private strayed: string | undefined;
  /** The last keydown: prevented when focus leaves the field while it is dispatched, so that Chrome drops its character. */
  private keydown: Event | undefined;
  private waiters: Waiter[] = [];
  private readonly onKey = (e: Event): void => this.key(e);
  private readonly onFocusOut = (e: Event): void => this.focusOut(e);
  private idle: ReturnType<typeof setTimeout> | undefined;

  /** field: where keys may go in this frame; null where none may. */
  constructor(private readonly field: Element | null) {
    for (const type of GUARDED) window.addEventListener(type, this.onKey, true);
    window.addEventListener("focusout", this.onFocusOut, true);
    this.touch();
  }

  private key(e: Event): void {
    if (!e.isTrusted) return;
    const to = e.composedPath()[0];
    if (this.field === null || !(to instanceof Node) || !composedContains(this.field, to)) {
      e.preventDefault();
      e.stopImmediatePropagation();
      const at = to instanceof Element ? to : deepActiveElement();
      this.strayed ??= at === null ? "the page" : describe(at);
    }
    if (e.type === "keydown") this.keydown = e;
    else if (e.type === "keyup") this.ups++;
    this.answer();
  }

  // A keydown handler that moves focus out of the field (into a frame, say)
  // would have the key's character go there: the keydown is prevented,
  // which drops it (keys.ts; after the dispatch, this does nothing).
  private focusOut(e: Event): void {
    const from = e.composedPath()[0];
    if (this.field === null || !(from instanceof Node) || !composedContains(this.field, from)) return;
    this.keydown?.preventDefault();
    this.answer();
  }

  private seen(count: number, read: boolean): KeysSeen {
    const out: KeysSeen = { seen: this.ups >= count, onField: this.field !== null && hasFocus(this.field), focused: focusedField() };
    if (this.strayed !== undefined) out.strayed = this.strayed;
    if (read && this.field !== null) out.value = fieldValue(this.field);
    return out;
  }

  /** Answers the waiters whose key up came, or all when a key strayed or focus left the field. */
  private answer(): void {
    if (this.waiters.length === 0) return;
    const over = this.strayed !== undefined || this.field === null || !hasFocus(this.field);
    this.waiters = this.waiters.filter((w) => {
      if (!over && this.ups < w.count) return true;
      w.resolve(this.seen(w.count, w.read));
      return false;
    });
  }

  wait(count: number, read: boolean): Promise<KeysSeen> {
    this.touch();
    return new Promise((resolve) => {
      this.waiters.push({ count, read, resolve });
      this.answer();
    });
  }

  private touch(): void {
    clearTimeout(this.idle);
    this.idle = setTimeout(() => disarmKeys(), IDLE_MS);
  }

  end(): void {
    clearTimeout(this.idle);
    for (const type of GUARDED) window.removeEventListener(type, this.onKey, true);
    window.removeEventListener("focusout", this.onFocusOut, true);
    for (const w of this.waiters) w.resolve(this.seen(w.count, w.read));
    this.waiters = [];
  }
}

let gate: Gate | undefined;

/**
 * Arms this frame's gate for a type step and answers focusedField(), the
 * check before the first key: el is the ref's element in the frame of the
 * field (its key field, page/key-target.ts, takes the keys), null in every
 * other frame.
 */
export function armKeys(el: Element | null): FocusedField {
  disarmKeys();
  gate = new Gate(el === null || !el.isConnected ? null : keyField(el));
  return focusedField();
}

/**
 * The check after a typed key, sent with the key's events: answers once
 * the frame received the count'th key up since armKeys (as it arrives, or
 * at once when it came first), or when a key strayed or focus left the
 * field. What the page's handlers do after that, the gate checks at the
 * next key. Unarmed (a new document, or the gate ended), it answers at
 * once, unseen.
 */
export function keysSeen(count: number, read: boolean): Promise<KeysSeen> {
  if (gate === undefined) return Promise.resolve({ seen: false, onField: false, focused: focusedField() });
  return gate.wait(count, read);
}

/** Ends this frame's gate: its listeners go, and a check still waiting answers. */
export function disarmKeys(): boolean {
  const g = gate;
  gate = undefined;
  g?.end();
  return g !== undefined;
}
