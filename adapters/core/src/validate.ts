// Tool arguments checked against the tool's input schema, with the
// failure internal/mcpserver/args.go gives: invalid_params naming the
// first field at fault (actions[2].kind) and what is wrong with it, in
// jsonschema-go's words. Only the keywords the generated schemas use are
// known: type, enum, properties, required, additionalProperties, items,
// minItems, maxItems (TestSchemaKeywordsKnown in the conformance test
// fails when a schema uses another).
import { adapterConstants } from "./tools.generated";
import { goValue, isObject } from "./gojson";

type Schema = Record<string, unknown>;

/** knownKeywords are the schema keywords validate understands. */
export const knownKeywords = ["type", "enum", "properties", "required", "additionalProperties", "items", "minItems", "maxItems", "description"] as const;

/** fault is args.go's fault: the path of the first value s refuses and why; undefined when v passes. */
export function fault(s: Schema, v: unknown, path = ""): { field: string; detail: string } | undefined {
  const err = check(s, v);
  if (err === undefined) {
    return undefined;
  }
  if (isObject(v)) {
    const props = isObject(s["properties"]) ? s["properties"] : {};
    for (const name of strings(s["required"])) {
      if (!(name in v)) {
        return { field: join(path, name), detail: "missing, and it is required" };
      }
    }
    for (const name of Object.keys(v).sort()) {
      const prop = props[name];
      if (!isObject(prop)) {
        if (s["additionalProperties"] === false) {
          return { field: join(path, name), detail: "not a field this tool takes" };
        }
        continue;
      }
      const f = fault(prop, v[name], join(path, name));
      if (f !== undefined) {
        return f;
      }
    }
  } else if (Array.isArray(v) && isObject(s["items"])) {
    const items = s["items"];
    for (let i = 0; i < v.length; i++) {
      const f = fault(items, v[i], `${path}[${i}]`);
      if (f !== undefined) {
        return f;
      }
    }
  }
  return { field: path, detail: leafDetail(err) };
}

// check is the first error jsonschema-go's Validate reports for v against
// s alone: type, enum, then the array and object keywords.
function check(s: Schema, v: unknown): string | undefined {
  const want = s["type"];
  if (typeof want === "string") {
    const got = jsonType(v);
    if (got !== want && !(got === "integer" && want === "number")) {
      return `type: ${goValue(v)} has type "${got}", want "${want}"`;
    }
  }
  const en = s["enum"];
  if (Array.isArray(en) && !en.some((e) => e === v)) {
    return `enum: ${goValue(v)} does not equal any of: ${goValue(en)}`;
  }
  if (Array.isArray(v)) {
    if (isObject(s["items"])) {
      for (const item of v) {
        const e = check(s["items"], item);
        if (e !== undefined) {
          return e;
        }
      }
    }
    const min = s["minItems"];
    if (typeof min === "number" && v.length < min) {
      return `minItems: array length ${v.length} is less than ${min}`;
    }
    const max = s["maxItems"];
    if (typeof max === "number" && v.length > max) {
      return `maxItems: array length ${v.length} is greater than ${max}`;
    }
  }
  if (isObject(v)) {
    const props = isObject(s["properties"]) ? s["properties"] : {};
    for (const [name, prop] of Object.entries(props)) {
      if (name in v && isObject(prop)) {
        const e = check(prop, v[name]);
        if (e !== undefined) {
          return e;
        }
      }
    }
    if (s["additionalProperties"] === false) {
      const extra = Object.keys(v).filter((k) => !(k in props));
      if (extra.length > 0) {
        return `unexpected additional properties ${JSON.stringify(extra)}`;
      }
    }
    const missing = strings(s["required"]).filter((k) => !(k in v));
    if (missing.length > 0) {
      return `required: missing properties: ${JSON.stringify(missing)}`;
    }
  }
  return undefined;
}

function jsonType(v: unknown): string {
  if (v === null || v === undefined) {
    return "null";
  }
  if (typeof v === "number") {
    return Number.isInteger(v) ? "integer" : "number";
  }
  if (Array.isArray(v)) {
    return "array";
  }
  return typeof v === "object" ? "object" : typeof v;
}

// leafDetail keeps a message short: it quotes the value, which may be long
// (args.go: cut at maxDetail bytes).
function leafDetail(d: string): string {
  const b = Buffer.from(d, "utf8");
  return b.length > adapterConstants.maxDetail ? b.subarray(0, adapterConstants.maxDetail).toString("utf8") + "…" : d;
}

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
}

function join(path: string, name: string): string {
  return path === "" ? name : path + "." + name;
}
