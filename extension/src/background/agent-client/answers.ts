// The one runtime check of each page agent function's answer. The agent
// is AgentTab's own code (src/page, contract src/shared/page-agent.ts),
// but it runs in a page and its answers cross chrome.debugger or
// chrome.scripting as untyped JSON, so each is read defensively here, and
// only here: callers get the contract's types (client.ts).
//
// ANSWERS is keyed by the contract's functions: one without an entry (a
// function added to PageAgent) fails tsc.
import type { AimLooks, ChallengeSighting, CredentialHeld, CredentialTarget, EffectReport, FieldValue, FocusedField, FrameSnapshot, HitTest, KeyReady, KeysSeen, KeyTarget, NotActionable, PageAgent, PickResult, TargetInfo } from "../../shared/page-agent";
import { ChallengeConfidenceValues, ChallengeInteractionValues, ChallengeKindValues, EffectValues } from "../../protocol/generated";
import { isFields } from "../fields";

/** The agent's functions that hand out an element: a remote object, only the debugger can hold one (client.ts ElementClient). */
export type ElementMethod = { [K in keyof PageAgent]: ReturnType<PageAgent[K]> extends Element | null ? K : never }[keyof PageAgent];

/** The agent's functions whose answers are JSON values. */
export type ValueMethod = Exclude<keyof PageAgent, ElementMethod>;

/** A function's arguments, as the contract has them. */
export type AgentArgs<K extends keyof PageAgent> = Parameters<PageAgent[K]>;

/** A function's answer, as the contract has it (an asynchronous one's awaited). */
export type Answer<K extends ValueMethod> = Awaited<ReturnType<PageAgent[K]>>;

/** The state a ref wait reads (PageAgent.state). */
export type ElementState = Answer<"state">;

/** An answer that does not have the contract's shape: what is wrong with it. */
export class AnswerShape extends Error {
  constructor(what: string) {
    super(what);
    this.name = "AnswerShape";
  }
}

type Fields = Record<string, unknown>;

function fields(v: unknown, what: string): Fields {
  if (!isFields(v)) throw new AnswerShape(`${what} is not an object`);
  return v;
}

function num(f: Fields, key: string, what: string): number {
  const v = f[key];
  if (typeof v !== "number" || !Number.isFinite(v)) throw new AnswerShape(`${what}.${key} is not a number`);
  return v;
}

function str(f: Fields, key: string, what: string): string {
  const v = f[key];
  if (typeof v !== "string") throw new AnswerShape(`${what}.${key} is not a string`);
  return v;
}

function optStr(f: Fields, key: string): string | undefined {
  const v = f[key];
  return typeof v === "string" ? v : undefined;
}

function bool(v: unknown): boolean {
  if (typeof v !== "boolean") throw new AnswerShape("the answer is not true or false");
  return v;
}

function count(v: unknown): number {
  if (typeof v !== "number" || !Number.isSafeInteger(v) || v < 0) throw new AnswerShape("the answer is not a count");
  return v;
}

// JSON has no undefined: an absent answer may arrive as null (chrome.scripting).
function optBool(v: unknown): boolean | undefined {
  return v === undefined || v === null ? undefined : bool(v);
}

function optString(v: unknown): string | null {
  if (v === undefined || v === null) return null;
  if (typeof v !== "string") throw new AnswerShape("the answer is not a string or null");
  return v;
}

function frameSnapshot(v: unknown): FrameSnapshot {
  const f = fields(v, "the snapshot");
  const frames = f["frames"];
  if (!Array.isArray(frames)) throw new AnswerShape("the snapshot's frames are not a list");
  if (typeof f["truncated"] !== "boolean") throw new AnswerShape("the snapshot's truncated is not true or false");
  const snap: FrameSnapshot = {
    text: str(f, "text", "the snapshot"),
    truncated: f["truncated"],
    nextId: num(f, "nextId", "the snapshot"),
    frames: frames.map((x) => {
      const g = fields(x, "a frame of the snapshot");
      return { ref: str(g, "ref", "frame"), line: num(g, "line", "frame") };
    }),
    title: str(f, "title", "the snapshot"),
    url: str(f, "url", "the snapshot"),
  };
  if (typeof f["totalChars"] === "number") snap.totalChars = f["totalChars"];
  if (f["clipped"] !== undefined) {
    const c = fields(f["clipped"], "the snapshot's clipped");
    snap.clipped = { texts: num(c, "texts", "clipped"), chars: num(c, "chars", "clipped") };
  }
  return snap;
}

// Keyed by the contract's union: a reason added there fails tsc here.
const NOT_ACTIONABLE: Readonly<Record<NotActionable, true>> = {
  detached: true,
  hidden: true,
  transparent: true,
  disabled: true,
  not_editable: true,
  no_box: true,
  re_aimed: true,
};

function isNotActionable(v: unknown): v is NotActionable {
  return typeof v === "string" && Object.hasOwn(NOT_ACTIONABLE, v);
}

function targetInfo(v: unknown): TargetInfo {
  const f = fields(v, "the target");
  const info: TargetInfo = {
    ok: f["ok"] === true,
    x: num(f, "x", "target"),
    y: num(f, "y", "target"),
    width: num(f, "width", "target"),
    height: num(f, "height", "target"),
    sensitive: f["sensitive"] === true,
    description: optStr(f, "description") ?? "",
  };
  if (isNotActionable(f["reason"])) info.reason = f["reason"];
  if (typeof f["editable"] === "boolean") info.editable = f["editable"];
  // page/motion.ts: a running animation moves it (a hidden tab's two looks rarely see it).
  if (f["moving"] === true) info.moving = true;
  return info;
}

function hitTest(v: unknown): HitTest {
  const f = fields(v, "the hit test");
  const covering = optStr(f, "covering");
  return covering === undefined ? { ok: f["ok"] === true } : { ok: f["ok"] === true, covering };
}

function aimLooks(v: unknown): AimLooks {
  const f = fields(v, "the aim");
  const looks: AimLooks = { first: targetInfo(f["first"]) };
  if (f["second"] !== undefined) looks.second = targetInfo(f["second"]);
  if (f["hit"] !== undefined) looks.hit = hitTest(f["hit"]);
  return looks;
}

function position(v: unknown): { x: number; y: number } {
  const f = fields(v, "the scroll position");
  return { x: num(f, "x", "position"), y: num(f, "y", "position") };
}

function selection(v: unknown): Answer<"select"> {
  const f = fields(v, "the selection");
  const selected = Array.isArray(f["selected"]) ? f["selected"].filter((s): s is string => typeof s === "string") : [];
  const error = optStr(f, "error");
  return error === undefined ? { ok: f["ok"] === true, selected } : { ok: f["ok"] === true, selected, error };
}

// Keyed by the contract's union, like NOT_ACTIONABLE.
const ELEMENT_STATES: Readonly<Record<ElementState, true>> = { visible: true, hidden: true, enabled: true, disabled: true, gone: true };

function isElementState(v: unknown): v is ElementState {
  return typeof v === "string" && Object.hasOwn(ELEMENT_STATES, v);
}

function elementState(v: unknown): ElementState {
  if (isElementState(v)) return v;
  throw new AnswerShape(`${JSON.stringify(v) ?? "undefined"} is not an element state`);
}

function focusedField(v: unknown): FocusedField {
  const f = fields(v, "the field");
  return { sensitive: f["sensitive"] === true, description: optStr(f, "description") ?? "", sealed: f["sealed"] === true, frame: f["frame"] === true };
}

function fieldValue(v: unknown): FieldValue {
  const f = fields(v, "the field's value");
  const length = num(f, "length", "the field's value");
  const value = optStr(f, "value");
  return value === undefined ? { length } : { length, value };
}

function keyTarget(v: unknown): KeyTarget {
  const f = fields(v, "the key target");
  const info: KeyTarget = targetInfo(v);
  if (f["byFocus"] === true) info.byFocus = true;
  const picker = optStr(f, "picker");
  if (picker !== undefined) info.picker = picker;
  if (f["multiline"] === true) info.multiline = true;
  if (f["ready"] !== undefined) info.ready = fieldValue(f["ready"]);
  return info;
}

function keyReady(v: unknown): KeyReady {
  const f = fields(v, "the key field");
  return f["held"] === undefined ? { focused: f["focused"] === true } : { focused: f["focused"] === true, held: fieldValue(f["held"]) };
}

// Keyed by the contract's union, like NOT_ACTIONABLE.
const PICKED: Readonly<Record<PickResult["done"], true>> = { set: true, refused: true, not_accepted: true };

function isPickDone(v: unknown): v is PickResult["done"] {
  return typeof v === "string" && Object.hasOwn(PICKED, v);
}

function pickResult(v: unknown): PickResult {
  const f = fields(v, "the picked value");
  const done = f["done"];
  if (!isPickDone(done)) throw new AnswerShape("the picked value's done is not set, refused or not_accepted");
  const r: PickResult = { done, held: fieldValue(f["held"]) };
  const became = optStr(f, "became");
  if (became !== undefined) r.became = became;
  return r;
}

function credentialTarget(v: unknown): CredentialTarget {
  const f = fields(v, "the credential field");
  const r: CredentialTarget = { fit: f["fit"] === true, description: str(f, "description", "the credential field"), focused: f["focused"] === true };
  const why = optStr(f, "why");
  if (why !== undefined) r.why = why;
  return r;
}

function credentialHeld(v: unknown): CredentialHeld {
  const f = fields(v, "the credential field");
  return { holds: f["holds"] === true, focused: f["focused"] === true };
}

function keysSeen(v: unknown): KeysSeen {
  const f = fields(v, "the keys seen");
  const r: KeysSeen = { seen: f["seen"] === true, onField: f["onField"] === true, focused: focusedField(f["focused"]) };
  const strayed = optStr(f, "strayed");
  if (strayed !== undefined) r.strayed = strayed;
  if (f["value"] !== undefined) r.value = fieldValue(f["value"]);
  return r;
}

function effectReport(v: unknown): EffectReport {
  const f = fields(v, "effect");
  const p = fields(f["preview"], "effect.preview");
  const list = p["fields"];
  if (!Array.isArray(list)) throw new AnswerShape("effect.preview.fields is not a list");
  const effect = optString(f["effect"]);
  // Only the protocol's effects: the worker stages what this names.
  if (effect !== null && !EffectValues.some((e) => e === effect)) throw new AnswerShape(`effect ${JSON.stringify(effect)} is not a protocol Effect`);
  return {
    effect,
    rule: optString(f["rule"]),
    descriptor: str(f, "descriptor", "effect"),
    preview: {
      control: str(p, "control", "effect.preview"),
      fields: list.map((x: unknown) => {
        const g = fields(x, "effect.preview.fields[]");
        return { label: str(g, "label", "field"), value: str(g, "value", "field"), sensitive: bool(g["sensitive"]) };
      }),
    },
  };
}

function oneOf<T extends string>(f: Fields, key: string, values: readonly T[]): T {
  const v = values.find((x) => x === f[key]);
  if (v === undefined) throw new AnswerShape(`challenge.${key} is not one of ${values.join(", ")}`);
  return v;
}

// Catalog ids are [a-z0-9_] (shared/challenge-catalog.ts): whatever else
// arrives is not the catalog's, and a challenge event carries no page text.
const CATALOG_ID = /^[a-z0-9_]{1,40}$/;

function catalogId(f: Fields, key: string): string {
  const v = str(f, key, "challenge");
  if (!CATALOG_ID.test(v)) throw new AnswerShape(`challenge.${key} is not a catalog id`);
  return v;
}

function challengeSightings(v: unknown): ChallengeSighting[] {
  if (!Array.isArray(v)) throw new AnswerShape("challenges is not a list");
  return v.map((x: unknown) => {
    const f = fields(x, "challenge");
    return {
      vendor: catalogId(f, "vendor"),
      product: catalogId(f, "product"),
      kind: oneOf(f, "kind", ChallengeKindValues),
      interaction: oneOf(f, "interaction", ChallengeInteractionValues),
      confidence: oneOf(f, "confidence", ChallengeConfidenceValues),
      tokenPresent: bool(f["tokenPresent"]),
    };
  });
}

/** Each JSON-answering function's check: returns the answer typed, or throws AnswerShape. */
export const ANSWERS: { readonly [K in ValueMethod]: (v: unknown) => Answer<K> } = {
  snapshot: frameSnapshot,
  target: targetInfo,
  hitTest,
  aim: aimLooks,
  focus: bool,
  select: selection,
  checked: optBool,
  scrollBy: position,
  hasText: bool,
  state: elementState,
  domClick: targetInfo,
  domSetValue: targetInfo,
  navigationTarget: optString,
  keyTarget,
  keyReady,
  keyValue: fieldValue,
  pickValue: pickResult,
  armKeys: focusedField,
  keysSeen,
  disarmKeys: bool,
  focusedField,
  fieldAt: focusedField,
  knows: bool,
  mutations: count,
  effect: effectReport,
  challenges: challengeSightings,
  inChallenge: bool,
  credentialTarget,
  credentialHolds: credentialHeld,
};
