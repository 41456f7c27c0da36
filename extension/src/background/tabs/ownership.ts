// The ownership map: which task owns which tab, in which group and window,
// at which page revision. It is the extension's half of spec 001's
// ownership; the host holds the other half and reconciliation joins them.
//
// It lives in memory and is written whole to chrome.storage.session after
// every change, before the host is answered, so a restarted service worker
// (MV3 stops an idle worker) rebuilds it. storage.session is kept in memory
// by Chrome and cleared when the browser exits or the extension reloads:
// that is the right lifetime for a browser restart, because tab ids are
// reused by the next browser session and a record from an old session must
// never be trusted. An extension reload (an update) keeps the browser and
// its tab ids, so the record is mirrored to chrome.storage.local too; the
// mirror is read only when storage.session is empty, and dropped as soon
// as Chrome says the browser itself started (runtime.onStartup). Either
// way reconciliation keeps a tab only while Chrome shows it in the group
// recorded here and the host lists it for the same task, or (an open whose
// host died before recording it) lists it nowhere: reconcile.ts.
//
// A record read from the mirror is never proven to be of this browser
// session: runtime.onStartup does not fire when AgentTab is enabled after
// a browser restart it slept through, and storage.session, the only
// storage that ends with the browser session, is emptied by the same
// reload or disable that makes the mirror needed, so nothing kept there
// could vouch for it. Its tabs stay unproven until reconciliation has
// checked each against the host's list and its group's title and colour;
// an unproven tab is never found and its groups' strays are never
// released (reconcile.ts).
import type { TaskLook } from "../../protocol/generated";
import type { ChromeApi } from "../../chrome/api";
import type { Log } from "../log";
import { errorText } from "../log";

export const STORAGE_KEY = "ownership";
/** The storage.local mirror that survives an extension reload. */
export const MIRROR_KEY = "ownership_mirror";

export interface OwnedTab {
  groupId: number;
  windowId: number;
  revision: number;
  /**
   * How ownership was granted (spec 001): AgentTab created the tab, it is
   * the child of an owned opener (a popup the page opened), or the user
   * let the task adopt it.
   */
  source: OwnershipSource;
  /** Opening order within the session; the largest is the most recent. */
  opened: number;
  /**
   * The ref epoch reported with snapshots: it advances when the tab's top
   * document changes or the worker lost its record of the tab's refs
   * (page-tab.ts). 0 until the first page work.
   */
  refEpoch: number;
  /** The next element id a snapshot of this tab hands out (refs.ts). */
  nextRef: number;
}

export type OwnershipSource = "created" | "child" | "adopted";

export interface TaskRecord {
  look: TaskLook;
  tabs: Map<number, OwnedTab>;
}

export interface Owner {
  taskId: string;
  tab: OwnedTab;
}

/** The persisted form: plain JSON, versioned so a change of shape is detected. */
interface Stored {
  v: 2;
  opened: number;
  tasks: { look: TaskLook; tabs: [number, OwnedTab][] }[];
}

export class Ownership {
  private readonly tasks = new Map<string, TaskRecord>();
  private opened = 0;
  private writes: Promise<void> = Promise.resolve();

  /** The map came from the storage.local mirror (an extension reload, or a browser start). */
  private fromMirror = false;
  /** Tabs recorded from the mirror that reconciliation has not checked yet. */
  private readonly unproven = new Set<number>();

  constructor(
    private readonly storage: ChromeApi["storageSession"],
    private readonly log: Log,
    private readonly mirror?: ChromeApi["storageLocal"],
  ) {}

  /** Rebuilds the map from storage.session, else from the mirror; a record it cannot read is dropped. */
  async load(): Promise<void> {
    let raw = await this.storage.get(STORAGE_KEY);
    if (raw === undefined && this.mirror !== undefined) {
      raw = await this.mirror.get(MIRROR_KEY);
      this.fromMirror = raw !== undefined;
    }
    const stored = parseStored(raw);
    if (stored === undefined) {
      if (raw !== undefined) this.log.warn("dropped an unreadable ownership record from storage.session");
      return;
    }
    this.opened = stored.opened;
    for (const t of stored.tasks) {
      this.tasks.set(t.look.task_id, { look: t.look, tabs: new Map(t.tabs) });
      if (this.fromMirror) for (const [tabId] of t.tabs) this.unproven.add(tabId);
    }
  }

  /** Whether the tab's record is of this browser session: not read from the mirror, or checked since. */
  proven(tabId: number): boolean {
    return !this.unproven.has(tabId);
  }

  /** Reconciliation checked every record left (reconcile.ts): all of them are this session's now. */
  trustAll(): void {
    this.unproven.clear();
  }

  task(taskId: string): TaskRecord | undefined {
    return this.tasks.get(taskId);
  }

  taskIds(): string[] {
    return [...this.tasks.keys()];
  }

  /** The task's record, created or given the host's current look (Developer mode's mark is never taken off: task-group.ts markDeveloper). */
  ensureTask(look: TaskLook): TaskRecord {
    const existing = this.tasks.get(look.task_id);
    if (existing !== undefined) {
      existing.look = existing.look.developer === true ? { ...look, developer: true } : look;
      return existing;
    }
    const created: TaskRecord = { look, tabs: new Map() };
    this.tasks.set(look.task_id, created);
    return created;
  }

  owner(tabId: number): Owner | undefined {
    for (const [taskId, rec] of this.tasks) {
      const tab = rec.tabs.get(tabId);
      if (tab !== undefined) return { taskId, tab };
    }
    return undefined;
  }

  /** Records a grouped tab at revision 1. */
  add(look: TaskLook, tabId: number, groupId: number, windowId: number, source: OwnershipSource = "created"): OwnedTab {
    const tab: OwnedTab = { groupId, windowId, revision: 1, source, opened: ++this.opened, refEpoch: 0, nextRef: 1 };
    this.ensureTask(look).tabs.set(tabId, tab);
    return tab;
  }

  /** Removes one tab's record; undefined when nobody owned it. */
  drop(tabId: number): Owner | undefined {
    const owner = this.owner(tabId);
    if (owner !== undefined) this.tasks.get(owner.taskId)?.tabs.delete(tabId);
    return owner;
  }

  /** Advances a tab's page revision; undefined when nobody owns the tab. */
  bump(tabId: number): number | undefined {
    const owner = this.owner(tabId);
    if (owner === undefined) return undefined;
    return ++owner.tab.revision;
  }

  /** Raises a tab's revision to at least floor (the host's revision_floor). */
  raise(tabId: number, floor: number): void {
    const owner = this.owner(tabId);
    if (owner !== undefined) owner.tab.revision = Math.max(owner.tab.revision, floor);
  }

  /** Notes that an owned tab now lives in another window (its group moved with it). */
  moveWindow(tabId: number, windowId: number): void {
    const owner = this.owner(tabId);
    if (owner !== undefined) owner.tab.windowId = windowId;
  }

  dropTask(taskId: string): TaskRecord | undefined {
    const rec = this.tasks.get(taskId);
    this.tasks.delete(taskId);
    return rec;
  }

  /**
   * The task's group in a window: groups by window are derived from the
   * owned tabs, so a group with no owned tab left (Chrome removes an empty
   * group) is never offered again.
   */
  groupIn(taskId: string, windowId: number): number | undefined {
    return this.newest(taskId, (t) => t.windowId === windowId)?.groupId;
  }

  /**
   * The window of the task's most recently created tab. Children are left
   * out: observed in Chromium 156, a page's popup with window features
   * opens in a popup-type window (which Chrome lets hold a group), and the
   * task's next tab belongs in a normal window.
   */
  latestWindow(taskId: string): number | undefined {
    return this.newest(taskId, (t) => t.source === "created")?.windowId;
  }

  private newest(taskId: string, keep: (t: OwnedTab) => boolean): OwnedTab | undefined {
    let best: OwnedTab | undefined;
    for (const t of this.tasks.get(taskId)?.tabs.values() ?? []) {
      if (keep(t) && (best === undefined || t.opened > best.opened)) best = t;
    }
    return best;
  }

  /**
   * Writes the whole map. Writes are chained so they reach storage in call
   * order, and each one takes the map as it is when it runs, so the last
   * write always carries the latest state.
   */
  persist(): Promise<void> {
    const write = this.writes.then(async () => {
      const snapshot = this.snapshot();
      await this.storage.set(STORAGE_KEY, snapshot);
      await this.mirror?.set(MIRROR_KEY, snapshot);
    });
    this.writes = write.catch((e: unknown) => this.log.warn(`storage.session write failed: ${errorText(e)}`));
    return write;
  }

  /**
   * Chrome says the browser itself started: tab ids belong to this new
   * session, so a map read from the mirror is forgotten (the host's
   * reconciliation then revokes those tabs).
   */
  browserStarted(): Promise<void> {
    if (this.fromMirror) {
      this.log.info("the browser started: the mirrored ownership record is not trusted");
      this.tasks.clear();
      this.unproven.clear();
      this.fromMirror = false;
    }
    return this.persist();
  }

  private snapshot(): Stored {
    return {
      v: 2,
      opened: this.opened,
      tasks: [...this.tasks.values()].map((t) => ({ look: t.look, tabs: [...t.tabs.entries()] })),
    };
  }
}

function parseStored(v: unknown): Stored | undefined {
  if (!isObject(v) || v["v"] !== 2 || typeof v["opened"] !== "number" || !Array.isArray(v["tasks"])) return undefined;
  const tasks: Stored["tasks"] = [];
  for (const t of v["tasks"]) {
    if (!isObject(t) || !isLook(t["look"]) || !Array.isArray(t["tabs"])) return undefined;
    const tabs: [number, OwnedTab][] = [];
    for (const entry of t["tabs"]) {
      if (!Array.isArray(entry)) return undefined;
      const [id, tab] = entry;
      if (typeof id !== "number" || !isOwnedTab(tab)) return undefined;
      tabs.push([id, tab]);
    }
    tasks.push({ look: t["look"], tabs });
  }
  return { v: 2, opened: v["opened"], tasks };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function isLook(v: unknown): v is TaskLook {
  return isObject(v) && typeof v["task_id"] === "string" && typeof v["label"] === "string" && typeof v["color"] === "string";
}

function isOwnedTab(v: unknown): v is OwnedTab {
  return (
    isObject(v) &&
    typeof v["groupId"] === "number" &&
    typeof v["windowId"] === "number" &&
    typeof v["revision"] === "number" &&
    (v["source"] === "created" || v["source"] === "child" || v["source"] === "adopted") &&
    typeof v["opened"] === "number" &&
    typeof v["refEpoch"] === "number" &&
    typeof v["nextRef"] === "number"
  );
}
