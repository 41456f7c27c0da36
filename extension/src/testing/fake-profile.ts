// The fake ChromeApi's profile APIs (chrome.bookmarks, history, sessions,
// downloads) for browser_profile's unit tests: an in-memory bookmark tree
// with Chrome's fixed root "0" and top-level folders "1" (Bookmarks bar),
// "2" (Other bookmarks) and "3" (Mobile bookmarks), history entries,
// recently closed and device sessions, and downloads. Calls are recorded in
// the FakeChrome's calls, by name and id only (never a title or URL).
import type { BookmarkNode, Device, Download, HistoryEntry, ProfileApi, Session } from "../chrome/api";

interface StoredNode {
  id: string;
  parentId: string | undefined;
  title: string;
  url: string | undefined;
  dateAdded: number;
  managed: boolean;
  children: string[];
}

export class FakeProfile implements ProfileApi {
  readonly nodes = new Map<string, StoredNode>();
  readonly historyEntries: HistoryEntry[] = [];
  readonly closed: Session[] = [];
  readonly devices: Device[] = [];
  readonly downloadItems: Download[] = [];
  private nextId = 4;

  constructor(private readonly calls: string[]) {
    this.nodes.set("0", { id: "0", parentId: undefined, title: "", url: undefined, dateAdded: 0, managed: false, children: ["1", "2", "3"] });
    for (const [id, title] of [["1", "Bookmarks bar"], ["2", "Other bookmarks"], ["3", "Mobile bookmarks"]] as const) {
      this.nodes.set(id, { id, parentId: "0", title, url: undefined, dateAdded: 0, managed: false, children: [] });
    }
  }

  /** A bookmark (with url) or folder the user made; managed: the administrator's. */
  addBookmark(parentId: string, title: string, url?: string, managed = false): string {
    const id = String(this.nextId++);
    this.must(parentId).children.push(id);
    this.nodes.set(id, { id, parentId, title, url, dateAdded: 1000, managed, children: [] });
    return id;
  }

  private must(id: string): StoredNode {
    const n = this.nodes.get(id);
    if (n === undefined) throw new Error("Can't find bookmark for id.");
    return n;
  }

  private node(n: StoredNode, deep: boolean): BookmarkNode {
    const parent = n.parentId === undefined ? undefined : this.nodes.get(n.parentId);
    const out: BookmarkNode = { id: n.id, parentId: n.parentId, index: parent?.children.indexOf(n.id), title: n.title, url: n.url, dateAdded: n.dateAdded };
    if (n.managed) out.unmodifiable = "managed";
    if (deep && n.url === undefined) out.children = n.children.map((c) => this.node(this.must(c), true));
    return out;
  }

  private modifiable(id: string): StoredNode {
    const n = this.must(id);
    if (id === "0" || n.parentId === "0") throw new Error("Can't modify the root bookmark folders.");
    if (n.managed) throw new Error("Can't modify managed bookmarks.");
    return n;
  }

  private detach(n: StoredNode): void {
    if (n.parentId === undefined) return;
    const siblings = this.must(n.parentId).children;
    siblings.splice(siblings.indexOf(n.id), 1);
  }

  readonly bookmarks: ProfileApi["bookmarks"] = {
    search: async (query) => {
      this.calls.push("bookmarks.search");
      const q = query.toLowerCase();
      return [...this.nodes.values()]
        .filter((n) => n.id !== "0" && (n.title.toLowerCase().includes(q) || (n.url ?? "").toLowerCase().includes(q)))
        .map((n) => this.node(n, false));
    },
    getTree: async () => {
      this.calls.push("bookmarks.getTree");
      return [this.node(this.must("0"), true)];
    },
    getSubTree: async (id) => {
      this.calls.push(`bookmarks.getSubTree ${id}`);
      const n = this.nodes.get(id);
      return n === undefined ? undefined : this.node(n, true);
    },
    get: async (id) => {
      this.calls.push(`bookmarks.get ${id}`);
      const n = this.nodes.get(id);
      return n === undefined ? undefined : this.node(n, false);
    },
    create: async (props) => {
      this.calls.push("bookmarks.create");
      const parentId = props.parentId ?? "2";
      const parent = this.must(parentId);
      if (parentId === "0") throw new Error("Can't modify the root bookmark folders.");
      const id = String(this.nextId++);
      parent.children.splice(props.index ?? parent.children.length, 0, id);
      this.nodes.set(id, { id, parentId, title: props.title ?? "", url: props.url, dateAdded: 2000, managed: false, children: [] });
      return this.node(this.must(id), false);
    },
    update: async (id, changes) => {
      this.calls.push(`bookmarks.update ${id}`);
      const n = this.modifiable(id);
      if (changes.title !== undefined) n.title = changes.title;
      if (changes.url !== undefined) n.url = changes.url;
      return this.node(n, false);
    },
    move: async (id, destination) => {
      this.calls.push(`bookmarks.move ${id}`);
      const n = this.modifiable(id);
      const parentId = destination.parentId ?? n.parentId ?? "2";
      const parent = this.must(parentId);
      this.detach(n);
      parent.children.splice(destination.index ?? parent.children.length, 0, id);
      n.parentId = parentId;
      return this.node(n, false);
    },
    remove: async (id) => {
      this.calls.push(`bookmarks.remove ${id}`);
      const n = this.modifiable(id);
      if (n.children.length > 0) throw new Error("Can't remove non-empty folder (use recursive to force).");
      this.detach(n);
      this.nodes.delete(id);
    },
  };

  readonly history: ProfileApi["history"] = {
    search: async (q) => {
      this.calls.push("history.search");
      const text = q.text.toLowerCase();
      return this.historyEntries
        .filter((h) => (h.title ?? "").toLowerCase().includes(text) || (h.url ?? "").toLowerCase().includes(text))
        .filter((h) => (q.startTime === undefined || (h.lastVisitTime ?? 0) >= q.startTime) && (q.endTime === undefined || (h.lastVisitTime ?? 0) < q.endTime))
        .slice(0, q.maxResults);
    },
  };

  readonly sessions: ProfileApi["sessions"] = {
    getRecentlyClosed: async (maxResults) => {
      this.calls.push("sessions.getRecentlyClosed");
      return this.closed.slice(0, maxResults);
    },
    getDevices: async () => {
      this.calls.push("sessions.getDevices");
      return this.devices;
    },
  };

  private download(id: number): Download {
    const d = this.downloadItems.find((x) => x.id === id);
    if (d === undefined) throw new Error(`Invalid download id ${id}`);
    return d;
  }

  readonly downloads: ProfileApi["downloads"] = {
    search: async (q) => {
      this.calls.push("downloads.search");
      const terms = (q.query ?? []).map((t) => t.toLowerCase());
      return this.downloadItems
        .filter((d) => q.id === undefined || d.id === q.id)
        .filter((d) => terms.every((t) => d.filename.toLowerCase().includes(t) || d.url.toLowerCase().includes(t)))
        .slice(0, q.limit);
    },
    cancel: async (id) => {
      this.calls.push(`downloads.cancel ${id}`);
      const d = this.download(id);
      if (d.state === "in_progress") Object.assign(d, { state: "interrupted", error: "USER_CANCELED", paused: false, canResume: false });
    },
    pause: async (id) => {
      this.calls.push(`downloads.pause ${id}`);
      const d = this.download(id);
      if (d.state !== "in_progress") throw new Error("Download must be in progress");
      d.paused = true;
    },
    resume: async (id) => {
      this.calls.push(`downloads.resume ${id}`);
      const d = this.download(id);
      if (!d.paused) throw new Error("Download must be resumable");
      d.paused = false;
    },
  };
}
