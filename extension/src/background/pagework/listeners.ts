// The debugger route's evidence of click listeners for a snapshot (issue
// 11): listeners added with addEventListener (a div row of an inbox, the
// Prev/Next anchors of a date picker) are invisible to the page agent, so
// before a frame's snapshot the route asks Chrome for the document's
// listeners (DOMDebugger.getEventListeners over the whole document) and
// leaves the elements that listen for presses in the page agent's world
// (LISTENED_GLOBAL), where the snapshot marks their lines [clickable]
// (page/clickable.ts).
//
// The scan starts from the main world's object of the document: observed
// in Chromium 156 on a jQuery UI page, getEventListeners on the node's
// object of AgentTab's isolated world answered none of the listeners the
// page's scripts had added (on the document: 0 of 42).
//
// Cost, measured on notes/peers.md's gen20000 page in Chromium 156: the
// scan takes 2–3 ms with no listeners and about 6 µs per listener (3,333
// listeners: 19–22 ms; 40,006: 0.5–1.1 s), so a document larger than
// MAX_ELEMENTS is not scanned, and at most MAX_NODES elements are resolved.
import { LISTENED_GLOBAL } from "../../shared/page-agent";
import type { FrameEntry } from "../cdp/frames";
import { fieldsOf, optStr } from "../cdp/read";
import type { TabSession } from "../cdp/session";

/** Event types a press or click starts. */
const PRESS_TYPES = new Set(["click", "auxclick", "dblclick", "mousedown", "mouseup", "pointerdown", "pointerup", "touchstart", "touchend"]);
/** Documents with more elements than this are not scanned (the scan's time grows with the listeners). */
const MAX_ELEMENTS = 3_000;
/** At most this many listening elements are reported. */
const MAX_NODES = 300;
/**
 * An element listening to this many event types is a delegation root, not
 * a click target: React's root container listens to every event type.
 */
const DELEGATION_TYPES = 20;
const GROUP = "agenttab-listeners";

// The document, when it is small enough to scan.
const DOCUMENT = `document.getElementsByTagName("*").length <= ${MAX_ELEMENTS} ? document : null`;

const REPORT = `function (...elements) {
  globalThis.${LISTENED_GLOBAL} = elements;
}`;

/**
 * Reports the frame's press listeners to the page agent's world contextId
 * (the agent itself may not be installed yet: it takes the report at its
 * snapshot, and a snapshot without a report marks no listeners). Best
 * effort: a failure leaves the snapshot without [clickable] marks from
 * listeners, and a frame that went away fails the snapshot call that
 * follows, which says so.
 */
export async function reportListeners(session: Pick<TabSession, "send">, frame: Pick<FrameEntry, "sessionId" | "parent">, contextId: number): Promise<void> {
  const opts = { sessionId: frame.sessionId };
  try {
    const doc = await mainDocument(session, frame, contextId);
    // A report replaces the last one, which stands until then (the page
    // agent keeps it while the document does not change): none, too.
    const nodes = doc === undefined ? [] : pressTargets((await session.send("DOMDebugger.getEventListeners", { objectId: doc, depth: -1, pierce: false }, opts))["listeners"]);
    const resolved = await Promise.all(
      nodes.map((backendNodeId) =>
        session
          .send("DOM.resolveNode", { backendNodeId, executionContextId: contextId, objectGroup: GROUP }, opts)
          .then((r) => optStr(fieldsOf(r["object"], "object"), "objectId"))
          .catch(() => undefined),
      ),
    );
    const args = resolved.filter((id): id is string => id !== undefined).map((objectId) => ({ objectId }));
    await session.send("Runtime.callFunctionOn", { functionDeclaration: REPORT, executionContextId: contextId, arguments: args, returnByValue: true }, opts);
  } catch {
    // Best effort (see above).
  } finally {
    session.send("Runtime.releaseObjectGroup", { objectGroup: GROUP }, opts).catch(() => undefined);
  }
}

/** The main world's object of the frame's document, or undefined when it is too large to scan. */
async function mainDocument(session: Pick<TabSession, "send">, frame: Pick<FrameEntry, "sessionId" | "parent">, contextId: number): Promise<string | undefined> {
  const opts = { sessionId: frame.sessionId };
  // Runtime.evaluate without a context runs in the main world of its
  // session's top frame: one call for the top frame and for an
  // out-of-process frame.
  if (frame.parent === undefined || frame.parent.sessionId !== frame.sessionId) {
    const doc = await session.send("Runtime.evaluate", { expression: DOCUMENT, objectGroup: GROUP }, opts);
    return optStr(fieldsOf(doc["result"], "result"), "objectId");
  }
  // A frame in its parent's process: its document from AgentTab's world,
  // then the main world's object of that node (resolveNode without a context).
  const iso = await session.send("Runtime.evaluate", { expression: DOCUMENT, contextId, objectGroup: GROUP }, opts);
  const isoId = optStr(fieldsOf(iso["result"], "result"), "objectId");
  if (isoId === undefined) return undefined;
  const described = await session.send("DOM.describeNode", { objectId: isoId }, opts);
  const backendNodeId = fieldsOf(described["node"], "DOM.describeNode.node")["backendNodeId"];
  const main = await session.send("DOM.resolveNode", { backendNodeId, objectGroup: GROUP }, opts);
  return optStr(fieldsOf(main["object"], "object"), "objectId");
}

/** The backend node ids of the elements that listen for presses (DOMDebugger.getEventListeners' listeners), delegation roots left out. */
export function pressTargets(listeners: unknown): number[] {
  if (!Array.isArray(listeners)) return [];
  const types = new Map<number, Set<string>>();
  for (const l of listeners) {
    if (typeof l !== "object" || l === null) continue;
    const node: unknown = Reflect.get(l, "backendNodeId");
    const type: unknown = Reflect.get(l, "type");
    if (typeof node !== "number" || typeof type !== "string") continue;
    let set = types.get(node);
    if (set === undefined) types.set(node, (set = new Set()));
    set.add(type);
  }
  const out: number[] = [];
  for (const [node, set] of types) {
    if (set.size >= DELEGATION_TYPES) continue;
    if (![...set].some((t) => PRESS_TYPES.has(t))) continue;
    out.push(node);
    if (out.length >= MAX_NODES) break;
  }
  return out;
}
