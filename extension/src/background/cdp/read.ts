// Reading DevTools protocol answers. chrome.debugger hands back untyped
// JSON; these helpers read the few fields AgentTab uses and throw a
// ProtocolShapeError naming the field when Chrome answered something else.
import { isFields } from "../fields";

export class ProtocolShapeError extends Error {
  constructor(what: string) {
    super(`Chrome answered without ${what}`);
    this.name = "ProtocolShapeError";
  }
}

export type Fields = Record<string, unknown>;

export function fieldsOf(v: unknown, what: string): Fields {
  if (!isFields(v)) throw new ProtocolShapeError(what);
  return v;
}

export function strField(f: Fields, key: string, what: string): string {
  const v = f[key];
  if (typeof v !== "string") throw new ProtocolShapeError(`${what}.${key}`);
  return v;
}

export function numField(f: Fields, key: string, what: string): number {
  const v = f[key];
  if (typeof v !== "number" || !Number.isFinite(v)) throw new ProtocolShapeError(`${what}.${key}`);
  return v;
}

export function optStr(f: Fields, key: string): string | undefined {
  const v = f[key];
  return typeof v === "string" ? v : undefined;
}
