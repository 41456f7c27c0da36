// The contract between the service worker and the page agent: the code
// that runs in AgentTab's isolated world of each frame (src/page), injected
// through chrome.debugger (Page.createIsolatedWorld + Runtime.evaluate).
// The page agent installs one object, globalThis.__agenttab, with the
// functions below; the service worker calls them with Runtime.evaluate /
// Runtime.callFunctionOn in that world and gets JSON values back.
//
// The page agent shares the DOM with the page, never its JavaScript
// globals (spec 000). It never returns the value of a password,
// one-time-code or payment-card field.

/** The global name the page agent installs itself under. */
export const PAGE_AGENT_GLOBAL = "__agenttab";

/** The isolated world's name (Page.createIsolatedWorld worldName). */
export const PAGE_AGENT_WORLD = "agenttab";

/**
 * A global of the page agent's world where the debugger route leaves,
 * before a snapshot, the elements the page added click, mouse, pointer or
 * touch listeners to (an Element[] found with DOMDebugger.getEventListeners,
 * background/pagework/listeners.ts): listeners are invisible to the page
 * agent. The next snapshot takes them (marking their lines [clickable],
 * page/clickable.ts) and deletes the global; a snapshot without it marks
 * no listeners. A global rather than a function of PageAgent: it carries
 * elements, which the JSON client cannot.
 */
export const LISTENED_GLOBAL = "__agenttabListened";

export type SnapshotMode = "interactive" | "full" | "readable";

export interface SnapshotRequest {
  mode: SnapshotMode;
  /**
   * The first element id this frame may hand out. Ids are unique per tab
   * across documents and frames, so a ref names exactly one element of one
   * document: a ref of an earlier document resolves nowhere (stale_ref).
   */
  nextId: number;
  /** Stop building after this many characters (the rest is counted only: FrameSnapshot.totalChars). */
  maxChars: number;
  /** Indentation prefix for every line (a child frame nests under its iframe). */
  indent: string;
}

export interface FrameSnapshot {
  /** The frame's text in the "- role \"name\" [ref=eN]" style. */
  text: string;
  /** true when maxChars stopped the text early. */
  truncated: boolean;
  /**
   * The length the whole text would have without maxChars (text.length
   * when not truncated), counted with the refs elements past the cut would
   * get.
   */
  totalChars?: number;
  /** The id the next element of this tab gets (ids [request.nextId, nextId) are this frame's). */
  nextId: number;
  /**
   * Child frames found in this frame's tree, in document order: the ref of
   * each <iframe> element and the line index where the child's snapshot
   * goes (the service worker snapshots the child frame and splices it in).
   * `line` is 0-based in text.split("\n") and is the index right after the
   * iframe's own line: insert the child's lines there, indented two spaces
   * deeper than the iframe line (splice from the last frame backwards so
   * earlier indexes stay valid).
   */
  frames: { ref: string; line: number }[];
  title: string;
  url: string;
  /**
   * What the mode's clipping left out of this frame's text (interactive
   * clips long text runs; every mode clips long names and values); absent
   * when nothing was. Each cut is marked in the text.
   */
  clipped?: Clipped;
}

/** Texts cut short and the characters they left out. */
export interface Clipped {
  texts: number;
  chars: number;
}

/** Why an element cannot take pointer or keyboard input. */
export type NotActionable = "detached" | "hidden" | "transparent" | "disabled" | "not_editable" | "no_box" | "re_aimed";

export interface TargetInfo {
  ok: boolean;
  reason?: NotActionable;
  /** Viewport CSS pixels of the element's centre, in this frame's viewport. */
  x: number;
  y: number;
  width: number;
  height: number;
  /** A running animation moves or resizes it (or an ancestor); pointer input is refused. */
  moving?: boolean;
  /** password, one-time-code or payment-card input: typing is refused. */
  sensitive: boolean;
  /** A short human description ("button \"Send\""), never a field value. */
  description: string;
  /**
   * Whether typing goes into the element (a text field that is not
   * read-only or disabled, or a contenteditable region); false means a
   * type/fill step fails not_editable. Absent only when detached.
   */
  editable?: boolean;
}

/** A frame's focused element, for the check before each key (page/focus.ts). */
export interface FocusedField {
  /** It is a password, one-time-code or payment-card field: no key may go out. */
  sensitive: boolean;
  /** Its description (never its value); "" when nothing has focus, and from focusedField when it is neither sensitive, sealed nor a frame's owner (only refusals name it). */
  description: string;
  /** Focus may be inside a closed shadow root of it, which only the debugger's DOM domain can look into. */
  sealed: boolean;
  /**
   * It is a frame's owner element (iframe, frame, object, embed): focus
   * (or the pointer) goes on into that frame's document, which answers
   * for itself when the worker can ask it.
   */
  frame: boolean;
}

/** What a keyboard step does to its field: type appends, fill replaces, press only sends keys. */
export type KeyMode = "type" | "fill" | "press";

/** A field's content, read back after a keyboard step; never a sensitive field's value. */
export interface FieldValue {
  length: number;
  /** Absent for a password, one-time-code or payment-card field. */
  value?: string;
}

/**
 * A keyboard step's target (page/key-target.ts): the field keys go to (the
 * ref's element, a label's control, or the one unseen field an editor's
 * container reads keys through, such as xterm.js's hidden textarea),
 * checked as target() checks pointer input, except that a field nobody
 * sees (transparent, or without a box) is focused by script, not refused.
 */
export interface KeyTarget extends TargetInfo {
  /** Focus it by script, not with a click: the field is transparent or has no box. */
  byFocus?: boolean;
  /** The field's input type when a picker sets its value (date, time, datetime-local, month, week, color, range). */
  picker?: string;
  /** Enter puts a line break into it (a textarea, an editable region). */
  multiline?: boolean;
  /** The field had focus: what it held, the caret now at its end (type) or its content selected (fill). */
  ready?: FieldValue;
}

/** The key field after keyReady: whether it has focus, and what it held then (not for press). */
export interface KeyReady {
  focused: boolean;
  held?: FieldValue;
}

/** pickValue's answer: set, refused (a sensitive field), or a value the field did not take (undone; became is what the browser made of it). */
export interface PickResult {
  done: "set" | "refused" | "not_accepted";
  held: FieldValue;
  became?: string;
}

/** The check after a typed key, made in the field's frame (page/key-gate.ts). */
export interface KeysSeen {
  /** The frame received the key's key up (false: focus left the field, a key strayed, or the gate is not armed). */
  seen: boolean;
  /** Focus is still in the field the keys are for. */
  onField: boolean;
  /** The frame's focused element, as focusedField answers. */
  focused: FocusedField;
  /** A key or character went elsewhere than the field and was stopped in the page: what it was aimed at. */
  strayed?: string;
  /** The field's content, when asked for. */
  value?: FieldValue;
}

/** What receives the pointer at a point of a frame, checked where a drag presses and drops (page/point.ts); described like the focused element. */
export type PointField = FocusedField;

export interface HitTest {
  /** true when the element (or a descendant) receives the pointer at the point. */
  ok: boolean;
  /** What receives it instead, described like TargetInfo.description. */
  covering?: string;
}

/**
 * Both looks at a target and the hit test at the second look's point, in
 * one call (act/pointer.ts aim reads them in this order and refuses at the
 * first failure). second is absent when first is not ok; hit when second
 * is not ok.
 */
export interface AimLooks {
  first: TargetInfo;
  second?: TargetInfo;
  hit?: HitTest;
}

/**
 * How far apart the two looks of aim are. A shown tab renders frames:
 * the second look follows its next frame, when frame-driven motion moves
 * a box, and comes at most ms after the first. A tab in the background
 * renders none and aligns its timers to 1 s (notes/chromium.md,
 * "Background tabs are throttled"), so what can move a box there is a
 * task already queued, or a running animation, which page/motion.ts asks
 * for directly: the second look comes after ms of the page's tasks.
 */
export interface LookApart {
  /** The tab is shown (its window's active tab): wait for a frame. */
  frame: boolean;
  ms: number;
}

/**
 * A browser_credentials fill's look at its field (page/credential.ts):
 * whether the ref's field is fit for the credential field named, and
 * whether it holds focus, readied (its content selected). Never a value.
 */
export interface CredentialTarget {
  /** The field takes this kind of credential (else why says what it is). */
  fit: boolean;
  /** Why it is unfit, in words that name no value. */
  why?: string;
  /** The field's description, as TargetInfo's. */
  description: string;
  /** Focus is on the field, its content selected (the debugger route inserts the text now). */
  focused: boolean;
}

/** credentialHolds' answer: whether the field holds the value, and whether focus is on it (else the debugger's text went where focus is). */
export interface CredentialHeld {
  holds: boolean;
  focused: boolean;
}

/** The functions of globalThis.__agenttab. Element arguments are refs ("e12"). */
/**
 * What the Commit classifier (shared/effects.ts's rules, page/effect.ts)
 * found for a step's target, before the step runs (spec 000: prepare,
 * classify, revalidate, execute).
 */
export interface EffectReport {
  /** The recognised effect (protocol Effect values), or null. */
  effect: string | null;
  /** The id of the rule that matched (for tests), or null. */
  rule: string | null;
  /**
   * A canonical description of the target (ref, tag, role, name, type,
   * its form's method and action, the form's input types): the worker
   * hashes it into the stage's fingerprint and compares it at commit. It
   * may hold page text: it never leaves the worker unhashed.
   */
  descriptor: string;
  /** What the human reviews: the control's name and its form's visible fields. */
  preview: EffectPreview;
}

/** A report of no recognised effect about nothing in particular (no focused element; a line break that is not an Enter). */
export const NO_EFFECT: EffectReport = Object.freeze({ effect: null, rule: null, descriptor: "", preview: Object.freeze({ control: "", fields: [] }) });

export interface EffectPreview {
  /** The control's accessible name (clipped to 120 characters). */
  control: string;
  /** The form's visible fields (at most 20), labels and values clipped to 120 characters; a sensitive field's value is "" with sensitive set. */
  fields: { label: string; value: string; sensitive: boolean }[];
}

/** One recognised bot challenge on a document (shared/challenge-catalog.ts). No page text, URL or sitekey. */
export interface ChallengeSighting {
  vendor: string;
  product: string;
  kind: "interstitial" | "widget";
  interaction: "none" | "checkbox" | "puzzle" | "unknown";
  confidence: "high" | "medium" | "low";
  /** Its response field holds a value (computed here; the value is never read out). */
  tokenPresent: boolean;
}

export interface PageAgent {
  snapshot(request: SnapshotRequest): FrameSnapshot;
  /**
   * Classifies the effect of acting on ref (press: the keys of a press
   * step, whose Enter in a form field submits the form, and which go to
   * ref's key field; null for a pointer step). ref null: the document's
   * focused element, through open shadow roots (a press without a ref),
   * NO_EFFECT when nothing is focused or a frame's owner is (the frame
   * inside answers for itself). Throws when the ref does not resolve.
   */
  effect(ref: string | null, press: string | null): EffectReport;
  /** The recognised challenges of this frame's document, most prominent first (an interstitial before widgets). */
  challenges(): ChallengeSighting[];
  /** Whether ref's element is part of a recognised challenge, or the document is a challenge interstitial: the act guard's question (false for a ref that does not resolve, which the step's own checks refuse). */
  inChallenge(ref: string): boolean;
  /** Scrolls the element into view if needed and reports where it is. */
  target(ref: string): TargetInfo;
  hitTest(ref: string, x: number, y: number): HitTest;
  /** target, again after the gap (the page's tasks run meanwhile), then hitTest at the second look's point. */
  aim(ref: string, apart: LookApart): Promise<AimLooks>;
  focus(ref: string): boolean;
  /** Selects options by label or value; returns the labels selected, or an error text. */
  select(ref: string, values: string[]): { ok: boolean; selected: string[]; error?: string };
  /** The checked state after the call (for confirm). */
  checked(ref: string): boolean | undefined;
  /**
   * Scrolls the page (no ref: null, as JSON carries it) or an element by
   * an amount; returns the new scroll position. Throws when the ref does
   * not resolve (check knows() and state() first).
   */
  scrollBy(ref: string | null, dx: number, dy: number): { x: number; y: number };
  /** Visible text contains text (for waits). */
  hasText(text: string): boolean;
  /**
   * An element's state for waits; "gone" when the ref no longer resolves.
   * A shown element is reported "enabled" or "disabled" (both mean
   * visible); "hidden" when it is not shown or has no box. "visible" is
   * never returned by the page agent.
   */
  state(ref: string): "visible" | "hidden" | "enabled" | "disabled" | "gone";
  /** Scripting route: a DOM click after the target checks (no user activation). */
  domClick(ref: string, navigation: string | null): TargetInfo;
  /** Scripting route: sets a text field's value (append for type) with input/change events. */
  domSetValue(ref: string, text: string, append: boolean): TargetInfo;
  /** Scripting route: the URL a click would navigate to by itself (a link, a submit button's form), or null. */
  navigationTarget(ref: string): string | null;
  /** Keyboard steps: the key field of ref, checked; readied for mode when it has focus already. */
  keyTarget(ref: string, mode: KeyMode): KeyTarget;
  /** Focuses the key field by script (focus), or after the worker's click (not), and readies it for mode. */
  keyReady(ref: string, mode: KeyMode, focus: boolean): KeyReady;
  /** The key field's content (never a sensitive field's value). */
  keyValue(ref: string): FieldValue;
  /** Sets a picker field's value as its picker does (focus, value, input, change); refuses a sensitive field. */
  pickValue(ref: string, value: string): PickResult;
  /** Arms this frame's key gate for a type step (ref: the field's, in its frame; null in every other) and answers focusedField(). */
  armKeys(ref: string | null): FocusedField;
  /** The check after a typed key: once the frame received count key ups since armKeys, or a key strayed, or focus left the field. */
  keysSeen(count: number, read: boolean): Promise<KeysSeen>;
  /** Ends the key gate. */
  disarmKeys(): boolean;
  /** This frame's focused element (through open shadow roots), checked before each key. */
  focusedField(): FocusedField;
  /** The same element, for Runtime.callFunctionOn with returnByValue:false (DOM.describeNode of a sealed one). */
  focusedElement(): Element | null;
  /** What receives the pointer at (x, y) of this frame's viewport (through open shadow roots), described like focusedField. */
  fieldAt(x: number, y: number): PointField;
  /** The same element, for Runtime.callFunctionOn with returnByValue:false (DOM.describeNode of a sealed one or a frame's owner). */
  elementAt(x: number, y: number): Element | null;
  /**
   * browser_credentials' fill only (background/credentials): checks ref's
   * field is fit for field (username, password, one_time_code), focuses
   * it and selects its content. With a value (the scripting route) it
   * also sets the value the DOM way (the prototype's setter, input and
   * change). The sensitive-field rule of every other input stays: this is
   * the one way a value goes into a password field.
   */
  credentialTarget(ref: string, field: string, value: string | null): CredentialTarget;
  /** After the debugger's Input.insertText: whether ref's field holds value, and whether focus is on it (through the frames it sits in). Never answers the value. */
  credentialHolds(ref: string, value: string): CredentialHeld;
  /** Whether this frame's registry knows the ref (false: stale in this document). */
  knows(ref: string): boolean;
  /** How many DOM changes the agent has seen in this document (page/mutations.ts): the listener scan's cue. */
  mutations(): number;
  /**
   * The element of a ref, or null. For Runtime.evaluate with
   * returnByValue:false: its objectId serves DOM.describeNode (the
   * backendNodeId for Input/DOM commands) and Runtime.callFunctionOn.
   */
  element(ref: string): Element | null;
}
