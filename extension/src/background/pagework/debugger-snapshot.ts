// The debugger route's snapshot: the page agent builds each frame's text
// with refs, and the frames are spliced into one tree, plus an optional
// screenshot. Source of truth: issue 3 (browser_snapshot) and
// protocol/page.go (ExtSnapshotParams/Result).
import { CodeSnapshotFailed, OutcomeNotStarted, RouteDebugger, SnapshotReadable } from "../../protocol/generated";
import type { ClippedText, ExtSnapshotParams, ExtSnapshotResult, SnapshotMode } from "../../protocol/generated";
import type { SnapshotRequest } from "../../shared/page-agent";
import { FrameGone } from "../agent-client/errors";
import type { Clock } from "../clock";
import type { FrameEntry, FrameIndex } from "../cdp/frames";
import { readIndex } from "../cdp/frames";
import { fieldsOf, optStr } from "../cdp/read";
import { Failure } from "../native/failure";
import type { Page } from "./page-tab";
import { reportListeners } from "./listeners";
import { dialogFailure, readFailure } from "./page-work";
import { refsIn } from "./refs";
import { screenshot } from "./screenshot";

/** The page agent builds 20,000 elements in about 150 ms (notes/chromium.md); this is for pages far past that. */
const FRAME_SNAPSHOT_MS = 20_000;
/** The least text the page agents are asked for, whatever the window. */
const MIN_BUILD_CHARS = 2_000;
/** Frames nested deeper than this are not read. */
const MAX_FRAME_DEPTH = 8;
/** An out-of-process iframe that appeared just now may be a moment from being attached. */
const LATE_ATTACH_MS = 100;

export function debuggerSnapshot(clock: Clock, page: Page, p: ExtSnapshotParams): Promise<ExtSnapshotResult> {
  return page.tab.exclusive(async () => {
    try {
      if (page.session.dialog !== undefined) throw dialogFailure(page.session.dialog.info);
      const index = await page.frames();
      // The page agent stops before the line that would pass its budget,
      // so a tiny window would come back empty; it builds at least a few
      // lines, which are then cut to the window.
      const built = await new Builder(page, p.mode, clock).frame(index, index.top, "", Math.max(MIN_BUILD_CHARS, p.capture_chars), 0);
      pruneBook(page, index);
      page.persist();
      let text = built.lines.join("\n");
      let truncated = built.truncated;
      if (text.length > p.capture_chars) {
        text = text.slice(0, p.capture_chars);
        truncated = true;
      }
      if (text === "") {
        // An empty answer would read as "nothing there" when it may be
        // "nothing read" (issue 3: never an empty success).
        throw new Failure(CodeSnapshotFailed, OutcomeNotStarted, "the page agent found no content in the page", "Wait for the page to load (browser_wait until load), then take the snapshot again.");
      }
      const owned = page.owned();
      const result: ExtSnapshotResult = {
        url: built.url,
        title: built.title,
        revision: owned.revision,
        ref_epoch: owned.refEpoch,
        text,
        truncated,
        // The frames' own counts of what maxChars cut; frames left out
        // for lack of room are not counted.
        total: Math.max(text.length, built.total),
        served_by: RouteDebugger,
      };
      if (built.clipped.texts > 0) result.clipped = built.clipped;
      if (p.screenshot !== "none") result.screenshot_png = await screenshot(page.session, clock, p.screenshot);
      return result;
    } catch (e) {
      throw readFailure(e);
    }
  });
}

interface Built {
  lines: string[];
  truncated: boolean;
  /** The length of the whole text as far as the page agents counted it. */
  total: number;
  /** What the frames' modes clipped out of long texts. */
  clipped: ClippedText;
  title: string;
  url: string;
}

class Builder {
  constructor(
    private readonly page: Page,
    private readonly mode: SnapshotMode,
    private readonly clock: Clock,
  ) {}

  /**
   * Scans the frame's press listeners for the page agent, unless its
   * document has not changed since the last scan (page/mutations.ts): the
   * scan costs 2.6–6.8 ms of a small snapshot (docs/benchmarks.md), the
   * count one call.
   */
  private async listeners(frame: FrameEntry): Promise<void> {
    const key = `${frame.sessionId ?? ""}|${frame.doc.frameId}`;
    const before = this.page.tab.scanned.get(key);
    const mutations = await this.page.agent(frame).mutations();
    if (before !== undefined && before.loaderId === frame.doc.loaderId && before.mutations === mutations) return;
    await reportListeners(this.page.session, frame, await this.page.tab.worlds.context(this.page.session, frame));
    this.page.tab.scanned.set(key, { loaderId: frame.doc.loaderId, mutations });
  }

  /** One frame's lines with its child frames spliced in under their iframe lines. */
  async frame(index: FrameIndex, frame: FrameEntry, indent: string, budget: number, depth: number): Promise<Built> {
    const owned = this.page.owned();
    const request: SnapshotRequest = { mode: this.mode, nextId: owned.nextRef, maxChars: budget, indent };
    // readable has no refs to mark.
    if (this.mode !== SnapshotReadable) await this.listeners(frame);
    const snap = await this.page.agent(frame, { timeoutMs: FRAME_SNAPSHOT_MS }).snapshot(request);
    owned.nextRef = Math.max(owned.nextRef, snap.nextId);
    this.page.tab.book.record(frame.doc, refsIn(snap.text));
    const lines = snap.text === "" ? [] : snap.text.split("\n");
    let truncated = snap.truncated;
    let used = snap.text.length;
    let total = snap.totalChars ?? snap.text.length;
    const clipped: ClippedText = { texts: snap.clipped?.texts ?? 0, chars: snap.clipped?.chars ?? 0 };
    const inserts: { at: number; lines: string[] }[] = [];
    for (const f of snap.frames) {
      const room = budget - used - 1;
      if (room <= 0) {
        truncated = true;
        break;
      }
      // The child's lines go right after the iframe's line, two spaces deeper.
      const childIndent = (/^\s*/.exec(lines[f.line - 1] ?? "")?.[0] ?? indent) + "  ";
      const child = await this.childLines(index, frame, f.ref, childIndent, room, depth);
      truncated ||= child.truncated;
      clipped.texts += child.clipped.texts;
      clipped.chars += child.clipped.chars;
      const length = child.lines.join("\n").length + 1;
      used += length;
      total += Math.max(length, child.total + 1);
      inserts.push({ at: f.line, lines: child.lines });
    }
    for (const ins of inserts.reverse()) lines.splice(ins.at, 0, ...ins.lines);
    return { lines, truncated, total, clipped, title: snap.title, url: snap.url };
  }

  private async childLines(index: FrameIndex, parent: FrameEntry, ref: string, indent: string, budget: number, depth: number): Promise<Omit<Built, "title" | "url">> {
    const note = (why: string) => ({ lines: [`${indent}- text: [frame not readable: ${why}]`], truncated: false, total: 0, clipped: { texts: 0, chars: 0 } });
    if (depth + 1 > MAX_FRAME_DEPTH) return note("nested too deep");
    let child: FrameEntry | string;
    try {
      child = await this.childFrame(index, parent, ref);
    } catch (e) {
      if (e instanceof FrameGone) return note("it navigated while it was read");
      throw e;
    }
    if (typeof child === "string") return note(child);
    try {
      const built = await this.frame(index, child, indent, budget, depth + 1);
      return { lines: built.lines, truncated: built.truncated, total: built.total, clipped: built.clipped };
    } catch (e) {
      // A child frame that navigates away while it is read is reported,
      // not allowed to fail the page's snapshot.
      if (e instanceof FrameGone) return note("it navigated while it was read");
      throw e;
    }
  }

  /** The frame an <iframe> ref shows: DOM.describeNode of the element gives its frame id. */
  private async childFrame(index: FrameIndex, parent: FrameEntry, ref: string): Promise<FrameEntry | string> {
    const session = this.page.session;
    const objectId = await this.page.elements(parent).element(ref);
    if (objectId === undefined) return "the iframe is gone";
    const described = await session.send("DOM.describeNode", { objectId }, { sessionId: parent.sessionId });
    session.send("Runtime.releaseObject", { objectId }, { sessionId: parent.sessionId }).catch(() => undefined);
    const frameId = optStr(fieldsOf(described["node"], "DOM.describeNode.node"), "frameId");
    if (frameId === undefined) return "it has no document";
    const known = index.frames.get(frameId);
    if (known !== undefined) return known;
    // A cross-site iframe is reached through its own session, which Chrome
    // attaches (Target.setAutoAttach) a moment after the frame appears.
    await new Promise<void>((resolve) => this.clock.after(LATE_ATTACH_MS, resolve));
    const fresh = await readIndex(session);
    for (const [id, e] of fresh.frames) index.frames.set(id, e);
    return fresh.frames.get(frameId) ?? "it is cross-origin and Chrome gave AgentTab no session for it";
  }
}

/** Drops the refs of documents that are no longer in any frame. */
function pruneBook(page: Page, index: FrameIndex): void {
  page.tab.book.prune((doc) => index.frames.get(doc.frameId)?.doc.loaderId === doc.loaderId);
}
