// CSS-generated text (::before / ::after `content`) is part of Chrome's
// accessible names (notes/chromium.md: an `::after` asterisk on a label,
// a `›` in a link). This file reads it; parseContent is pure and tested.

/**
 * The text of a computed `content` value: its strings (CSS escapes
 * decoded) and attr() values, in order. The alternative text after "/"
 * replaces the rest when present, as Chrome does. Counters, quotes and
 * images contribute nothing.
 */
export function parseContent(value: string, attr: (name: string) => string): string {
  if (value === "none" || value === "normal" || value === "") return "";
  const parts = splitAlt(value);
  const source = parts.alt ?? parts.main;
  let out = "";
  let i = 0;
  while (i < source.length) {
    const c = source[i];
    if (c === '"' || c === "'") {
      const [text, end] = readString(source, i);
      out += text;
      i = end;
      continue;
    }
    const fn = /^[a-z-]+\(/i.exec(source.slice(i, i + 24));
    if (fn) {
      const close = closingParen(source, i + fn[0].length);
      // attr() gives text; url(), counter(), image-set() and the like do not.
      if (fn[0].toLowerCase() === "attr(") out += attr(source.slice(i + 5, close).trim().split(/\s+/)[0] ?? "");
      i = close + 1;
      continue;
    }
    i++;
  }
  return out;
}

/** Splits `main / alt` at a "/" outside strings. */
function splitAlt(value: string): { main: string; alt: string | undefined } {
  let i = 0;
  while (i < value.length) {
    const c = value[i];
    if (c === '"' || c === "'") {
      i = readString(value, i)[1];
      continue;
    }
    if (c === "/") return { main: value.slice(0, i), alt: value.slice(i + 1) };
    i++;
  }
  return { main: value, alt: undefined };
}

/** The index of the ")" closing a function whose arguments start at `start` (strings skipped). */
function closingParen(s: string, start: number): number {
  let depth = 1;
  let i = start;
  while (i < s.length) {
    const c = s[i];
    if (c === '"' || c === "'") {
      i = readString(s, i)[1];
      continue;
    }
    if (c === "(") depth++;
    if (c === ")" && --depth === 0) return i;
    i++;
  }
  return s.length;
}

/** Reads the CSS string starting at the quote at `start`; returns its text and the index after it. */
function readString(s: string, start: number): [string, number] {
  const q = s[start];
  let out = "";
  let i = start + 1;
  while (i < s.length) {
    const c = s[i];
    if (c === q) return [out, i + 1];
    if (c === "\\") {
      const hex = /^[0-9a-fA-F]{1,6}/.exec(s.slice(i + 1, i + 7));
      if (hex) {
        out += String.fromCodePoint(parseInt(hex[0], 16));
        i += 1 + hex[0].length;
        // One whitespace character after a hex escape belongs to the escape.
        if (s[i] === " ") i++;
        continue;
      }
      out += s[i + 1] ?? "";
      i += 2;
      continue;
    }
    out += c;
    i++;
  }
  return [out, i];
}

/**
 * The generated text of el's ::before or ::after. Each call resolves the
 * pseudo-element's style, which costs a few microseconds: callers ask only
 * for elements whose names come from their content, and only when the
 * page's style sheets mention ::before/::after at all (pseudoRules).
 */
export function pseudoText(el: Element, which: "::before" | "::after"): string {
  const style = getComputedStyle(el, which);
  const value = style.content;
  if (value === "none" || value === "normal" || value === "") return "";
  // A pseudo-element that is not rendered contributes nothing.
  if (style.display === "none") return "";
  return parseContent(value, (name) => el.getAttribute(name) ?? "");
}
