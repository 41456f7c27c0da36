// bookmarks_remove: never removes at once. Source of truth: spec 000
// ("Reviewed bookmark removal": it always stages a Commit record, YOLO
// mode or not; one bookmark or one empty folder; commit reads the
// bookmark again and refuses if its title, URL or parent changed) and
// protocol/profile.go (ExtProfileResult.Stage, ExtProfileCommit).
//
// Staging stores the preview (title, URL, folder) in the review store for
// the popup, with the bookmark's id; the host gets an ExtStage whose
// fingerprint is the HMAC, keyed by the review handle, of (id, title, URL,
// parent), so state.db's copy lets no one guess-check a URL.
import { CodeBookmarkFolderNotEmpty, CodeStageDiscarded, CodeStageNotApproved, CodeStageTargetChanged, EffectBookmarkRemove } from "../../protocol/generated";
import type { ExtProfileCommit, ExtProfileResult, ProfileParams } from "../../protocol/generated";
import type { BookmarkNode, ProfileApi } from "../../chrome/api";
import type { HasClock } from "../capabilities";
import { failure } from "../native/failure";
import { hmacHex } from "../random";
import type { HasReviews } from "../review/reviews";
import { newReviewHandle } from "../review/reviews";
import { previewDigest } from "../review/stage";
import type { Preview } from "../review/stage";
import { shownOrigin } from "../tabs/shown-origin";
import { mustNode, protectedFailure, protection } from "./bookmarks";

type Bookmarks = ProfileApi["bookmarks"];

/** The entry's tab: none (a profile stage is on no tab). */
const NO_TAB = -1;

/** The fingerprint of what the human reviews: keyed by the handle. */
export function bookmarkFingerprint(handle: string, n: BookmarkNode): Promise<string> {
  return hmacHex(handle, JSON.stringify([n.id, n.title, n.url ?? null, n.parentId ?? null]));
}

/** Refuses what a removal may not take: protected nodes and non-empty folders. */
async function removable(b: Bookmarks, n: BookmarkNode): Promise<void> {
  const why = protection(n);
  if (why !== undefined) throw protectedFailure(why);
  if (n.url === undefined && ((await b.getSubTree(n.id))?.children?.length ?? 0) > 0) {
    throw failure(CodeBookmarkFolderNotEmpty, "the folder is not empty: bookmarks_remove removes one bookmark or one empty folder");
  }
}

/** Stages the removal (YOLO mode is not asked) and answers the stage for the host. */
export async function stageRemove(ctx: HasReviews, b: Bookmarks, taskId: string, p: ProfileParams): Promise<ExtProfileResult> {
  const n = await mustNode(b, p.id);
  await removable(b, n);
  const folder = n.parentId === undefined ? undefined : await b.get(n.parentId);
  const fields = [{ label: "Title", value: n.title, sensitive: false }];
  if (n.url !== undefined) fields.push({ label: "URL", value: n.url, sensitive: false });
  if (folder !== undefined) fields.push({ label: "In folder", value: folder.title, sensitive: false });
  const preview: Preview = {
    effect: EffectBookmarkRemove,
    control: n.url === undefined ? "Remove empty bookmark folder" : "Remove bookmark",
    origin: n.url === undefined ? "" : shownOrigin({ url: n.url }),
    fields,
  };
  const handle = newReviewHandle();
  const [print, digest] = await Promise.all([bookmarkFingerprint(handle, n), previewDigest(handle, preview)]);
  await ctx.reviews.add({ handle, taskId, tabId: NO_TAB, ...preview, ...ctx.reviews.times(), state: "pending", bookmarkId: n.id });
  return { ids: [n.id], state: "staged", staged: { step: 0, review_handle: handle, effect: EffectBookmarkRemove, fingerprint: print, preview_digest: digest } };
}

/**
 * browser_commit of an approved removal: the entry the human approved,
 * the bookmark read again and compared by fingerprint, then removed. The
 * entry goes whatever happens (the host consumed the stage).
 */
export async function commitRemove(ctx: HasReviews & HasClock, b: Bookmarks, taskId: string, c: ExtProfileCommit): Promise<ExtProfileResult> {
  const entry = await ctx.reviews.entryOf(c.review_handle_digest);
  if (entry === undefined || entry.taskId !== taskId || entry.bookmarkId === undefined) {
    throw failure(CodeStageDiscarded, "the removal is no longer held for review in the browser (the task ended, or it was denied)");
  }
  try {
    if (entry.state !== "approved") throw failure(CodeStageNotApproved, "the human has not approved this removal in the AgentTab popup");
    if (entry.effect !== EffectBookmarkRemove) throw failure(CodeStageTargetChanged, "the stage is not a bookmark removal");
    const n = await b.get(entry.bookmarkId);
    if (n === undefined || (await bookmarkFingerprint(entry.handle, n)) !== c.fingerprint) {
      throw failure(CodeStageTargetChanged, "the bookmark was removed, or its title, URL or folder changed since the removal was staged; nothing was removed");
    }
    await removable(b, n);
    await b.remove(n.id);
    return { ids: [n.id], state: "removed" };
  } finally {
    await ctx.reviews.remove(entry.handle);
  }
}
