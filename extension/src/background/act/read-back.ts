// Reading a field back after a keyboard step. Source of truth: issue 11
// item 4 (a fill whose read-back differs from what was asked fails with a
// clear code and the value the field holds, instead of a note). A field
// may format what it takes (an input mask's separators, upper case, a
// colour in lower case): that is taken, and the receipt says how it reads.
// A sensitive field's value is never read (page/key-target.ts fieldValue
// leaves it out); such fields are refused before anyway.
import { CodeValueNotAccepted } from "../../protocol/generated";
import type { FieldValue } from "../../shared/page-agent";
import type { Failure } from "../native/failure";
import { failure } from "../native/failure";

/** How much of a field's value a message quotes. */
const QUOTED_MAX = 80;

/** Letters and digits in lower case: what formatting (separators, case, spaces, line breaks) leaves of a text. */
function core(s: string): string {
  return s.normalize("NFC").toLowerCase().replace(/[^\p{L}\p{N}]/gu, "");
}

/**
 * Whether the field holds what was asked: exactly, formatted (the same
 * letters and digits), or not; unknown for a field whose value is not read.
 */
export function readBack(asked: string, held: FieldValue): "same" | "formatted" | "different" | "unknown" {
  if (held.value === undefined) return held.length === asked.length ? "unknown" : "different";
  if (held.value === asked) return "same";
  const want = core(asked);
  if (want !== core(held.value)) return "different";
  // Text without letters or digits ("", "--") is compared as itself.
  return want !== "" || held.value.trim() === asked.trim() ? "formatted" : "different";
}

/** A field's value for a message, quoted and clipped; a length only when it is not read. */
export function shown(held: FieldValue): string {
  if (held.value === undefined) return `${held.length} character${held.length === 1 ? "" : "s"}`;
  const v = held.value.length <= QUOTED_MAX ? held.value : held.value.slice(0, QUOTED_MAX - 1) + "…";
  return JSON.stringify(v);
}

// What a picker field's value looks like (HTML's value formats), for the
// message when it did not take one.
const FORMATS: Record<string, string> = {
  date: "yyyy-mm-dd (2010-05-20)",
  time: "hh:mm or hh:mm:ss on a 24-hour clock (13:45)",
  "datetime-local": "yyyy-mm-ddThh:mm (2010-05-20T13:45)",
  month: "yyyy-mm (2010-05)",
  week: "yyyy-Www (2010-W20)",
  color: "#rrggbb (#ff0000)",
  range: "a number within its min, max and step",
};

/** The fill a field did not take: what it holds now, and, for a picker, the format it takes. */
export function notAccepted(what: string, held: FieldValue, picker?: string, became?: string): Failure {
  const format = picker === undefined ? "" : ` (a ${picker} field takes ${FORMATS[picker] ?? "its value format"}${became !== undefined && became !== "" ? `; the browser made the value ${JSON.stringify(became)}` : ""})`;
  const why = picker === undefined ? "; the page limits, reformats or rejects what it takes" : "";
  return failure(CodeValueNotAccepted, `${what} did not take the value${format}: it holds ${shown(held)}${why}`);
}
