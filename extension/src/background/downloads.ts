// Downloads attributed to the tab that started them. Source of truth:
// issue 5 ("exact attribution of the download to the task's tab through
// debugger events (Chrome's global downloads API cannot tell which tab
// started it)"). Page.downloadWillBegin arrives on the tab's own debugger
// session with the download's guid, and Page.downloadProgress follows it
// with that guid (observed in Chromium 156: inProgress with the bytes so
// far, then completed or canceled), so the size of this tab's download is
// known exactly. Chrome's chrome.downloads item, which has the id, the
// file name and the state (a wait ends when Chrome says the file is in
// place), carries no guid: it is matched by URL, start time and, once the
// tab's events say the download completed, its size. The
// starts are logged per tab as they happen, so that a wait that begins
// just after the click that started the download still finds it.
import type { DownloadItem } from "../chrome/api";
import type { DownloadInfo } from "../protocol/generated";
import type { Context } from "./context";
import { isFields } from "./decode";

/** What the tab's debugger session said of one download. */
export interface DownloadStart {
  guid: string;
  url: string;
  suggestedName: string;
  at: number;
  /** The last Page.downloadProgress, once one came. */
  progress?: { state: "inProgress" | "completed" | "canceled"; receivedBytes: number };
  /** The download a wait already reported: each start answers one wait. */
  taken: boolean;
}

/** How many starts a tab keeps. */
const LOG_SIZE = 20;
/** A start this long before a wait began still counts for it (the click came just before). */
export const RECENT_MS = 10_000;
/** A start without a progress event after this long had no session to report them. */
const NO_EVENTS_MS = 2_000;
/** Chrome's download item may start a moment before the page event reaches the worker. */
const CLOCK_SLACK_MS = 2_000;

export class DownloadLog {
  private readonly starts = new Map<number, DownloadStart[]>();
  /** Download ids already reported, so two waits never report one download. */
  readonly claimed = new Set<number>();

  /** Takes the download events of a tab's debugger session. */
  onEvent(tabId: number, method: string, params: unknown): void {
    if (!isFields(params) || typeof params["guid"] !== "string") return;
    const guid = params["guid"];
    if (method === "Page.downloadWillBegin" && typeof params["url"] === "string") {
      const name = typeof params["suggestedFilename"] === "string" ? params["suggestedFilename"] : "";
      this.record(tabId, { guid, url: params["url"], suggestedName: name, at: Date.now(), taken: false });
    } else if (method === "Page.downloadProgress") {
      const state = params["state"];
      const start = this.starts.get(tabId)?.find((s) => s.guid === guid);
      if (start === undefined || (state !== "inProgress" && state !== "completed" && state !== "canceled")) return;
      start.progress = { state, receivedBytes: typeof params["receivedBytes"] === "number" ? params["receivedBytes"] : 0 };
    }
  }

  private record(tabId: number, start: DownloadStart): void {
    const list = this.starts.get(tabId) ?? [];
    list.push(start);
    if (list.length > LOG_SIZE) list.shift();
    this.starts.set(tabId, list);
  }

  /** The oldest start of the tab since `since` that no wait reported yet; it is taken. */
  take(tabId: number, since: number): DownloadStart | undefined {
    const found = this.starts.get(tabId)?.find((s) => !s.taken && s.at >= since);
    if (found !== undefined) found.taken = true;
    return found;
  }

  forget(tabId: number): void {
    this.starts.delete(tabId);
  }
}

/**
 * The chrome.downloads item of a start, once it can only be this start's:
 * same URL, started with it, not claimed by another start, and finished
 * the way the tab's own events said (completed with that many bytes, or
 * canceled), so two tabs fetching one URL at once each find their own.
 * Until then undefined: the wait keeps looking. A tab whose events never
 * came (its session was not attached) takes an item only when it is the
 * only candidate.
 */
export async function itemOf(ctx: Context, start: DownloadStart, claimed: ReadonlySet<number>): Promise<DownloadItem | undefined> {
  const items = (await ctx.chrome.downloads.search({ url: start.url }))
    .filter((d) => !claimed.has(d.id) && Date.parse(d.startTime) >= start.at - CLOCK_SLACK_MS)
    .sort((a, b) => Date.parse(a.startTime) - Date.parse(b.startTime));
  const progress = start.progress;
  if (progress === undefined) return Date.now() - start.at > NO_EVENTS_MS && items.length === 1 ? items[0] : undefined;
  switch (progress.state) {
    case "inProgress":
      return undefined;
    case "completed":
      return items.find((d) => d.state === "complete" && d.bytesReceived === progress.receivedBytes);
    case "canceled":
      return items.find((d) => d.state === "interrupted");
  }
}

export function downloadInfo(d: DownloadItem, fallbackName: string): DownloadInfo {
  const name = d.filename === "" ? fallbackName : (d.filename.split(/[\\/]/).pop() ?? fallbackName);
  return { id: d.id, file_name: name, url: d.finalUrl || d.url, bytes: d.state === "complete" ? d.bytesReceived : Math.max(d.totalBytes, d.bytesReceived), state: d.state };
}
