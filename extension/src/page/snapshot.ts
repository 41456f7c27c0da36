// snapshot(): one frame's text in the requested mode (src/shared/page-agent.ts).

import type { FrameSnapshot, SnapshotRequest } from "../shared/page-agent";
import { takeListened } from "./clickable";
import { LabelMap, labelledBySources } from "./labels";
import { Namer } from "./name";
import { StyleIndex } from "./style-index";
import { ReadableWalker } from "./readable";
import type { Registry } from "./registry";
import { serialize } from "./serialize";
import type { Item } from "./items";
import type { Tally } from "./text";
import { TreeWalker } from "./walker";

export function snapshot(registry: Registry, request: SnapshotRequest): FrameSnapshot {
  registry.begin(request.nextId);
  // The label map and the style-sheet scan live for one snapshot: the page
  // may change between snapshots.
  const styles = new StyleIndex();
  const namer = new Namer(new LabelMap(), styles);
  // A modal dialog (showModal, or a fullscreen element) makes the rest of
  // the page inert: Chrome's accessibility tree then holds only the modal,
  // and so does the snapshot.
  const root = document.querySelector(":modal") ?? document.documentElement;
  let items: Item[];
  let clipped: Tally | undefined;
  if (request.mode === "readable") {
    items = new ReadableWalker(namer, styles).walk(root, window.getSelection()?.toString() ?? "");
  } else {
    const full = request.mode === "full";
    const walker = new TreeWalker(full, namer, styles, full ? new Set() : labelledBySources(document), takeListened());
    items = walker.walk(root);
    clipped = walker.tally;
  }
  const written = serialize(items, request.indent, request.maxChars, registry);
  const snap: FrameSnapshot = {
    text: written.text,
    truncated: written.truncated,
    nextId: registry.nextId,
    frames: written.frames,
    totalChars: written.totalChars,
    title: document.title,
    url: location.href,
  };
  if (clipped !== undefined && clipped.texts > 0) snap.clipped = { texts: clipped.texts, chars: clipped.chars };
  return snap;
}
