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

/** What a snapshot's clipping left out: its status is then not "complete" (issue 11). */
export class Tally {
  /** Characters left out. */
  chars = 0;
  /** Texts cut. */
  texts = 0;

  /** clip() that counts what it leaves out. */
  clip(s: string, max: number): string {
    if (s.length <= max) return s;
    this.chars += s.length - (max - 1);
    this.texts++;
    return clip(s, max);
  }
}

/**
 * A long text run cut for interactive mode: runs up to max characters stay
 * whole; a longer one keeps about keep characters, ended at a word
 * boundary, and a marker that says how much was left out, "… (+312
 * chars)". The snapshot's header says how to read it whole.
 */
export function clipRun(s: string, max: number, keep: number, tally: Tally): string {
  if (s.length <= max) return s;
  let cut = keep;
  const space = s.lastIndexOf(" ", keep);
  // A word boundary close enough before the limit.
  if (space >= keep * 0.75) cut = space;
  const left = s.length - cut;
  tally.chars += left;
  tally.texts++;
  return `${s.slice(0, cut)}… (+${left} chars)`;
}
