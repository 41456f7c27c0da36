// What is hidden. The snapshot leaves hidden content out (issue 3):
// display:none, the hidden attribute, visibility:hidden, aria-hidden=true,
// and zero-size boxes that clip their content. checkVisibility() reads
// computed style only (no layout), so it is cheap per element.

/** How the walker treats an element. */
export const enum Shown {
  /** Rendered and visible. */
  Yes,
  /** visibility:hidden: the element and its text are not shown, but a child may be (visibility:visible). */
  Invisible,
  /** No box of its own (display:contents): its children are rendered. */
  Contents,
  /** Not rendered, nor anything inside it. */
  No,
}

// Both spellings: Chrome 121 renamed checkVisibilityCSS/checkOpacity to
// visibilityProperty/opacityProperty; the extension supports Chrome 120.
const WITH_VISIBILITY: CheckVisibilityOptions = { visibilityProperty: true, checkVisibilityCSS: true };
const WITH_OPACITY: CheckVisibilityOptions = {
  visibilityProperty: true,
  checkVisibilityCSS: true,
  opacityProperty: true,
  checkOpacity: true,
};

/**
 * checkVisibilityProperty false skips the visibility property (the caller
 * knows no style in el's tree scope sets it; see StyleIndex): the plain
 * checkVisibility() is about three times cheaper.
 */
export function shown(el: Element, checkVisibilityProperty: boolean): Shown {
  if (checkVisibilityProperty) {
    if (el.checkVisibility(WITH_VISIBILITY)) return Shown.Yes;
    if (el.checkVisibility()) return Shown.Invisible;
  } else if (el.checkVisibility()) {
    return Shown.Yes;
  }
  // checkVisibility() is false for display:contents elements although
  // their children render (notes/chromium.md): walk the children.
  if (getComputedStyle(el).display === "contents") return Shown.Contents;
  return Shown.No;
}

/** aria-hidden=true removes the element and everything inside it from the accessibility tree. */
export function ariaHidden(el: Element): boolean {
  return el.getAttribute("aria-hidden") === "true";
}

/**
 * A box with no width or height whose overflow is clipped shows nothing
 * inside it (a collapsed accordion). Chrome's accessibility tree still
 * lists such content; an agent cannot act on it, so the snapshot drops it.
 * Callers ask only where the tree scope's CSS clips at all (StyleIndex):
 * the computed style and the layout read cost 1–2 µs each.
 */
export function clipsToNothing(el: Element): boolean {
  if (!(el instanceof HTMLElement) || el.firstChild === null) return false;
  const s = getComputedStyle(el);
  if (s.overflow === "visible" && (s.contain === "none" || s.contain === "")) return false;
  return el.offsetWidth === 0 || el.offsetHeight === 0;
}

/** Visible with opacity taken into account: false for opacity:0 on el or an ancestor. */
export function opaque(el: Element): boolean {
  return el.checkVisibility(WITH_OPACITY);
}

/** Visible, ignoring opacity. */
export function visible(el: Element): boolean {
  return el.checkVisibility(WITH_VISIBILITY);
}
