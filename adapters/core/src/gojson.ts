// JSON and text written byte for byte as the Go adapter writes them
// (encoding/json, fmt's %v and %q), so that a tool result's text is the
// same whichever adapter made it (the conformance test compares them).

/** goStringify is json.Marshal's text: <, >, &, U+2028 and U+2029 escaped. */
export function goStringify(v: unknown): string {
  return JSON.stringify(v).replace(/[<>&\u2028\u2029]/g, (c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0"));
}

/** sortKeys is v as a decoded map[string]any re-encodes: every object's keys sorted. */
export function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) {
    return v.map(sortKeys);
  }
  if (isObject(v)) {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort(byteOrder)) {
      out[k] = sortKeys(v[k]);
    }
    return out;
  }
  return v;
}

/** dropNulls removes every object member whose value is null, at any depth. */
export function dropNulls(v: unknown): unknown {
  if (Array.isArray(v)) {
    return v.map(dropNulls);
  }
  if (isObject(v)) {
    const out: Record<string, unknown> = {};
    for (const [k, e] of Object.entries(v)) {
      if (e !== null) {
        out[k] = dropNulls(e);
      }
    }
    return out;
  }
  return v;
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

// byteOrder is Go's string order (UTF-8 bytes), which for the keys AgentTab
// writes (ASCII) is code unit order.
function byteOrder(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"));
}

/** goValue is fmt's %v of a decoded JSON value. */
export function goValue(v: unknown): string {
  if (v === null || v === undefined) {
    return "<nil>";
  }
  if (typeof v === "number") {
    return goFloat(v);
  }
  if (typeof v === "string") {
    return v;
  }
  if (typeof v === "boolean") {
    return String(v);
  }
  if (Array.isArray(v)) {
    return "[" + v.map(goValue).join(" ") + "]";
  }
  if (isObject(v)) {
    return "map[" + Object.keys(v).sort(byteOrder).map((k) => k + ":" + goValue(v[k])).join(" ") + "]";
  }
  return String(v);
}

// goFloat is fmt's %v of a float64 (strconv 'g', shortest digits): in
// e-notation, with a two-digit exponent, when the exponent is below -4 or
// at least 6 (the precision %g decides with when printing the shortest).
function goFloat(f: number): string {
  if (f === 0) {
    return Object.is(f, -0) ? "-0" : "0";
  }
  if (!Number.isFinite(f)) {
    return Number.isNaN(f) ? "NaN" : f > 0 ? "+Inf" : "-Inf";
  }
  const [mant = "", e = "0"] = f.toExponential().split("e");
  const exp = Number.parseInt(e, 10);
  if (exp < -4 || exp >= 6) {
    const sign = exp < 0 ? "-" : "+";
    return mant + "e" + sign + String(Math.abs(exp)).padStart(2, "0");
  }
  return String(f);
}

/** goQuote is strconv.Quote (fmt's %q of a string). */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const r = ch.codePointAt(0) ?? 0;
    if (ch === '"' || ch === "\\") {
      out += "\\" + ch;
    } else if (printable(ch)) {
      out += ch;
    } else {
      switch (ch) {
        case "\x07": out += "\\a"; break;
        case "\b": out += "\\b"; break;
        case "\f": out += "\\f"; break;
        case "\n": out += "\\n"; break;
        case "\r": out += "\\r"; break;
        case "\t": out += "\\t"; break;
        case "\v": out += "\\v"; break;
        default:
          if (r < 0x20 || r === 0x7f) {
            out += "\\x" + r.toString(16).padStart(2, "0");
          } else if (r >= 0xd800 && r <= 0xdfff) {
            out += "\\ufffd";
          } else if (r < 0x10000) {
            out += "\\u" + r.toString(16).padStart(4, "0");
          } else {
            out += "\\U" + r.toString(16).padStart(8, "0");
          }
      }
    }
  }
  return out + '"';
}

// printable is unicode.IsPrint: letters, marks, numbers, punctuation,
// symbols and the ASCII space.
function printable(ch: string): boolean {
  return ch === " " || /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u.test(ch);
}
