// The tree walk for the `interactive` and `full` snapshots: one pass over
// the rendered DOM (open shadow roots and slots included) producing items
// (items.ts). Names are computed only for elements that get a line.
//
// interactive keeps what an agent can act on (actionable roles,
// contenteditable, summary, and what clickable.ts finds evidence of: a
// pointer cursor, handlers, listeners the debugger route reports,
// draggable, tabindex >= 0, anchors without href), headings, landmarks,
// dialogs, named groups, tables and rows, and every text run; structural
// wrappers are flattened (their children move up a level); a long run is
// clipped with a marker of what it left out (text.ts clipRun).
// full keeps every element with a role other than generic/none, block
// elements with their own text, and all text, whole.
// In both, a text run outside an element with a line of its own is the
// line of the block element it is in ("- listitem [ref=e9]: Item"), so
// that whatever a person can click is addressable (issue 11).
//
// What is rendered and what is hidden: rendered-walk.ts.

import { Evidence, evidenceOf, markersOf } from "./clickable";
import { elementItem, frameItem, Kind, NAME_MAX, ownedItem, textItem, type Item } from "./items";
import { isInlineTag } from "./inline-tags";
import type { Namer } from "./name";
import { RenderedWalk } from "./rendered-walk";
import { joinTexts, unwrap } from "./reshape";
import { roleOf, type RoleContext } from "./roles";
import { isSensitiveElement } from "./sensitive";
import { nativelyDisabled, statesOf, valueOf } from "./states";
import { clip, clipRun, oneLine, quote, squash, Tally } from "./text";
import type { StyleIndex } from "./style-index";
import { opaque, visible } from "./visibility";

/**
 * interactive mode keeps text runs up to TEXT_MAX characters whole
 * (labels, prices, questions, short messages) and clips longer prose to
 * about TEXT_KEEP with a marker of what it left out: prose is what makes a
 * snapshot large (issue 3), but a default snapshot that silently drops it
 * leaves an agent blind to instructions and questions (issue 11). `full`
 * and `readable` keep it whole.
 */
const TEXT_MAX = 120;
const TEXT_KEEP = 80;
/** Text of live regions (alerts, status) and table rows: kept up to LONG_MAX, else clipped to about LONG_KEEP. */
const LONG_MAX = 240;
const LONG_KEEP = 200;
const URL_MAX = 100;
const VALUE_MAX = 100;
/** interactive mode lists this many options of a select (plus the selected ones). */
const MAX_OPTIONS = 25;

const ACTIONABLE = new Set(
  (
    "button link textbox searchbox checkbox radio combobox listbox option slider spinbutton switch tab " +
    "menuitem menuitemcheckbox menuitemradio treeitem gridcell scrollbar"
  ).split(" "),
);
// Containers an evidence element's content is not joined for: their items are the targets.
const COLLECTIONS = new Set(["list", "listbox", "menu", "menubar", "table", "grid", "treegrid", "tree", "tablist", "rowgroup", "radiogroup", "toolbar"]);
// Containers and text roles interactive mode keeps for context.
const CONTEXT = new Set(
  (
    "heading dialog alertdialog alert status log form region navigation main banner contentinfo complementary " +
    "search group radiogroup table grid treegrid row tablist tabpanel menu menubar toolbar tree"
  ).split(" "),
);
const LIVE = new Set(["alert", "status", "log", "alertdialog"]);
const CELLS = new Set(["cell", "gridcell", "columnheader", "rowheader"]);
// Empty elements that still say something in full mode.
const KEEP_EMPTY = new Set(["separator", "image", "iframe", "progressbar", "meter", "math", "textbox"]);
const SKIP = new Set(["script", "style", "template", "noscript", "head", "meta", "link", "base"]);
// Elements whose content is not walked (their name or value says it all).
const LEAF = new Set([
  "input", "textarea", "select", "img", "svg", "button", "iframe", "frame", "object", "embed",
  "video", "audio", "canvas", "meter", "progress", "math",
]);
const FORM_CONTROLS = new Set(["button", "input", "select", "textarea", "fieldset", "optgroup", "option"]);
const SECTIONING = new Set(["article", "aside", "main", "nav", "section"]);

export class TreeWalker extends RenderedWalk {
  private readonly items: Item[] = [];
  /** What clipping left out (the snapshot's status says so). */
  readonly tally = new Tally();
  private depth = 0;
  private run = "";
  /** The flattened block the current run is in; null inside an element with a line of its own. */
  private owner: Element | null = null;
  private ownerRole = "";
  /** The owner's line is written: a later run of its own is a plain text line. */
  private ownerLined = false;
  /** The computed cursor is a pointer here (inherited: not evidence again). */
  private pointer = false;
  /** Inside an element whose name is its text: the text is already on its line. */
  private suppress = false;
  private live = false;
  /** interactive: inside a table row, whose cells join on one line ("a | b"). */
  private row = false;
  /** Block boundaries do not end the text line (inside a joined row). */
  private joining = false;
  private disabled = false;
  private ctx: RoleContext = { presentationalTable: false, listItems: true, sectioning: false, grid: false };

  constructor(
    private readonly full: boolean,
    private readonly namer: Namer,
    styles: StyleIndex,
    /** Elements whose text is another element's name (interactive mode skips it). */
    private readonly nameSources: ReadonlySet<Element>,
    /** The elements the debugger route found press listeners on (clickable.ts takeListened). */
    private readonly listened: WeakSet<Element>,
  ) {
    super(styles, SKIP);
  }

  walk(root: Element): Item[] {
    this.element(root);
    this.flush();
    return this.items;
  }

  protected text(t: Text): void {
    if (!this.suppress) this.run += t.data;
  }

  protected override element(el: Element): void {
    // A line break inside a text line reads as a space.
    if (el.localName === "br") this.run += " ";
    else super.element(el);
  }

  protected invisibleElement(el: Element, tag: string): void {
    this.flattened(el, tag, roleOf(el, this.ctx));
  }

  protected shownElement(el: Element, tag: string): void {
    this.visible(el, tag);
  }

  private visible(el: Element, tag: string): void {
    let role = roleOf(el, this.ctx);
    const disabled =
      this.disabled ||
      el.getAttribute("aria-disabled") === "true" ||
      (FORM_CONTROLS.has(tag) && nativelyDisabled(el));
    if (tag === "iframe" || tag === "frame") {
      this.flush();
      this.items.push(frameItem(this.depth, el, this.namer.name(el, "iframe").name));
      return;
    }
    // A checkbox the page made transparent to style its label instead is
    // acted on through that label (see proxy).
    if (tag === "input" && styledAway(el) && this.shownLabel(el) !== null) return;
    let byRole = ACTIONABLE.has(role) || tag === "summary";
    const found = evidenceOf(el, tag, byRole, this.scope, this.pointer, this.listened);
    const evidence = found & ~Evidence.InPointer;
    const pointer = (found & Evidence.InPointer) !== 0;
    // Chrome 156 makes an anchor without href a link when it has a click
    // handler (a date picker's Prev/Next), else generic.
    if (tag === "a" && role === "generic" && evidence & Evidence.Handler) {
      role = "link";
      byRole = true;
    }
    const actionable = byRole || evidence !== Evidence.None;
    const candidate = actionable || (this.full ? this.fullKeeps(el, role, tag) : CONTEXT.has(role));
    if (!candidate) {
      this.flattened(el, tag, role, disabled, pointer);
      return;
    }
    const { name, fromContent } = this.namer.name(el, role);
    // Unnamed groups and forms are structure, not context.
    if (!this.full && !actionable && (role === "group" || role === "form") && name === "") {
      this.flattened(el, tag, role, disabled, pointer);
      return;
    }
    this.flush();
    // role=none on an element with evidence (Chrome keeps a focusable one).
    let head = role === "none" ? "generic" : role;
    if (name !== "") head += " " + quote(this.tally.clip(name, NAME_MAX));
    head += statesOf(el, role, disabled) + markersOf(evidence, byRole);
    const at = this.items.length;
    const item = elementItem(this.depth, el, head, true);
    this.items.push(item);
    if (role === "link") {
      const href = el.getAttribute("href");
      if (href !== null) item.url = clip(href, URL_MAX);
    }
    const host = editingHost(el, role);
    const value = host ? squash(el.textContent ?? "") : valueOf(el, role);
    if (value !== undefined && value !== "") item.text = this.tally.clip(oneLine(value, Number.POSITIVE_INFINITY), VALUE_MAX);
    if (el instanceof HTMLSelectElement) {
      // A sensitive select's options would show its value ([selected]).
      if (!isSensitiveElement(el)) this.options(el);
    } else if (!LEAF.has(tag) && !host) {
      const { suppress, live, row, joining, owner, ownerRole, ownerLined, pointer: inPointer } = this;
      if (fromContent) this.suppress = true;
      if (LIVE.has(role)) this.live = true;
      if (!this.full && role === "row") this.row = true;
      this.joining = false;
      // The element has its own line: text directly in it is its text.
      this.owner = null;
      this.pointer = pointer;
      this.depth++;
      this.descend(el, tag, role, disabled);
      this.flush();
      this.depth--;
      this.suppress = suppress;
      this.live = live;
      this.row = row;
      this.joining = joining;
      this.owner = owner;
      this.ownerRole = ownerRole;
      this.ownerLined = ownerLined;
      this.pointer = inPointer;
    }
    // Kept only as a click target: a pointer, a handler or draggable, named by its content if at all.
    const clickOnly =
      evidence !== Evidence.None && (evidence & Evidence.Focusable) === 0 && !byRole && !CONTEXT.has(role) && (name === "" || fromContent);
    this.settle(at, name, actionable, tag, role, clickOnly);
  }

  /**
   * After an element's children: a lone text child moves onto its line; an
   * empty context line goes. For an element kept only as a click target
   * (clickOnly: clickable.ts's evidence, no name, not focusable), text-only
   * content joins onto its line (an inbox row reads as one line), and
   * content of elements only stands for it (unwrap).
   */
  private settle(at: number, name: string, actionable: boolean, tag: string, role: string, clickOnly: boolean): void {
    const item = this.items[at];
    if (!item) return;
    const count = this.items.length - at - 1;
    const only = this.items[at + 1];
    if (count === 1 && only && (only.kind === Kind.Text || only.owned) && item.text === undefined) {
      this.items.length = at + 1;
      const text = only.owned ? (only.text ?? "") : only.head;
      if (text !== name) item.text = text;
      return;
    }
    if (count > 0 && clickOnly && item.text === undefined && !COLLECTIONS.has(role)) {
      if (joinTexts(this.items, at, name) || unwrap(this.items, at)) return;
    }
    if (count > 0) {
      item.children = true;
      return;
    }
    if (actionable || name !== "" || item.text !== undefined) return;
    if (!this.full || !(LEAF.has(tag) || KEEP_EMPTY.has(role))) this.items.length = at;
  }

  /** An element without a line of its own: its content joins the current level. */
  private flattened(el: Element, tag: string, role: string, disabled = this.disabled, pointer = this.pointer): void {
    if (LEAF.has(tag)) return;
    if (this.row && CELLS.has(role)) {
      this.cell(el, tag, role, disabled, pointer);
      return;
    }
    const control = el instanceof HTMLLabelElement ? el.control : null;
    if (control !== null && styledAway(control) && this.shownLabel(control) === el) {
      this.proxy(el, control);
      return;
    }
    const inline = isInlineTag(tag);
    const block = !inline && !this.joining;
    if (block) this.flush();
    // Blocks joined on one line (a row's cell) are still apart, and so are
    // the items of a flex or grid container.
    else if (!inline || this.laidOutApart(el)) this.run += " ";
    const saved = this.suppress;
    const { owner, ownerRole, ownerLined, pointer: inPointer } = this;
    this.pointer = pointer;
    const at = this.items.length;
    // The block's text runs are its lines; the root and body's are plain
    // text (a click there reaches nothing in particular, and Chrome's tree
    // ignores them).
    const owns = block && tag !== "body" && tag !== "html";
    if (owns) {
      this.owner = el;
      this.ownerRole = role;
      this.ownerLined = false;
    }
    // A legend's text is its group's name. In interactive mode a label's
    // text is already its control's name, a caption's its table's.
    if (tag === "legend" || (!this.full && (tag === "caption" || control !== null || this.nameSources.has(el)))) {
      this.suppress = true;
    }
    if (el.getAttribute("aria-live") === "assertive" || el.getAttribute("aria-live") === "polite") {
      const live = this.live;
      this.live = true;
      this.descend(el, tag, role, disabled);
      this.live = live;
    } else {
      this.descend(el, tag, role, disabled);
    }
    this.suppress = saved;
    if (block) this.flush();
    this.owner = owner;
    this.ownerRole = ownerRole;
    this.ownerLined = ownerLined;
    this.pointer = inPointer;
    if (owns) this.promote(at, el, role);
  }

  /**
   * An inline element right after another element, in a flex or grid
   * container: laid out as separate boxes ("Dana Scully", "Lunch" in an
   * inbox row of spans), though nothing in the text parts them. Inline
   * elements otherwise join ("in<span>line</span>" reads "inline"). The
   * container's style is read only where the text would run together.
   */
  private laidOutApart(el: Element): boolean {
    const prev = el.previousSibling;
    if (!(prev instanceof Element) || this.run === "" || /\s$/.test(this.run)) return false;
    const parent = el.parentElement;
    if (parent === null) return false;
    const d = getComputedStyle(parent).display;
    return d.includes("flex") || d.includes("grid");
  }

  /**
   * A block whose content made one line, the text of a generic
   * descendant (<li><div>Item</div></li>): the line is the block's, whose
   * role says more (a list item, a cell, a paragraph).
   */
  private promote(at: number, el: Element, role: string): void {
    const only = this.items[at];
    if (this.items.length !== at + 1 || !only?.owned || only.head !== "generic" || role === "generic" || role === "none") return;
    only.el = el;
    only.head = role + ownStates(el, role);
  }

  /**
   * The line of a control that is hidden or transparent while its label
   * is shown (custom-styled checkboxes, radios and file inputs): the
   * control's role, name and states, with the label's ref. A click on the
   * label reaches the control, and the element functions read a label's
   * control (dom.ts controlOf).
   */
  private proxy(label: Element, control: Element): void {
    this.flush();
    const role = roleOf(control, this.ctx);
    const name = this.namer.name(control, role).name;
    const disabled = this.disabled || nativelyDisabled(control);
    let head = role + (name === "" ? "" : " " + quote(clip(name, NAME_MAX)));
    head += statesOf(control, role, disabled);
    this.items.push(elementItem(this.depth, label, head, true));
  }

  /** The first shown label of a control, or null. */
  private shownLabel(control: Element): HTMLLabelElement | null {
    return this.namer.labelsOf(control).find((l) => visible(l)) ?? null;
  }

  /** interactive: a cell of a kept row adds its text to the row's line, after " | ". */
  private cell(el: Element, tag: string, role: string, disabled: boolean, pointer: boolean): void {
    if (this.run.trim() !== "") this.run += " | ";
    const { joining, pointer: inPointer } = this;
    this.joining = true;
    this.pointer = pointer;
    this.descend(el, tag, role, disabled);
    this.joining = joining;
    this.pointer = inPointer;
  }

  /** Walks el's children with the context el sets for them. */
  private descend(el: Element, tag: string, role: string, disabled: boolean): void {
    const savedCtx = this.ctx;
    const savedDisabled = this.disabled;
    this.disabled = disabled;
    if (tag === "table") {
      this.ctx = { ...savedCtx, presentationalTable: role === "none", grid: role === "grid" || role === "treegrid" };
    } else if (tag === "ul" || tag === "ol" || tag === "menu") {
      this.ctx = { ...savedCtx, listItems: role === "list" };
    } else if (SECTIONING.has(tag) && !savedCtx.sectioning) {
      this.ctx = { ...savedCtx, sectioning: true };
    }
    this.children(el);
    this.ctx = savedCtx;
    this.disabled = savedDisabled;
  }

  /** full mode: every role but generic/none, and block elements that hold text of their own. */
  private fullKeeps(el: Element, role: string, tag: string): boolean {
    // Row groups are structure only (Chrome itself ignores some of them).
    if (role === "rowgroup" || role === "none") return false;
    if (role !== "generic") return true;
    if (isInlineTag(tag) || tag === "legend") return false;
    for (let c = el.firstChild; c !== null; c = c.nextSibling) {
      if (c instanceof Text && c.data.trim() !== "") return true;
    }
    return false;
  }

  /** A select's options, one level deeper; the select is acted on, so they carry no refs. */
  private options(sel: HTMLSelectElement): void {
    const limit = this.full ? Number.POSITIVE_INFINITY : MAX_OPTIONS;
    let listed = 0;
    let more = 0;
    this.depth++;
    for (const o of sel.options) {
      // checkVisibility is false for every option of a closed select
      // (notes/chromium.md): only the hidden attribute hides one here.
      if (o.hidden) continue;
      if (listed >= limit && !o.selected) {
        more++;
        continue;
      }
      listed++;
      const label = squash(o.label);
      let head = "option" + (label === "" ? "" : " " + quote(clip(label, NAME_MAX)));
      if (o.selected) head += " [selected]";
      if (o.disabled) head += " [disabled]";
      this.items.push(elementItem(this.depth, o, head, false));
    }
    if (more > 0) this.items.push(textItem(Kind.Text, this.depth, `${more} more options`));
    this.depth--;
  }

  /** Ends the current text run as a text line. */
  private flush(): void {
    if (this.run === "") return;
    const text = squash(this.run);
    this.run = "";
    if (text === "") return;
    const long = this.live || this.row;
    const shown = this.full ? text : clipRun(this.row ? text.replace(/( \|)+$/, "") : text, long ? LONG_MAX : TEXT_MAX, long ? LONG_KEEP : TEXT_KEEP, this.tally);
    const owner = this.owner;
    if (owner === null || this.ownerLined) {
      this.items.push(textItem(Kind.Text, this.depth, shown));
      return;
    }
    this.ownerLined = true;
    // role=none (a list item of a presentational list) has no line of its own in Chrome's tree: generic.
    const role = this.ownerRole === "none" ? "generic" : this.ownerRole;
    this.items.push(ownedItem(this.depth, owner, role + ownStates(owner, this.ownerRole), shown));
  }
}

/** The states of a text run's element: only its own attributes can give it any (most have none). */
function ownStates(el: Element, role: string): string {
  return el.hasAttributes() ? statesOf(el, role, el.getAttribute("aria-disabled") === "true") : "";
}

// Inputs that pages hide to style their labels instead.
const STYLED_INPUTS = new Set(["checkbox", "radio", "file"]);

/** A checkbox, radio or file input that is not rendered or fully transparent. */
function styledAway(el: Element): boolean {
  return el instanceof HTMLInputElement && STYLED_INPUTS.has(el.type) && !opaque(el);
}

/** The root of a contenteditable region (its text is the value). */
function editingHost(el: Element, role: string): boolean {
  return role === "textbox" && el instanceof HTMLElement && el.isContentEditable && !(el instanceof HTMLTextAreaElement) && !(el instanceof HTMLInputElement);
}
