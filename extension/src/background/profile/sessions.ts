// browser_profile's sessions: sessions_list (recently closed, other
// devices) and sessions_restore. Source of truth: spec 000 ("Focus-safe
// restore"): chrome.sessions.restore is never called (it activates the
// restored tab or window); the entry's http(s) URLs, at most 25, are
// reopened as inactive tabs of the task through open (methods/open.ts),
// the one routine that creates and groups a task's tab; under managed
// origin lists the host refuses first (origin_policy_unverifiable).
import {
  CodeChromeError,
  CodeInvalidParams,
  CodeOriginPolicyUnverifiable,
  CodeProfileNotFound,
  MaxRestoreURLs,
  OutcomeDispatched,
  PlacementTab,
  RevokeClosed,
} from "../../protocol/generated";
import type { ExtProfileParams, ExtProfileResult, ExtTab, ProfileParams } from "../../protocol/generated";
import type { ProfileItem, ProfileRead } from "./items";
import type { ProfileApi, Session, SessionTab } from "../../chrome/api";
import { Failure, failure } from "../native/failure";
import { errorText } from "../log";
import { open } from "../methods/open";
import type { OpenEnv } from "../methods/open";
import { revoke } from "../tabs/revoke";
import { bounded, isWebURL, resultBound } from "./bounds";

type Sessions = ProfileApi["sessions"];

/** chrome.sessions.MAX_SESSION_RESULTS: getRecentlyClosed answers at most this many. */
const MAX_SESSION_RESULTS = 25;

function tabItem(t: SessionTab, parent: string | undefined, ms: number): ProfileItem {
  const item: ProfileItem = { kind: "tab", id: t.sessionId ?? "", title: t.title ?? "", url: t.url ?? "", time_ms: ms };
  if (parent !== undefined) item.parent_id = parent;
  return item;
}

function sessionItems(s: Session, parent: string | undefined): ProfileItem[] {
  // Chrome reports lastModified in seconds.
  const ms = Math.round(s.lastModified * 1000);
  if (s.tab !== undefined) return [tabItem(s.tab, parent, ms)];
  if (s.window === undefined) return [];
  const id = s.window.sessionId ?? "";
  const win: ProfileItem = { kind: "window", id, time_ms: ms };
  if (parent !== undefined) win.parent_id = parent;
  return [win, ...(s.window.tabs ?? []).map((t) => tabItem(t, id, ms))];
}

/** Recently closed entries, then each device with its sessions after it. */
export async function listSessions(s: Sessions, p: ProfileParams): Promise<ProfileRead> {
  const n = resultBound(p.max_results);
  const [closed, devices] = await Promise.all([s.getRecentlyClosed(MAX_SESSION_RESULTS), s.getDevices()]);
  const items = closed.flatMap((c) => sessionItems(c, undefined));
  devices.forEach((d, i) => {
    const id = `device-${i}`;
    items.push({ kind: "device", id, title: d.deviceName });
    for (const session of d.sessions) items.push(...sessionItems(session, id));
  });
  return bounded(items, n);
}

/** The URLs of the entry with that session id (a tab, or a window's tabs), or undefined. */
function entryURLs(all: Session[], id: string): string[] | undefined {
  for (const s of all) {
    if (s.tab?.sessionId === id) return [s.tab.url ?? ""];
    if (s.window?.sessionId === id) return (s.window.tabs ?? []).map((t) => t.url ?? "");
    const inWindow = s.window?.tabs?.find((t) => t.sessionId === id);
    if (inWindow !== undefined) return [inWindow.url ?? ""];
  }
  return undefined;
}

type RestoreEnv = OpenEnv;

export async function restoreSession(ctx: RestoreEnv, s: Sessions, p: ExtProfileParams, originLists: boolean): Promise<ExtProfileResult> {
  const id = p.params.id ?? "";
  if (id === "") throw failure(CodeInvalidParams, "id names the session entry (from sessions_list)");
  // The host refuses this first; the extension holds the same line.
  if (originLists) throw failure(CodeOriginPolicyUnverifiable, "sessions_restore is refused under the managed origin lists: restored URLs cannot be checked before they open; open each with browser_open");
  const [closed, devices] = await Promise.all([s.getRecentlyClosed(MAX_SESSION_RESULTS), s.getDevices()]);
  const urls = entryURLs([...closed, ...devices.flatMap((d) => d.sessions)], id);
  if (urls === undefined) throw failure(CodeProfileNotFound, `no recently closed or device session entry has id ${JSON.stringify(id)}`);
  const web = urls.filter(isWebURL);
  if (web.length === 0) throw failure(CodeInvalidParams, "the entry has no http(s) URL to reopen");
  if (web.length > MaxRestoreURLs) {
    throw failure(CodeInvalidParams, `the entry has ${web.length} http(s) URLs; sessions_restore reopens at most ${MaxRestoreURLs}: open the ones you need with browser_open`);
  }
  const tabs: ExtTab[] = [];
  try {
    for (const url of web) tabs.push((await open(ctx, { task: p.task, url, placement: PlacementTab, load_wait_ms: 0 })).tab);
  } catch (e) {
    // All or nothing: the tabs this restore made are taken back and
    // closed, so the host never misses one the extension owns.
    for (const t of tabs) {
      await revoke(ctx, t.tab_id, RevokeClosed, "answer");
      await ctx.chrome.tabs.remove(t.tab_id).catch(() => undefined);
    }
    if (e instanceof Failure) throw e;
    throw failure(CodeChromeError, `a tab could not be reopened: ${errorText(e)}`, OutcomeDispatched);
  }
  return { ids: [id], state: "restored", tabs };
}
