// Accessible names as Chrome 156 computes them for common HTML
// (accname 1.2 as implemented by Chrome; the rules notes/chromium.md lists:
// aria-labelledby, aria-label, labels, alt, title before placeholder,
// content for buttons/links/headings/cells, CSS-generated text, inline
// spans joined and blocks spaced).

import type { LabelMap } from "./labels";
import type { StyleIndex } from "./style-index";
import { pseudoText } from "./css-content";
import { NAME_FROM_CONTENT } from "./roles";
import { hidesValue, isSensitiveElement } from "./sensitive";
import { squash } from "./text";
import { ariaHidden, shown, Shown } from "./visibility";

export interface Name {
  name: string;
  /** The name was built from the element's content (its text need not be repeated). */
  fromContent: boolean;
}

const NONE: Name = { name: "", fromContent: false };

// Input types whose value is their label.
const BUTTON_INPUTS = new Set(["button", "submit", "reset"]);
// Input types that show a placeholder.
const PLACEHOLDER_INPUTS = new Set(["text", "search", "url", "tel", "email", "password", "number"]);

export class Namer {
  constructor(
    private readonly labels: LabelMap,
    private readonly styles: StyleIndex,
  ) {}

  name(el: Element, role: string): Name {
    const labelledBy = this.labelledBy(el);
    if (labelledBy !== "") return { name: labelledBy, fromContent: false };
    const ariaLabel = squash(el.getAttribute("aria-label") ?? "");
    if (ariaLabel !== "") return { name: ariaLabel, fromContent: false };
    const native = this.nativeName(el);
    if (native !== "") return { name: native, fromContent: false };
    if (NAME_FROM_CONTENT.has(role)) {
      const content = squash(this.content(el, el, true));
      if (content !== "") return { name: content, fromContent: true };
    }
    const title = squash(el.getAttribute("title") ?? "");
    if (title !== "") return { name: title, fromContent: false };
    return placeholderName(el);
  }

  private labelledBy(el: Element): string {
    const ids = el.getAttribute("aria-labelledby");
    if (ids === null) return "";
    const root = el.getRootNode();
    if (!(root instanceof Document || root instanceof ShadowRoot)) return "";
    const parts: string[] = [];
    for (const id of ids.trim().split(/\s+/)) {
      const ref = id === "" ? null : root.getElementById(id);
      if (!ref) continue;
      // A referenced element counts even when hidden (accname step 2B);
      // it is not followed further (no labelledby chains).
      const label = squash(ref.getAttribute("aria-label") ?? "");
      parts.push(label !== "" ? label : squash(this.content(ref, el, false)));
    }
    return squash(parts.join(" "));
  }

  /** Names from the element's own markup: labels, alt, legend, caption, value. */
  private nativeName(el: Element): string {
    if (el instanceof HTMLInputElement) {
      const type = el.type;
      if (BUTTON_INPUTS.has(type)) {
        const value = el.getAttribute("value");
        if (value !== null && value !== "") return squash(value);
        return type === "submit" ? "Submit" : type === "reset" ? "Reset" : "";
      }
      if (type === "image") {
        return squash(el.getAttribute("alt") ?? el.getAttribute("value") ?? "") || "Submit";
      }
      return this.labelText(el);
    }
    if (el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement || el instanceof HTMLButtonElement) {
      return this.labelText(el);
    }
    if (el instanceof HTMLMeterElement || el instanceof HTMLProgressElement || el instanceof HTMLOutputElement) {
      return this.labelText(el);
    }
    switch (el.localName) {
      case "img":
      case "area":
        return squash(el.getAttribute("alt") ?? "");
      case "fieldset":
        return this.firstChildText(el, "legend");
      case "table":
        return this.firstChildText(el, "caption");
      case "figure":
        return this.firstChildText(el, "figcaption");
      case "svg":
        return this.firstChildText(el, "title");
      case "option":
        return squash((el instanceof HTMLOptionElement ? el.label : "") || this.content(el, el, true));
      default:
        return "";
    }
  }

  /** The control's labels (label[for] and wrapping labels), from the map built once per snapshot. */
  labelsOf(control: Element): HTMLLabelElement[] {
    return this.labels.labelsOf(control);
  }

  private labelText(control: Element): string {
    const labels = this.labels.labelsOf(control);
    if (labels.length === 0) return "";
    return squash(labels.map((l) => this.content(l, control, true)).join(" "));
  }

  /** The text of el's first child element with this tag (legend, caption, figcaption, title). */
  private firstChildText(el: Element, tag: string): string {
    for (const c of el.children) {
      if (c.localName === tag) return squash(this.content(c, el, true));
    }
    return "";
  }

  /**
   * The text of node's subtree for a name: text nodes, CSS-generated text,
   * alt text, the values of embedded controls (never of sensitive fields),
   * blocks separated by a space. `self` is the element being named (it
   * contributes no value to its own name); `checkHidden` is false for
   * aria-labelledby targets, whose hidden content counts.
   */
  content(node: Element, self: Element, checkHidden: boolean): string {
    let out = this.pseudoBefore(node);
    const kids = renderedChildren(node);
    if (kids === null) {
      for (let c = node.firstChild; c !== null; c = c.nextSibling) out += this.childText(c, self, checkHidden);
    } else {
      for (const c of kids) out += this.childText(c, self, checkHidden);
    }
    return out + this.pseudoAfter(node);
  }

  private childText(child: Node, self: Element, checkHidden: boolean): string {
    if (child instanceof Text) return child.data;
    if (!(child instanceof Element)) return "";
    if (checkHidden) {
      if (ariaHidden(child)) return "";
      const s = shown(child, true);
      if (s === Shown.No || s === Shown.Invisible) return "";
    }
    const text = this.childContent(child, self, checkHidden);
    return inlineDisplay(child) ? text : " " + text + " ";
  }

  private childContent(el: Element, self: Element, checkHidden: boolean): string {
    const tag = el.localName;
    if (tag === "br") return " ";
    // The control being named adds nothing to its own name: a wrapping
    // <label>Toppings <select multiple>…</select></label> names the listbox
    // "Toppings", not "Toppings Cheese Ham" (its visible options).
    if (embeddedControl(el)) return el === self ? "" : controlValue(el);
    if (tag === "img" || tag === "area") return el.getAttribute("alt") ?? el.getAttribute("title") ?? "";
    if (tag === "svg") return squash(el.getAttribute("aria-label") ?? "") || this.firstChildText(el, "title");
    if (tag === "script" || tag === "style" || tag === "template") return "";
    const label = squash(el.getAttribute("aria-label") ?? "");
    if (label !== "") return label;
    return this.content(el, self, checkHidden);
  }

  private pseudoBefore(el: Element): string {
    return this.styles.pseudo(el) ? pseudoText(el, "::before") : "";
  }

  private pseudoAfter(el: Element): string {
    return this.styles.pseudo(el) ? pseudoText(el, "::after") : "";
  }
}

/** The placeholder, the last resort for text fields (Chrome 156: title wins over it). */
function placeholderName(el: Element): Name {
  const isText =
    (el instanceof HTMLInputElement && PLACEHOLDER_INPUTS.has(el.type)) || el instanceof HTMLTextAreaElement;
  const placeholder = isText ? el.getAttribute("placeholder") : el.getAttribute("aria-placeholder");
  const name = squash(placeholder ?? "");
  return name === "" ? NONE : { name, fromContent: false };
}

/** An open shadow root's children or a slot's assigned nodes; null: the light children. */
export function renderedChildren(node: Element): NodeListOf<ChildNode> | Node[] | null {
  if (node.shadowRoot) return node.shadowRoot.childNodes;
  if (node instanceof HTMLSlotElement) {
    const assigned = node.assignedNodes();
    if (assigned.length > 0) return assigned;
  }
  return null;
}

/** Joins without a space: display inline only (Chrome spaces inline-block, inline-flex… like blocks). */
function inlineDisplay(el: Element): boolean {
  const d = getComputedStyle(el).display;
  return d === "inline" || d === "contents";
}

function embeddedControl(el: Element): boolean {
  return (
    (el instanceof HTMLInputElement && el.type !== "hidden") ||
    el instanceof HTMLTextAreaElement ||
    el instanceof HTMLSelectElement
  );
}

/** What an embedded control adds to a label's text: its value, never a sensitive one. */
function controlValue(el: Element): string {
  if (el instanceof HTMLSelectElement) {
    return isSensitiveElement(el) ? "" : [...el.selectedOptions].map((o) => o.label).join(" ");
  }
  if (el instanceof HTMLInputElement) {
    if (el.type === "checkbox" || el.type === "radio" || hidesValue(el)) return "";
    return BUTTON_INPUTS.has(el.type) ? el.value : " " + el.value + " ";
  }
  if (el instanceof HTMLTextAreaElement) return " " + el.value + " ";
  return "";
}
