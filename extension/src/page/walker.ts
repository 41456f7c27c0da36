// The tree walk for the `interactive` and `full` snapshots: one pass over
// the rendered DOM (open shadow roots and slots included) producing items
// (items.ts). Names are computed only for elements that get a line.
//
// interactive keeps what an agent can act on (roles, tabindex >= 0,
// contenteditable, summary, onclick/draggable attributes; listeners added
// with addEventListener cannot be seen), headings, landmarks, dialogs,
// named groups, tables and rows, and short text lines; structural
// wrappers are flattened (their children move up a level).
// full keeps every element with a role other than generic/none, block
// elements with their own text, and all text.
//
// What is rendered and what is hidden: rendered-walk.ts.

import { elementItem, frameItem, Kind, NAME_MAX, textItem, type Item } from "./items";
import { isInlineTag } from "./inline-tags";
import type { Namer } from "./name";
import { RenderedWalk } from "./rendered-walk";
import { roleOf, type RoleContext } from "./roles";
import { isSensitiveElement } from "./sensitive";
import { nativelyDisabled, statesOf, valueOf } from "./states";
import { clip, oneLine, quote, squash } from "./text";
import type { StyleIndex } from "./style-index";
import { opaque, visible } from "./visibility";

/**
 * interactive mode keeps text runs up to this many characters: labels,
 * prices, counts, short messages. Longer prose is left to `full` and
 * `readable`; it is what makes a snapshot large (issue 3: at most half of
 * Playwright MCP's characters).
 */
const SHORT_TEXT = 40;
/** Text of live regions (alerts, status) and table rows is kept in interactive mode up to this length. */
const LONG_TEXT = 200;
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
  private depth = 0;
  private run = "";
  /** Inside an element whose name is its text: the text is already on its line. */
  private suppress = false;
  private live = false;
  /** interactive: inside a table row, whose cells join on one line ("a | b"). */
  private row = false;
  /** Block boundaries do not end the text line (inside a joined row). */
  private joining = false;
  private disabled = false;
  private ctx: RoleContext = { presentationalTable: false, presentationalList: false, sectioning: false, grid: false };

  constructor(
    private readonly full: boolean,
    private readonly namer: Namer,
    styles: StyleIndex,
    /** Elements whose text is another element's name (interactive mode skips it). */
    private readonly nameSources: ReadonlySet<Element>,
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
    const role = roleOf(el, this.ctx);
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
    const actionable = isActionable(el, role, tag);
    const candidate = actionable || (this.full ? this.fullKeeps(el, role, tag) : CONTEXT.has(role));
    if (!candidate) {
      this.flattened(el, tag, role, disabled);
      return;
    }
    const { name, fromContent } = this.namer.name(el, role);
    // Unnamed groups are structure, not context.
    if (!this.full && !actionable && role === "group" && name === "") {
      this.flattened(el, tag, role, disabled);
      return;
    }
    this.flush();
    let head = role;
    if (name !== "") head += " " + quote(clip(name, NAME_MAX));
    head += statesOf(el, role, disabled);
    const at = this.items.length;
    const item = elementItem(this.depth, el, head, true);
    this.items.push(item);
    if (role === "link") {
      const href = el.getAttribute("href");
      if (href !== null) item.url = clip(href, URL_MAX);
    }
    const host = editingHost(el, role);
    const value = host ? squash(el.textContent ?? "") : valueOf(el, role);
    if (value !== undefined && value !== "") item.text = oneLine(value, VALUE_MAX);
    if (el instanceof HTMLSelectElement) {
      // A sensitive select's options would show its value ([selected]).
      if (!isSensitiveElement(el)) this.options(el);
    } else if (!LEAF.has(tag) && !host) {
      const { suppress, live, row, joining } = this;
      if (fromContent) this.suppress = true;
      if (LIVE.has(role)) this.live = true;
      if (!this.full && role === "row") this.row = true;
      this.joining = false;
      this.depth++;
      this.descend(el, tag, role, disabled);
      this.flush();
      this.depth--;
      this.suppress = suppress;
      this.live = live;
      this.row = row;
      this.joining = joining;
    }
    this.settle(at, name, actionable, tag, role);
  }

  /** After an element's children: a lone text child moves onto its line; an empty context line goes. */
  private settle(at: number, name: string, actionable: boolean, tag: string, role: string): void {
    const item = this.items[at];
    if (!item) return;
    const count = this.items.length - at - 1;
    const only = this.items[at + 1];
    if (count === 1 && only && only.kind === Kind.Text && item.text === undefined) {
      this.items.length = at + 1;
      if (only.head !== name) item.text = only.head;
      return;
    }
    if (count > 0) {
      item.children = true;
      return;
    }
    if (actionable || name !== "" || item.text !== undefined) return;
    if (!this.full || !(LEAF.has(tag) || KEEP_EMPTY.has(role))) this.items.length = at;
  }

  /** An element without a line of its own: its content joins the current level. */
  private flattened(el: Element, tag: string, role: string, disabled = this.disabled): void {
    if (LEAF.has(tag)) return;
    if (this.row && CELLS.has(role)) {
      this.cell(el, tag, role, disabled);
      return;
    }
    const control = el instanceof HTMLLabelElement ? el.control : null;
    if (control !== null && styledAway(control) && this.shownLabel(control) === el) {
      this.proxy(el, control);
      return;
    }
    const block = !isInlineTag(tag) && !this.joining;
    if (block) this.flush();
    const saved = this.suppress;
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
  private cell(el: Element, tag: string, role: string, disabled: boolean): void {
    if (this.run.trim() !== "") this.run += " | ";
    const saved = this.joining;
    this.joining = true;
    this.descend(el, tag, role, disabled);
    this.joining = saved;
  }

  /** Walks el's children with the context el sets for them. */
  private descend(el: Element, tag: string, role: string, disabled: boolean): void {
    const savedCtx = this.ctx;
    const savedDisabled = this.disabled;
    this.disabled = disabled;
    if (tag === "table") {
      this.ctx = { ...savedCtx, presentationalTable: role === "none", grid: role === "grid" || role === "treegrid" };
    } else if (tag === "ul" || tag === "ol" || tag === "menu") {
      this.ctx = { ...savedCtx, presentationalList: role === "none" };
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
    if (this.full) this.items.push(textItem(Kind.Text, this.depth, text));
    else if (this.live) this.items.push(textItem(Kind.Text, this.depth, clip(text, LONG_TEXT)));
    else if (this.row) this.items.push(textItem(Kind.Text, this.depth, clip(text.replace(/( \|)+$/, ""), LONG_TEXT)));
    else if (text.length <= SHORT_TEXT) this.items.push(textItem(Kind.Text, this.depth, text));
  }
}

// Inputs that pages hide to style their labels instead.
const STYLED_INPUTS = new Set(["checkbox", "radio", "file"]);

/** A checkbox, radio or file input that is not rendered or fully transparent. */
function styledAway(el: Element): boolean {
  return el instanceof HTMLInputElement && STYLED_INPUTS.has(el.type) && !opaque(el);
}

function isActionable(el: Element, role: string, tag: string): boolean {
  if (ACTIONABLE.has(role) || tag === "summary") return true;
  if (el.hasAttribute("onclick") || el.getAttribute("draggable") === "true") return true;
  const tabindex = el.getAttribute("tabindex");
  return tabindex !== null && Number.parseInt(tabindex, 10) >= 0;
}

/** The root of a contenteditable region (its text is the value). */
function editingHost(el: Element, role: string): boolean {
  return role === "textbox" && el instanceof HTMLElement && el.isContentEditable && !(el instanceof HTMLTextAreaElement) && !(el instanceof HTMLInputElement);
}
