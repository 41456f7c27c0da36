// A fake page behind the fake chrome.debugger, for the page-work unit
// tests: it answers the DevTools commands the service worker sends with a
// frame tree and page agents whose answers the test writes.
import type { FakeChrome, FakeCommand } from "./fake-chrome";
import type { AimLooks, ChallengeSighting, CredentialHeld, CredentialTarget, EffectReport, FieldValue, FocusedField, FrameSnapshot, HitTest, KeyMode, KeyReady, KeysSeen, KeyTarget, PickResult, PointField, SnapshotRequest, TargetInfo } from "../shared/page-agent";

/** A frame's page agent: the functions a test needs, called with the same arguments. */
export interface FakeAgent {
  snapshot?(request: SnapshotRequest): FrameSnapshot;
  knows?(ref: string): boolean;
  target?(ref: string): TargetInfo;
  hitTest?(ref: string, x: number, y: number): HitTest;
  /** A keyboard step's target; target's answer when a test leaves it out. */
  keyTarget?(ref: string, mode: KeyMode): KeyTarget;
  /** The field after a click or focus; focused and empty when a test leaves it out. */
  keyReady?(ref: string, mode: KeyMode, focus: boolean): KeyReady;
  /** The field read back; empty when a test leaves it out. */
  keyValue?(ref: string): FieldValue;
  /** A picker field set; set as asked when a test leaves it out. */
  pickValue?(ref: string, value: string): PickResult;
  /** The key gate armed; focusedField's answer when a test leaves it out. */
  armKeys?(ref: string | null): FocusedField;
  /** The check after typed keys; every key seen, on the field, when a test leaves it out. */
  keysSeen?(count: number, read: boolean): KeysSeen;
  /** Nothing sensitive has focus when a test leaves it out. */
  focusedField?(): FocusedField;
  /** An ordinary element receives the pointer everywhere when a test leaves it out. */
  fieldAt?(x: number, y: number): PointField;
  /** The document's mutation count; 0 (never changes) when a test leaves it out. */
  mutations?(): number;
  /** The Commit classifier; no effect recognised when a test leaves it out. */
  effect?(ref: string | null, press: string | null): EffectReport;
  /** The document's recognised challenges; none when a test leaves it out. */
  challenges?(): ChallengeSighting[];
  /** The act guard's question; false when a test leaves it out. */
  inChallenge?(ref: string): boolean;
  /** browser_credentials' field check (and, with a value, the scripting route's write). */
  credentialTarget?(ref: string, field: string, value: string | null): CredentialTarget;
  /** Whether the field holds the value after the fill, and has focus. */
  credentialHolds?(ref: string, value: string): CredentialHeld;
}

const NOTHING_FOCUSED: FocusedField = { sensitive: false, description: "", sealed: false, frame: false };
const ORDINARY_POINT: PointField = { sensitive: false, description: "region", sealed: false, frame: false };
const EMPTY: FieldValue = { length: 0, value: "" };

/**
 * What an agent answers for the functions a test leaves out. The key gate
 * (page/key-gate.ts) answers as a page that received every key, with the
 * focus the test's focusedField gives.
 */
function defaults(agent: FakeAgent): Record<string, ((...a: unknown[]) => unknown) | undefined> {
  const focused = (): FocusedField => agent.focusedField?.() ?? NOTHING_FOCUSED;
  return {
    focusedField: focused,
    fieldAt: () => ORDINARY_POINT,
    keyTarget: agent.target === undefined ? undefined : (ref) => agent.target?.(String(ref)),
    keyReady: (): KeyReady => ({ focused: true, held: EMPTY }),
    keyValue: () => EMPTY,
    pickValue: (_ref, value): PickResult => ({ done: "set", held: { length: String(value).length, value: String(value) } }),
    armKeys: focused,
    keysSeen: (): KeysSeen => ({ seen: true, onField: true, focused: focused() }),
    disarmKeys: () => true,
    // A document that never changes: scanned for listeners once.
    mutations: () => 0,
    effect: (ref): EffectReport => ({ effect: null, rule: null, descriptor: `ref ${String(ref)}`, preview: { control: "", fields: [] } }),
    challenges: (): ChallengeSighting[] => [],
    inChallenge: () => false,
  };
}

export interface FakeFrame {
  id: string;
  loaderId: string;
  url: string;
  agent: FakeAgent;
  children?: FakeFrame[];
  /** The frame id each <iframe> ref of this frame shows. */
  iframes?: Record<string, string>;
  /** The iframe element's content box in this frame (for a child's offset). */
  box?: { x: number; y: number };
}

function flatten(f: FakeFrame, out: FakeFrame[] = []): FakeFrame[] {
  out.push(f);
  for (const c of f.children ?? []) flatten(c, out);
  return out;
}

function tree(f: FakeFrame): unknown {
  return { frame: { id: f.id, loaderId: f.loaderId, url: f.url }, childFrames: (f.children ?? []).map(tree) };
}

function arg(c: FakeCommand, i: number): unknown {
  const args = (c.params as { arguments?: { value?: unknown }[] }).arguments;
  return args?.[i]?.value;
}

/**
 * Serves the page rooted at top on the fake debugger; returns a function
 * that replaces it, as a navigation does: Chrome reports the top frame's
 * new document (Page.frameNavigated) to every attached tab.
 */
export function servePage(fake: FakeChrome, top: FakeFrame): (next: FakeFrame) => void {
  let page = top;
  fake.cdp = (c) => {
    const frames = flatten(page);
    const p = c.params as Record<string, unknown>;
    switch (c.method) {
      case "Page.getFrameTree":
        return { frameTree: tree(page) };
      case "Page.createIsolatedWorld":
        return { executionContextId: frames.findIndex((f) => f.id === p["frameId"]) + 1 };
      case "Runtime.evaluate":
        return { result: { type: "boolean", value: true } };
      case "Runtime.callFunctionOn": {
        const frame = frames[Number(p["executionContextId"]) - 1];
        if (frame === undefined) throw new Error("Cannot find context with specified id");
        const name = String(arg(c, 0));
        const args = arg(c, 1) as unknown[];
        // An element as an object: named by its ref, or by the agent function that hands it out.
        if (p["returnByValue"] === false) return { result: { type: "object", objectId: `${frame.id}/${name === "element" ? String(args[0]) : name}` } };
        if (name === "aim") return { result: { type: "object", value: { value: aim(frame.agent, String(args[0])) } } };
        const fn = (frame.agent as Record<string, ((...a: unknown[]) => unknown) | undefined>)[name] ?? defaults(frame.agent)[name];
        if (fn === undefined) throw new Error(`the fake agent has no ${name}`);
        return { result: { type: "object", value: { value: fn(...args) } } };
      }
      case "DOM.describeNode": {
        const [frameId, ref] = String(p["objectId"]).split("/");
        const owner = frames.find((f) => f.id === frameId);
        return { node: { frameId: owner?.iframes?.[ref ?? ""] } };
      }
      case "DOM.getFrameOwner":
        return { backendNodeId: frames.findIndex((f) => f.id === p["frameId"]) + 1 };
      case "DOM.getBoxModel": {
        const f = frames[Number(p["backendNodeId"]) - 1];
        const b = f?.box ?? { x: 0, y: 0 };
        return { model: { content: [b.x, b.y, b.x + 100, b.y, b.x + 100, b.y + 100, b.x, b.y + 100] } };
      }
      default:
        return {};
    }
  };
  return (next) => {
    page = next;
    for (const tabId of fake.attachedTabs) fake.debuggerEvent({ tabId }, "Page.frameNavigated", { frame: { id: next.id, loaderId: next.loaderId, url: next.url } });
  };
}

/** The page agent's aim (page/target.ts) made of the test's target and hitTest, in the same order. */
function aim(agent: FakeAgent, ref: string): AimLooks {
  if (agent.target === undefined) throw new Error("the fake agent has no target");
  const first = agent.target(ref);
  if (!first.ok) return { first };
  const second = agent.target(ref);
  if (!second.ok) return { first, second };
  if (agent.hitTest === undefined) throw new Error("the fake agent has no hitTest");
  return { first, second, hit: agent.hitTest(ref, second.x, second.y) };
}

/** A target answer for an element at (x, y). */
export function at(x: number, y: number, extra: Partial<TargetInfo> = {}): TargetInfo {
  return { ok: true, x, y, width: 40, height: 20, sensitive: false, description: "button \"Go\"", editable: false, ...extra };
}
