// The real ProfileApi: chrome.bookmarks, history, sessions and downloads,
// which back browser_profile only (spec 000). This file and
// background/profile/ are the profile modules internal/extbuild's
// TestSourceFences admits; real.ts only wires it in.
import type { BookmarkNode, Download, ProfileApi, Session, SessionTab } from "./api";

export function realProfile(): ProfileApi {
  return {
    bookmarks: {
      search: async (query) => (await chrome.bookmarks.search(query)).map(toNode),
      getTree: async () => (await chrome.bookmarks.getTree()).map(toNode),
      getSubTree: (id) => ifBookmarkExists(async () => {
        const [node] = await chrome.bookmarks.getSubTree(id);
        return node === undefined ? undefined : toNode(node);
      }),
      get: (id) => ifBookmarkExists(async () => {
        const [node] = await chrome.bookmarks.get(id);
        return node === undefined ? undefined : toNode(node);
      }),
      create: async (props) => toNode(await chrome.bookmarks.create(props)),
      update: async (id, changes) => toNode(await chrome.bookmarks.update(id, changes)),
      move: async (id, destination) => toNode(await chrome.bookmarks.move(id, destination)),
      remove: (id) => chrome.bookmarks.remove(id),
    },
    history: {
      search: async (q) =>
        (await chrome.history.search(q)).map((h) => ({ id: h.id, url: h.url, title: h.title, lastVisitTime: h.lastVisitTime, visitCount: h.visitCount })),
    },
    sessions: {
      getRecentlyClosed: async (maxResults) => (await chrome.sessions.getRecentlyClosed({ maxResults })).map(toSession),
      getDevices: async () => (await chrome.sessions.getDevices()).map((d) => ({ deviceName: d.deviceName, sessions: d.sessions.map(toSession) })),
    },
    downloads: {
      search: async (q) => (await chrome.downloads.search({ ...q, orderBy: ["-startTime"] })).map(toDownload),
      cancel: (id) => chrome.downloads.cancel(id),
      pause: (id) => chrome.downloads.pause(id),
      resume: (id) => chrome.downloads.resume(id),
    },
  };
}

function toNode(n: chrome.bookmarks.BookmarkTreeNode): BookmarkNode {
  return {
    id: n.id,
    parentId: n.parentId,
    index: n.index,
    title: n.title,
    url: n.url,
    dateAdded: n.dateAdded,
    unmodifiable: n.unmodifiable === "managed" ? "managed" : undefined,
    children: n.children?.map(toNode),
  };
}

function toTab(t: chrome.tabs.Tab): SessionTab {
  return { sessionId: t.sessionId, url: t.url, title: t.title };
}

function toSession(s: chrome.sessions.Session): Session {
  return {
    lastModified: s.lastModified,
    tab: s.tab === undefined ? undefined : toTab(s.tab),
    window: s.window === undefined ? undefined : { sessionId: s.window.sessionId, tabs: s.window.tabs?.map(toTab) },
  };
}

function toDownload(d: chrome.downloads.DownloadItem): Download {
  return {
    id: d.id,
    url: d.url,
    finalUrl: d.finalUrl,
    filename: d.filename,
    state: d.state,
    paused: d.paused,
    canResume: d.canResume,
    bytesReceived: d.bytesReceived,
    totalBytes: d.totalBytes,
    startTime: d.startTime,
    error: d.error,
  };
}

// chrome.bookmarks.get and getSubTree reject with "Can't find bookmark for
// id." for an id that names nothing (the message of Chromium's bookmarks
// API; not yet observed in this repository's e2e).
async function ifBookmarkExists<T>(f: () => Promise<T>): Promise<T | undefined> {
  try {
    return await f();
  } catch (e) {
    if ((e instanceof Error ? e.message : String(e)).startsWith("Can't find bookmark")) return undefined;
    throw e;
  }
}
