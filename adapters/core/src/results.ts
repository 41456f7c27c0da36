// Tool results exactly as internal/mcpserver's result.go, snapshot_text.go
// and tool_act.go make them: the JSON as text (one line, nulls dropped),
// a failure as "code: message\nRecovery: …\nOutcome: …", the snapshot's
// header and tree as text.
import { dropNulls, goQuote, goStringify, isObject, sortKeys } from "./gojson";
import { RouteScripting, SnapshotFailure } from "./protocol";
import type { ProtocolErrorData } from "./protocol";
import type { ToolResult } from "./types";

/** toolResult turns a Core answer (or a failure) into a tool result. */
export function toolResult(v: unknown, perr?: ProtocolErrorData): ToolResult {
  if (perr !== undefined) {
    const text = `${perr.code}: ${perr.message}\nRecovery: ${perr.recovery}\nOutcome: ${perr.outcome}`;
    const sc: Record<string, unknown> = { code: perr.code, message: perr.message, recovery: perr.recovery, outcome: perr.outcome };
    if (perr.lifecycle !== undefined && perr.lifecycle !== null && (perr.lifecycle as string) !== "") {
      sc["lifecycle"] = perr.lifecycle;
    }
    return { isError: true, content: [{ type: "text", text }], structuredContent: sc };
  }
  const raw = encodeResult(v);
  return { isError: false, content: [{ type: "text", text: raw }], structuredContent: JSON.parse(raw) as Record<string, unknown> };
}

/**
 * encodeResult is result.go's encodeResult: the result's JSON in one line.
 * Go drops null members by decoding into a map when the text holds "null"
 * anywhere, which also sorts every object's keys: so here.
 */
export function encodeResult(v: unknown): string {
  const raw = goStringify(v);
  if (!raw.includes("null")) {
    return raw;
  }
  return goStringify(sortKeys(dropNulls(v)));
}

/** with is obj with key set to value in place (its position kept), or removed for undefined. */
export function withField(obj: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  let placed = false;
  for (const [k, e] of Object.entries(obj)) {
    if (k === key) {
      placed = true;
      if (value !== undefined) {
        out[k] = value;
      }
    } else {
      out[k] = e;
    }
  }
  if (!placed && value !== undefined) {
    out[key] = value;
  }
  return out;
}

function str(v: unknown): string {
  return typeof v === "string" ? v : "";
}

function num(v: unknown): string {
  return typeof v === "number" ? String(v) : "0";
}

/** snapshotText is snapshot_text.go: a short header, a blank line, the tree. */
export function snapshotText(r: Record<string, unknown>): string {
  const cov = isObject(r["coverage"]) ? r["coverage"] : {};
  let b = `tab: ${str(r["tab"])}\nurl: ${str(r["url"])}\ntitle: ${str(r["title"])}\npage_revision: ${num(r["page_revision"])} (ref_epoch ${num(r["ref_epoch"])})\n`;
  b += `mode: ${str(r["mode"])}; characters ${num(cov["start"])}–${num(cov["end"])} of ${num(cov["total"])}; ${str(r["status"])}`;
  if (str(r["truncated_reason"]) !== "") {
    b += ` (${str(r["truncated_reason"])})`;
  }
  b += "\n";
  if (r["served_by"] === RouteScripting) {
    b += "route: scripting (Chrome refuses the debugger on this tab): top frame only; click, text, select, check, focus and scroll steps and text or ref waits work, as DOM events without user activation (a page may ignore them); hover, keys, drag, dialogs, network-idle and download waits and screenshots fail debugger_unavailable\n";
  }
  for (const stop of Array.isArray(r["origin_stops"]) ? r["origin_stops"] : []) {
    const s = isObject(stop) ? stop : {};
    b += `origin policy stopped a navigation the page started: ${str(s["url"])} (${str(s["reason"])})\n`;
  }
  if (r["found"] === false) {
    b += "find: no match at or after start\n";
  }
  if (isObject(r["dialog"])) {
    b += `dialog open: ${str(r["dialog"]["type"])} ${goQuote(str(r["dialog"]["message"]))} (answer with a dialog step)\n`;
  }
  if (isObject(r["screenshot"])) {
    const s = r["screenshot"];
    b += `screenshot: ${str(s["uri"])} (${str(s["mime_type"])}, ${num(s["bytes"])} bytes, file ${str(s["path"])})\n`;
  }
  return b + "\n" + str(r["text"]);
}

/** snapshotResult is browser_snapshot's result before any screenshot: the tree once, in the text. */
export function snapshotResult(res: Record<string, unknown>): ToolResult {
  const text = snapshotText(res);
  const r = toolResult(withField(res, "text", undefined));
  r.content = [{ type: "text", text }];
  return r;
}

/** actResult is tool_act.go's actResult: the receipt line, then the snapshot as browser_snapshot gives it. */
export function actResult(res: Record<string, unknown>): ToolResult {
  const snap = res["snapshot"];
  if (!isObject(snap) || snap["status"] === SnapshotFailure) {
    return toolResult(res);
  }
  const receipt = encodeResult(withField(res, "snapshot", undefined));
  const tree = snapshotText(snap);
  const r = toolResult(withField(res, "snapshot", withField(snap, "text", undefined)));
  if (!r.isError) {
    r.content = [{ type: "text", text: receipt + "\n" + tree }];
  }
  return r;
}
