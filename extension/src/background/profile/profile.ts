// The native "profile" method: one browser_profile operation on the Chrome
// profile. Source of truth: spec 000 "Profile operations" and
// protocol/profile.go. It is global work (spec 001: browser-global), so the
// dispatcher runs it behind the barrier and the Pause is checked here
// (profile operations fail not_started while paused). It needs no site
// access and never focuses anything: the only tabs it makes are restored
// ones, inactive, through open.
//
// Privacy: titles, URLs, file names and search text go only into the
// answer. Nothing here logs, and a Chrome rejection becomes a Failure, so
// the dispatcher's log of unexpected errors never sees one.
import {
  CodeChromeError,
  CodeInvalidParams,
  OutcomeNotStarted,
  OutcomeUnknown,
  ProfileRules,
  ProfileBookmarksCreate,
  ProfileBookmarksMove,
  ProfileBookmarksRemove,
  ProfileBookmarksSearch,
  ProfileBookmarksTree,
  ProfileBookmarksUpdate,
  ProfileDownloadsCancel,
  ProfileDownloadsPause,
  ProfileDownloadsResume,
  ProfileDownloadsSearch,
  ProfileHistorySearch,
  ProfileSessionsList,
  ProfileSessionsRestore,
} from "../../protocol/generated";
import type { ExtProfileParams, ExtProfileResult } from "../../protocol/generated";
import type { ProfileRead } from "./items";
import type { HasPause } from "../capabilities";
import { errorText } from "../log";
import type { OpenEnv } from "../methods/open";
import { Failure, failure } from "../native/failure";
import { pauseRefusal } from "../pause/pause";
import type { HasReviews } from "../review/reviews";
import { bookmarkTree, createBookmark, moveBookmark, searchBookmarks, updateBookmark } from "./bookmarks";
import { controlDownload, searchDownloads, searchHistory } from "./reads";
import { commitRemove, stageRemove } from "./remove";
import { listSessions, restoreSession } from "./sessions";

export type ProfileEnv = OpenEnv & HasReviews & HasPause;

export async function profile(ctx: ProfileEnv, p: ExtProfileParams): Promise<ExtProfileResult> {
  if (ctx.pause.paused) throw pauseRefusal(ctx.pause.reason);
  try {
    return await run(ctx, p);
  } catch (e) {
    if (e instanceof Failure) throw e;
    // A read changed nothing; a write may have been done by Chrome before
    // a later call of the same operation threw (a download's cancel, then
    // its read back; a removal, then its review entry's drop): unknown.
    const outcome = ProfileRules[p.params.op].write === true ? OutcomeUnknown : OutcomeNotStarted;
    throw failure(CodeChromeError, `Chrome refused ${p.params.op}: ${errorText(e)}`, outcome);
  }
}

function run(ctx: ProfileEnv, p: ExtProfileParams): Promise<ExtProfileResult> {
  const { bookmarks, history, sessions, downloads } = ctx.chrome.profile;
  const q = p.params;
  const taskId = p.task.task_id;
  if (p.commit !== undefined && q.op !== ProfileBookmarksRemove) throw failure(CodeInvalidParams, "only bookmarks_remove is committed");
  switch (q.op) {
    case ProfileBookmarksSearch:
      return read(searchBookmarks(bookmarks, q));
    case ProfileBookmarksTree:
      return read(bookmarkTree(bookmarks, q));
    case ProfileBookmarksCreate:
      return createBookmark(bookmarks, q);
    case ProfileBookmarksUpdate:
      return updateBookmark(bookmarks, q);
    case ProfileBookmarksMove:
      return moveBookmark(bookmarks, q);
    case ProfileBookmarksRemove:
      return p.commit === undefined ? stageRemove(ctx, bookmarks, taskId, q) : commitRemove(ctx, bookmarks, taskId, p.commit);
    case ProfileHistorySearch:
      return read(searchHistory(history, q));
    case ProfileSessionsList:
      return read(listSessions(sessions, q));
    case ProfileSessionsRestore:
      return restoreSession(ctx, sessions, p, ctx.origins.constrained);
    case ProfileDownloadsSearch:
      return read(searchDownloads(downloads, q));
    case ProfileDownloadsCancel:
    case ProfileDownloadsPause:
    case ProfileDownloadsResume:
      return controlDownload(downloads, q.op, q);
  }
}

/** A read's answer as the protocol carries it. */
async function read(r: Promise<ProfileRead>): Promise<ExtProfileResult> {
  const { items, truncated } = await r;
  return truncated ? { items, truncated } : { items };
}
