// browser_profile's history and download operations. Source of truth: spec
// 000 "Profile operations": history_search is the only history operation
// (nothing is ever deleted); downloads are searched, cancelled, paused and
// resumed, never opened, shown, removed from disk or erased.
import { CodeInvalidParams, CodeProfileNotFound, ProfileDownloadsCancel, ProfileDownloadsPause } from "../../protocol/generated";
import type { ExtProfileResult, ProfileOp, ProfileParams } from "../../protocol/generated";
import type { ProfileItem, ProfileRead } from "./items";
import type { Download, ProfileApi } from "../../chrome/api";
import { failure } from "../native/failure";
import { bounded, resultBound } from "./bounds";

/**
 * history_search. Chrome's history.search starts 24 hours ago when no
 * startTime is given (its documented default); a search without
 * start_time_ms covers all history instead, as the agent asked no range.
 */
export async function searchHistory(h: ProfileApi["history"], p: ProfileParams): Promise<ProfileRead> {
  const n = resultBound(p.max_results);
  const q: { text: string; startTime: number; endTime?: number; maxResults: number } = { text: p.query ?? "", startTime: p.start_time_ms ?? 0, maxResults: n + 1 };
  if (p.end_time_ms !== undefined) q.endTime = p.end_time_ms;
  const items = (await h.search(q)).map((e): ProfileItem => {
    const item: ProfileItem = { kind: "history", id: e.id, title: e.title ?? "", url: e.url ?? "" };
    if (e.lastVisitTime !== undefined) item.time_ms = Math.round(e.lastVisitTime);
    if (e.visitCount !== undefined) item.visit_count = e.visitCount;
    return item;
  });
  return bounded(items, n);
}

function downloadItem(d: Download): ProfileItem {
  const item: ProfileItem = {
    kind: "download",
    id: String(d.id),
    url: d.finalUrl || d.url,
    filename: d.filename,
    state: d.state,
    paused: d.paused,
    bytes_received: d.bytesReceived,
    total_bytes: d.totalBytes,
  };
  const started = Date.parse(d.startTime);
  if (Number.isFinite(started)) item.time_ms = started;
  if (d.error !== undefined) item.error = d.error;
  return item;
}

export async function searchDownloads(d: ProfileApi["downloads"], p: ProfileParams): Promise<ProfileRead> {
  const n = resultBound(p.max_results);
  const terms = (p.query ?? "").split(/\s+/).filter((t) => t !== "");
  const q: { query?: string[]; limit: number } = { limit: n + 1 };
  if (terms.length > 0) q.query = terms;
  return bounded((await d.search(q)).map(downloadItem), n);
}

/** cancel, pause or resume one download; answers its id and state only. */
export async function controlDownload(d: ProfileApi["downloads"], op: ProfileOp, p: ProfileParams): Promise<ExtProfileResult> {
  const id = Number(p.id ?? "");
  if (p.id === undefined || !Number.isSafeInteger(id) || id < 0) throw failure(CodeInvalidParams, "id names the download (from downloads_search)");
  const [before] = await d.search({ id, limit: 1 });
  if (before === undefined) throw failure(CodeProfileNotFound, `no download has id ${id}`);
  if (op === ProfileDownloadsCancel) await d.cancel(id);
  else if (op === ProfileDownloadsPause) await d.pause(id);
  else await d.resume(id);
  const [after] = await d.search({ id, limit: 1 });
  const state = after === undefined ? "gone" : after.paused ? "paused" : after.state;
  return { ids: [String(id)], state };
}
