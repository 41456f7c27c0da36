// Text rules shared by the snapshot, the readable projection and the
// element descriptions. Pure functions: no DOM, unit-tested in text.test.ts.

/**
 * Collapses runs of HTML whitespace to one space. Only the HTML space
 * characters: Chrome keeps a no-break space (U+00A0) in accessible names.
 */
export function collapse(s: string): string {
  return s.replace(/[ \t\n\r\f]+/g, " ");
}

/** collapse() and trim, the form every name and text line takes. */
export function squash(s: string): string {
  return collapse(s).trim();
}

/** Cuts s to at most max characters, marking the cut with an ellipsis. */
export function clip(s: string, max: number): string {
  return s.length <= max ? s : s.slice(0, Math.max(0, max - 1)) + "…";
}

/** A name in double quotes with JSON escapes, so quotes inside stay unambiguous. */
export function quote(s: string): string {
  return JSON.stringify(s);
}

/** A field value on one line: line breaks shown as \n, long values clipped. */
export function oneLine(s: string, max: number): string {
  return clip(s.replace(/\r\n?|\n/g, "\\n"), max);
}
