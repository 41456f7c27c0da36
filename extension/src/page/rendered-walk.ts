// The walk both snapshot walkers share: the rendered tree (open shadow
// roots instead of their hosts' light children, a slot's assigned nodes),
// with hidden content left out (visibility.ts) and each tree scope's CSS
// consulted once (StyleIndex) to skip style reads that cannot matter.
//
// Closed shadow roots are out of reach here (el.shadowRoot is null in
// every world but the extension's own DOM APIs): their content is missing
// unless slotted from the light DOM.

import { renderedChildren } from "./name";
import type { ScopeStyle, StyleIndex } from "./style-index";
import { ariaHidden, clipsToNothing, shown, Shown } from "./visibility";

export abstract class RenderedWalk {
  /** The CSS possibilities of the tree scope being walked. */
  protected scope: ScopeStyle;
  /** Inside visibility:hidden: text is not shown (a descendant may set visible). */
  protected invisible = false;

  constructor(
    protected readonly styles: StyleIndex,
    private readonly skipped: ReadonlySet<string>,
  ) {
    this.scope = styles.of(document);
  }

  /** A text node of a shown element. */
  protected abstract text(t: Text): void;
  /** A shown element (its tag is el.localName). */
  protected abstract shownElement(el: Element, tag: string): void;
  /** An element hidden by visibility:hidden, whose children may still show. */
  protected abstract invisibleElement(el: Element, tag: string): void;

  protected children(node: Element): void {
    const kids = renderedChildren(node);
    if (kids === null) {
      // A plain sibling loop: iterating a NodeList with for-of costs
      // several times more in the isolated world.
      for (let c = node.firstChild; c !== null; c = c.nextSibling) this.child(c);
      return;
    }
    const first = kids[0];
    if (first === undefined) return;
    // A shadow root's children, or slotted nodes of the host's tree scope.
    const saved = this.scope;
    this.scope = this.styles.of(first.getRootNode());
    for (const c of kids) this.child(c);
    this.scope = saved;
  }

  private child(c: Node): void {
    if (c instanceof Text) {
      if (!this.invisible) this.text(c);
    } else if (c instanceof Element) {
      this.element(c);
    }
  }

  protected element(el: Element): void {
    if (ariaHidden(el)) return;
    const tag = el.localName;
    if (this.skipped.has(tag)) return;
    const s = shown(el, this.scope.visibility);
    if (s === Shown.No) return;
    if (s === Shown.Contents) {
      this.children(el);
      return;
    }
    const inherited = this.invisible;
    // Without visibility rules in this scope the element inherits its
    // parent's visibility.
    if (s === Shown.Invisible || (inherited && !this.scope.visibility)) {
      this.invisible = true;
      this.invisibleElement(el, tag);
      this.invisible = inherited;
      return;
    }
    if (this.scope.overflow && clipsToNothing(el)) return;
    this.invisible = false;
    this.shownElement(el, tag);
    this.invisible = inherited;
  }
}
