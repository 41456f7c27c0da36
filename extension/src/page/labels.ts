// The labels of each form control, indexed once per snapshot. el.labels
// is quadratic on big pages (notes/chromium.md: 888 ms vs 126 ms at 20,000
// elements), so each tree scope's <label> elements are read once and
// mapped to their controls.

export class LabelMap {
  private readonly byControl = new Map<Element, HTMLLabelElement[]>();
  private readonly indexed = new Set<Node>();

  labelsOf(control: Element): HTMLLabelElement[] {
    const root = control.getRootNode();
    if (!this.indexed.has(root)) this.index(root);
    return this.byControl.get(control) ?? [];
  }

  private index(root: Node): void {
    this.indexed.add(root);
    if (!(root instanceof Document || root instanceof ShadowRoot)) return;
    for (const label of root.querySelectorAll("label")) {
      // label.control resolves `for` in the label's own tree scope, or the
      // first labelable descendant of a wrapping label.
      const control = label.control;
      if (!control) continue;
      const list = this.byControl.get(control);
      if (list) list.push(label);
      else this.byControl.set(control, [label]);
    }
  }
}

/**
 * The elements that aria-labelledby points at, in the document's own tree
 * scope. Their text is the name of the element that points at them, so
 * interactive mode does not repeat it as a text line.
 */
export function labelledBySources(doc: Document): Set<Element> {
  const out = new Set<Element>();
  for (const el of doc.querySelectorAll("[aria-labelledby]")) {
    for (const id of (el.getAttribute("aria-labelledby") ?? "").trim().split(/\s+/)) {
      const target = id === "" ? null : doc.getElementById(id);
      if (target) out.add(target);
    }
  }
  return out;
}
