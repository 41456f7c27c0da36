// browser_profile's bookmark reads and direct writes: search, tree,
// create, update, move (bookmarks_remove stages: remove.ts). Source of
// truth: spec 000 "Profile operations": the invisible root, its top-level
// folders and managed bookmarks cannot be changed (bookmark_protected,
// not_started); write results carry ids and state only.
import { CodeBookmarkProtected, CodeInvalidParams, CodeProfileNotFound } from "../../protocol/generated";
import type { ExtProfileResult, ProfileParams } from "../../protocol/generated";
import type { ProfileItem, ProfileRead } from "./items";
import type { BookmarkNode, ProfileApi } from "../../chrome/api";
import { failure } from "../native/failure";
import { bounded, checkBookmarkURL, resultBound } from "./bounds";

type Bookmarks = ProfileApi["bookmarks"];

/** The invisible root's id: Chrome's, fixed. */
const ROOT = "0";

/**
 * Why the node cannot be changed, or undefined. The top-level folders are
 * found by their parent, the root, not by fixed ids: Chrome's are "1", "2"
 * and "3" today, but a profile may have more (managed bookmarks' folder).
 */
export function protection(n: BookmarkNode): string | undefined {
  if (n.id === ROOT) return "the invisible root of the bookmarks";
  if (n.parentId === ROOT) return "a top-level bookmarks folder";
  if (n.unmodifiable === "managed") return "a bookmark the administrator manages";
  return undefined;
}

export function protectedFailure(why: string) {
  return failure(CodeBookmarkProtected, `bookmark ${why}: AgentTab never changes it`);
}

/** The node, or profile_item_not_found. */
export async function mustNode(b: Bookmarks, id: string | undefined): Promise<BookmarkNode> {
  if (id === undefined || id === "") throw failure(CodeInvalidParams, "id names the bookmark or folder");
  const n = await b.get(id);
  if (n === undefined) throw failure(CodeProfileNotFound, `no bookmark or folder has id ${JSON.stringify(id)}`);
  return n;
}

/** A changeable node, or bookmark_protected. */
async function changeable(b: Bookmarks, id: string | undefined): Promise<BookmarkNode> {
  const n = await mustNode(b, id);
  const why = protection(n);
  if (why !== undefined) throw protectedFailure(why);
  return n;
}

/** A folder that may receive a bookmark: not the root, not managed (a top-level folder may). */
async function destination(b: Bookmarks, parentId: string): Promise<void> {
  const parent = await mustNode(b, parentId);
  if (parent.url !== undefined) throw failure(CodeInvalidParams, "parent_id names a bookmark, not a folder");
  if (parent.id === ROOT) throw protectedFailure("the invisible root of the bookmarks");
  if (parent.unmodifiable === "managed") throw protectedFailure("a folder the administrator manages");
}

export function itemOf(n: BookmarkNode): ProfileItem {
  const item: ProfileItem = { kind: n.url === undefined ? "folder" : "bookmark", id: n.id, title: n.title };
  if (n.parentId !== undefined) item.parent_id = n.parentId;
  if (n.index !== undefined) item.index = n.index;
  if (n.url !== undefined) item.url = n.url;
  if (n.dateAdded !== undefined) item.time_ms = n.dateAdded;
  if (n.unmodifiable === "managed") item.managed = true;
  return item;
}

export async function searchBookmarks(b: Bookmarks, p: ProfileParams): Promise<ProfileRead> {
  const n = resultBound(p.max_results);
  if ((p.query ?? "") === "") throw failure(CodeInvalidParams, "bookmarks_search needs query (words in the title or URL)");
  return bounded((await b.search(p.query ?? "")).map(itemOf), n);
}

/** The tree (or a subtree), flat and depth first, each item naming its parent. */
export async function bookmarkTree(b: Bookmarks, p: ProfileParams): Promise<ProfileRead> {
  const n = resultBound(p.max_results);
  let roots: BookmarkNode[];
  if (p.id === undefined || p.id === "") roots = await b.getTree();
  else {
    const sub = await b.getSubTree(p.id);
    if (sub === undefined) throw failure(CodeProfileNotFound, `no bookmark or folder has id ${JSON.stringify(p.id)}`);
    roots = [sub];
  }
  const out: ProfileItem[] = [];
  const walk = (nodes: BookmarkNode[]): void => {
    for (const node of nodes) {
      // One past the bound is enough to say the answer was cut.
      if (out.length > n) return;
      out.push(itemOf(node));
      walk(node.children ?? []);
    }
  };
  walk(roots);
  return bounded(out, n);
}

export async function createBookmark(b: Bookmarks, p: ProfileParams): Promise<ExtProfileResult> {
  checkBookmarkURL(p.url);
  if ((p.title ?? "") === "" && p.url === undefined) throw failure(CodeInvalidParams, "bookmarks_create needs a title (a folder) or a url (a bookmark)");
  // Chrome's own default parent is Other bookmarks; it is named here so
  // the destination check sees it.
  const parentId = p.parent_id ?? (await otherBookmarks(b));
  await destination(b, parentId);
  const props: { parentId: string; index?: number; title?: string; url?: string } = { parentId };
  if (p.index !== undefined) props.index = p.index;
  if (p.title !== undefined) props.title = p.title;
  if (p.url !== undefined) props.url = p.url;
  const made = await b.create(props);
  return { ids: [made.id], state: "created" };
}

export async function updateBookmark(b: Bookmarks, p: ProfileParams): Promise<ExtProfileResult> {
  checkBookmarkURL(p.url);
  if (p.title === undefined && p.url === undefined) throw failure(CodeInvalidParams, "bookmarks_update needs a new title or url");
  const n = await changeable(b, p.id);
  if (n.url === undefined && p.url !== undefined) throw failure(CodeInvalidParams, "a folder has no url");
  const changes: { title?: string; url?: string } = {};
  if (p.title !== undefined) changes.title = p.title;
  if (p.url !== undefined) changes.url = p.url;
  await b.update(n.id, changes);
  return { ids: [n.id], state: "updated" };
}

export async function moveBookmark(b: Bookmarks, p: ProfileParams): Promise<ExtProfileResult> {
  const n = await changeable(b, p.id);
  if (p.parent_id === undefined && p.index === undefined) throw failure(CodeInvalidParams, "bookmarks_move needs parent_id or index");
  const parentId = p.parent_id ?? n.parentId ?? ROOT;
  await destination(b, parentId);
  const to: { parentId: string; index?: number } = { parentId };
  if (p.index !== undefined) to.index = p.index;
  await b.move(n.id, to);
  return { ids: [n.id], state: "moved" };
}

/** The top-level folder Chrome puts a bookmark in by default: the root's second child (Other bookmarks). */
async function otherBookmarks(b: Bookmarks): Promise<string> {
  const [root] = await b.getTree();
  const other = root?.children?.[1];
  if (other === undefined) throw failure(CodeInvalidParams, "parent_id names the folder for the new bookmark");
  return other.id;
}
