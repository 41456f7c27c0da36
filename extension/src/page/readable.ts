// The `readable` projection: the page's visible text as semantic blocks,
// markdown-like and compact — headings "## Title", paragraphs as plain
// lines, list items "- item" (nested lists indented), quotes "> ", code
// in ``` fences, table rows "| a | b |", links inline as [text](href).
// Selected text comes first ("Selected text: …"). No refs, except on
// <iframe> lines, which the service worker needs to splice child frames
// in: an agent reads here and acts through an interactive snapshot.

import { frameItem, Kind, textItem, type Item } from "./items";
import { isInlineTag } from "./inline-tags";
import type { Namer } from "./name";
import { RenderedWalk } from "./rendered-walk";
import type { StyleIndex } from "./style-index";
import { explicitRole, headingLevel } from "./roles";
import { clip, squash } from "./text";
import { ariaHidden, shown, Shown } from "./visibility";

const SELECTION_MAX = 1000;
const URL_MAX = 100;
const SKIP = new Set([
  "script", "style", "template", "noscript", "head", "meta", "link", "base", "input", "select", "textarea",
  "button", "img", "svg", "video", "audio", "canvas", "object", "embed", "math", "hr",
]);

export class ReadableWalker extends RenderedWalk {
  private readonly items: Item[] = [];
  private run = "";
  /** Prefix of the next line ("## ", "- "); consumed by the first line written. */
  private prefix = "";
  /** "> " for each enclosing blockquote. */
  private quoted = "";
  private listDepth = 0;
  /** Inside a table row: cells join on one line. */
  private inRow = false;

  constructor(
    private readonly namer: Namer,
    styles: StyleIndex,
  ) {
    super(styles, SKIP);
  }

  walk(root: Element, selection: string): Item[] {
    const sel = squash(selection);
    if (sel !== "") this.items.push(textItem(Kind.Raw, 0, "Selected text: " + clip(sel, SELECTION_MAX)));
    this.element(root);
    this.flush();
    return this.items;
  }

  protected text(t: Text): void {
    this.run += t.data;
  }

  protected invisibleElement(el: Element): void {
    this.children(el);
  }

  protected shownElement(el: Element, tag: string): void {
    this.block(el, tag);
  }

  private block(el: Element, tag: string): void {
    if (tag === "br") {
      if (this.inRow) this.run += " ";
      else this.flush();
      return;
    }
    if (tag === "iframe" || tag === "frame") {
      this.flush();
      this.items.push(frameItem(0, el, this.namer.name(el, "iframe").name));
      return;
    }
    if (tag === "a" && el.hasAttribute("href")) return this.link(el);
    const role = explicitRole(el);
    if (/^h[1-6]$/.test(tag) || role === "heading") return this.lined(el, "#".repeat(headingLevel(el)) + " ");
    switch (tag) {
      case "li":
        return this.lined(el, "- ");
      case "ul":
      case "ol":
      case "menu":
      case "dl": {
        this.flush();
        this.listDepth++;
        this.children(el);
        this.flush();
        this.listDepth--;
        return;
      }
      case "blockquote": {
        this.flush();
        const saved = this.quoted;
        this.quoted += "> ";
        this.children(el);
        this.flush();
        this.quoted = saved;
        return;
      }
      case "pre":
        return this.pre(el);
      case "tr":
        return this.row(el);
    }
    if (isInlineTag(tag) || this.inRow) {
      this.children(el);
      return;
    }
    this.flush();
    this.children(el);
    this.flush();
  }

  /** A block whose first line takes a prefix (heading marks, list bullets). */
  private lined(el: Element, prefix: string): void {
    this.flush();
    this.prefix = prefix;
    this.children(el);
    this.flush();
    this.prefix = "";
  }

  private link(el: Element): void {
    const outer = this.run;
    this.run = "";
    this.children(el);
    let text = squash(this.run);
    this.run = outer;
    if (text === "") text = this.namer.name(el, "link").name;
    const href = el.getAttribute("href") ?? "";
    // A script link has no destination worth reading.
    if (href.startsWith("javascript:")) this.run += text;
    else this.run += `[${text}](${clip(href, URL_MAX)})`;
  }

  private pre(el: Element): void {
    this.flush();
    const depth = this.listDepth;
    const text = el.textContent ?? "";
    this.items.push(textItem(Kind.Raw, depth, this.quoted + "```"));
    for (const line of text.replace(/\n$/, "").split("\n")) this.items.push(textItem(Kind.Raw, depth, this.quoted + line));
    this.items.push(textItem(Kind.Raw, depth, this.quoted + "```"));
  }

  private row(el: Element): void {
    this.flush();
    const saved = this.inRow;
    this.inRow = true;
    const cells: string[] = [];
    for (const cell of el.children) {
      if (cell.localName !== "td" && cell.localName !== "th") continue;
      if (ariaHidden(cell) || shown(cell, true) !== Shown.Yes) continue;
      this.children(cell);
      cells.push(squash(this.run));
      this.run = "";
    }
    this.inRow = saved;
    if (cells.some((c) => c !== "")) {
      this.items.push(textItem(Kind.Raw, this.listDepth, this.quoted + "| " + cells.join(" | ") + " |"));
    }
  }

  private flush(): void {
    if (this.inRow) return;
    const text = squash(this.run);
    this.run = "";
    if (text === "") return;
    const depth = Math.max(0, this.listDepth - 1);
    this.items.push(textItem(Kind.Raw, depth, this.quoted + this.prefix + text));
    this.prefix = "";
  }
}
