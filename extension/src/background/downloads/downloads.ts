// Downloads attributed to the tab that started them, from that tab's own
// debugger events only. Source of truth: spec 000 (the debugger is
// retained for "exact download completion attribution"; bookmarks,
// history, sessions and downloads "exist only for browser_profile", so
// chrome.downloads is not read here: TestSourceFences keeps it out).
//
// Page.downloadWillBegin arrives on the tab's own session with the
// download's guid, URL and suggested file name, and Page.downloadProgress
// follows with that guid, the bytes and a state (observed in Chromium 156:
// inProgress with the bytes so far, then completed once the file is in
// place under its final name, or canceled). The Page domain is enabled on
// every attachment; Browser.downloadWillBegin would need
// Browser.setDownloadBehavior, which is browser-wide. The starts are logged
// per tab as they happen, so that a wait that begins just after the click
// that started the download still finds it.
import type { DownloadInfo, DownloadState as Reported } from "../../protocol/generated";
import { DownloadCanceled, DownloadComplete, DownloadInProgress } from "../../protocol/generated";
import type { Clock } from "../clock";
import { isFields } from "../fields";

type DownloadState = "inProgress" | "completed" | "canceled";

/** What the tab's debugger session said of one download. */
export interface TabDownload {
  guid: string;
  url: string;
  /** The name the page suggested; Chrome may save it under another (a " (1)" added when the name is taken). */
  suggestedName: string;
  /** When Page.downloadWillBegin reached the worker (the worker's clock). */
  at: number;
  /** From the last Page.downloadProgress; inProgress with no bytes until one came. */
  state: DownloadState;
  receivedBytes: number;
  /** The expected size, 0 when the server did not say. */
  totalBytes: number;
  /** The download a wait already reported: each start answers one wait. */
  taken: boolean;
}

/** How many starts a tab keeps. */
const LOG_SIZE = 20;
/** A start this long before a wait began still counts for it (the click came just before). */
export const RECENT_MS = 10_000;

function isState(s: unknown): s is DownloadState {
  return s === "inProgress" || s === "completed" || s === "canceled";
}

function num(v: unknown): number {
  return typeof v === "number" && Number.isFinite(v) ? v : 0;
}

export class DownloadLog {
  private readonly starts = new Map<number, TabDownload[]>();

  constructor(private readonly clock: Clock) {}

  /** Takes the download events of a tab's debugger session. */
  onEvent(tabId: number, method: string, params: unknown): void {
    if (!isFields(params) || typeof params["guid"] !== "string") return;
    const guid = params["guid"];
    if (method === "Page.downloadWillBegin" && typeof params["url"] === "string") {
      const name = typeof params["suggestedFilename"] === "string" ? params["suggestedFilename"] : "";
      this.record(tabId, { guid, url: params["url"], suggestedName: name, at: this.clock.now(), state: "inProgress", receivedBytes: 0, totalBytes: 0, taken: false });
    } else if (method === "Page.downloadProgress") {
      // Looked up in this tab's own starts: a guid another tab's session
      // reported never touches them.
      const start = this.starts.get(tabId)?.find((s) => s.guid === guid);
      const state = params["state"];
      if (start === undefined || !isState(state)) return;
      start.state = state;
      start.receivedBytes = num(params["receivedBytes"]);
      start.totalBytes = num(params["totalBytes"]);
    }
  }

  private record(tabId: number, start: TabDownload): void {
    const list = this.starts.get(tabId) ?? [];
    list.push(start);
    if (list.length > LOG_SIZE) list.shift();
    this.starts.set(tabId, list);
  }

  /** The oldest start of the tab since `since` that no wait reported yet; it is taken. */
  take(tabId: number, since: number): TabDownload | undefined {
    const found = this.starts.get(tabId)?.find((s) => !s.taken && s.at >= since);
    if (found !== undefined) found.taken = true;
    return found;
  }

  forget(tabId: number): void {
    this.starts.delete(tabId);
  }
}

const STATES: Record<DownloadState, Reported> = { inProgress: DownloadInProgress, completed: DownloadComplete, canceled: DownloadCanceled };

/** The wait's report of a download (protocol.DownloadInfo). */
export function downloadInfo(d: TabDownload): DownloadInfo {
  return { id: d.guid, file_name: d.suggestedName, url: d.url, bytes: d.receivedBytes, state: STATES[d.state] };
}

/** Whether the download ended (complete or canceled): a download wait holds then. */
export function finished(d: TabDownload): boolean {
  return d.state !== "inProgress";
}
