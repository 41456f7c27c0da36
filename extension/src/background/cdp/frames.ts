// The frames of a tab as the debugger sees them: the page target's frame
// tree holds the tab's same-process frames; each out-of-process iframe is
// the root of its own child session's tree (observed in Chromium 156:
// Page.getFrameTree of the page target leaves cross-site iframes out).
import type { FrameDoc } from "../pagework/refs";
import type { Fields } from "./read";
import { fieldsOf, strField } from "./read";
import type { TabSession } from "./session";

export interface FrameEntry {
  doc: FrameDoc;
  url: string;
  /** The session that reaches the frame (undefined: the tab's own). */
  sessionId: string | undefined;
  /** The parent frame and its session; undefined for the top frame. */
  parent: { frameId: string; sessionId: string | undefined } | undefined;
}

/** Every frame of the tab by frame id; top is the tab's top frame. */
export interface FrameIndex {
  top: FrameEntry;
  frames: Map<string, FrameEntry>;
}

/** Reads one session's frame tree into entries; the root's parent is rootParent. */
export async function readTree(
  session: TabSession,
  sessionId: string | undefined,
  rootParent: FrameEntry["parent"],
): Promise<FrameEntry[]> {
  const r = await session.send("Page.getFrameTree", {}, { sessionId });
  const out: FrameEntry[] = [];
  const walk = (node: Fields, parent: FrameEntry["parent"]): void => {
    const frame = fieldsOf(node["frame"], "frameTree.frame");
    const frameId = strField(frame, "id", "frame");
    out.push({ doc: { frameId, loaderId: strField(frame, "loaderId", "frame") }, url: strField(frame, "url", "frame"), sessionId, parent });
    const children = node["childFrames"];
    if (!Array.isArray(children)) return;
    for (const c of children) walk(fieldsOf(c, "childFrames[]"), { frameId, sessionId });
  };
  walk(fieldsOf(r["frameTree"], "frameTree"), rootParent);
  return out;
}

/** All frames: the page target's tree and every out-of-process iframe's. */
export async function readIndex(session: TabSession): Promise<FrameIndex> {
  const trees = await Promise.all([
    readTree(session, undefined, undefined),
    ...[...session.children.values()].map((c) =>
      // A child session that ends while it is read (its frame navigated
      // away) simply has no frames now.
      readTree(session, c.sessionId, { frameId: c.parentFrameId, sessionId: c.parentSessionId }).catch((): FrameEntry[] => []),
    ),
  ]);
  const frames = new Map<string, FrameEntry>();
  for (const tree of trees) for (const e of tree) frames.set(e.doc.frameId, e);
  const top = trees[0]?.[0];
  if (top === undefined) throw new Error("Page.getFrameTree returned no top frame");
  return { top, frames };
}
