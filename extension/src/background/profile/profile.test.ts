import { test } from "node:test";
import assert from "node:assert/strict";
import {
  CodeBookmarkFolderNotEmpty,
  CodeBookmarkProtected,
  CodeInvalidParams,
  CodeInvalidURL,
  CodePaused,
  CodeProfileNotFound,
  CodeStageNotApproved,
  CodeStageTargetChanged,
  EffectBookmarkRemove,
  NativeProfile,
  NativeTypeResponse,
  OutcomeNotStarted,
} from "../../protocol/generated";
import type { ExtProfileCommit, ExtProfileParams, ExtProfileResult, ProfileParams } from "../../protocol/generated";
import { failure, kit, LOOK } from "../../testing/testkit";
import type { Kit } from "../../testing/testkit";
import { dispatcher } from "../native/dispatch";
import { sha256Hex } from "../random";
import type { ProfileItem } from "./items";
import { profile } from "./profile";

function items(r: ExtProfileResult): ProfileItem[] {
  return (r.items ?? []) as ProfileItem[];
}

const CANARY = "canary-7f3a9";

function call(k: Kit, params: ProfileParams, commit?: ExtProfileCommit): Promise<ExtProfileResult> {
  const p: ExtProfileParams = { task: LOOK, params };
  if (commit !== undefined) p.commit = commit;
  return profile(k.ctx, p);
}

function profiled(): Kit {
  const k = kit();
  k.fake.addWindow({ focused: true });
  return k;
}

/** The Chrome calls that change the profile. */
function writes(k: Kit): string[] {
  return k.fake.calls.filter((c) => /^(bookmarks\.(create|update|move|remove)|downloads\.(cancel|pause|resume)|tabs\.create)/.test(c));
}

test("bookmarks_search is bounded by max_results; bookmarks_tree answers a flat subtree with parents", async () => {
  const k = profiled();
  const folder = k.fake.profile.addBookmark("1", "Reading");
  for (let i = 0; i < 5; i++) k.fake.profile.addBookmark(folder, `Article ${i}`, `https://news.test/${i}`);
  const found = await call(k, { op: "bookmarks_search", query: "article", max_results: 3 });
  assert.equal(items(found).length, 3);
  assert.equal(found.truncated, true);
  assert.equal(items(found)[0]?.kind, "bookmark");
  const tree = await call(k, { op: "bookmarks_tree", id: folder });
  assert.deepEqual(items(tree).map((i) => [i.kind, i.parent_id]), [["folder", "1"], ...Array(5).fill(["bookmark", folder])]);
  const whole = await call(k, { op: "bookmarks_tree" });
  assert.deepEqual(items(whole).slice(0, 2).map((i) => i.id), ["0", "1"]);
  assert.equal((await failure(call(k, { op: "bookmarks_tree", id: "999" }))).detail.code, CodeProfileNotFound);
  assert.equal((await failure(call(k, { op: "bookmarks_search", query: "a", max_results: 0 }))).detail.code, CodeInvalidParams);
});

test("create, update and move run at once and answer ids and state only", async () => {
  const k = profiled();
  const made = await call(k, { op: "bookmarks_create", parent_id: "1", title: CANARY, url: "https://a.test/" });
  assert.deepEqual(Object.keys(made).sort(), ["ids", "state"]);
  assert.equal(made.state, "created");
  const id = made.ids?.[0] ?? "";
  assert.deepEqual(await call(k, { op: "bookmarks_update", id, title: "New" }), { ids: [id], state: "updated" });
  assert.equal(k.fake.profile.nodes.get(id)?.title, "New");
  const dest = k.fake.profile.addBookmark("2", "Later");
  assert.deepEqual(await call(k, { op: "bookmarks_move", id, parent_id: dest }), { ids: [id], state: "moved" });
  assert.equal(k.fake.profile.nodes.get(id)?.parentId, dest);
  // Chrome's default parent, Other bookmarks, when none is named.
  const loose = await call(k, { op: "bookmarks_create", title: "x", url: "https://b.test/" });
  assert.equal(k.fake.profile.nodes.get(loose.ids?.[0] ?? "")?.parentId, "2");
  assert.equal((await failure(call(k, { op: "bookmarks_create", title: "js", url: "javascript:alert(1)" }))).detail.code, CodeInvalidURL);
});

test("the root, its top-level folders and managed bookmarks are refused, not_started, and nothing changes", async () => {
  const k = profiled();
  const managedFolder = k.fake.profile.addBookmark("0", "Managed");
  const managed = k.fake.profile.addBookmark(managedFolder, "Policy", "https://corp.test/", true);
  k.fake.profile.nodes.set(managedFolder, { ...(k.fake.profile.nodes.get(managedFolder) ?? assert.fail()), managed: true });
  const mine = k.fake.profile.addBookmark("1", "Mine", "https://mine.test/");
  const before = k.fake.calls.length;
  const refusals: ProfileParams[] = [
    { op: "bookmarks_update", id: "0", title: "x" },
    { op: "bookmarks_update", id: "1", title: "x" },
    { op: "bookmarks_move", id: "2", parent_id: "1" },
    { op: "bookmarks_update", id: managedFolder, title: "x" },
    { op: "bookmarks_update", id: managed, title: "x" },
    { op: "bookmarks_move", id: managed, parent_id: "1" },
    { op: "bookmarks_create", parent_id: "0", title: "x" },
    { op: "bookmarks_create", parent_id: managedFolder, title: "x" },
    { op: "bookmarks_move", id: mine, parent_id: "0" },
    { op: "bookmarks_remove", id: "0" },
    { op: "bookmarks_remove", id: "3" },
    { op: "bookmarks_remove", id: managed },
  ];
  for (const r of refusals) {
    const f = await failure(call(k, r));
    assert.equal(f.detail.code, CodeBookmarkProtected, JSON.stringify(r));
    assert.equal(f.detail.outcome, OutcomeNotStarted);
  }
  assert.deepEqual(writes(k), []);
  assert.ok(k.fake.calls.length > before);
  assert.equal((await k.ctx.reviews.list()).length, 0);
});

async function approve(k: Kit, handle: string): Promise<void> {
  await k.ctx.reviews.markReviewed(handle, true);
}

test("bookmarks_remove stages with YOLO mode on, and commits only the approved, unchanged bookmark", async () => {
  const k = profiled();
  assert.equal(k.ctx.reviews.yolo, true);
  const id = k.fake.profile.addBookmark("1", CANARY, `https://${CANARY}.test/`);
  const staged = await call(k, { op: "bookmarks_remove", id });
  assert.deepEqual(writes(k), []);
  const stage = staged.staged ?? assert.fail("no stage");
  assert.equal(stage.effect, EffectBookmarkRemove);
  assert.equal(stage.review_handle.length, 64);
  assert.ok(!JSON.stringify(stage).includes(CANARY));
  const [entry] = await k.ctx.reviews.list();
  assert.equal(entry?.bookmarkId, id);
  assert.deepEqual(entry?.fields.map((f) => f.value), [CANARY, `https://${CANARY}.test/`, "Bookmarks bar"]);
  const commit: ExtProfileCommit = { review_handle_digest: await sha256Hex(stage.review_handle), fingerprint: stage.fingerprint };
  // Not yet approved: refused, and the entry goes (the host consumed the stage).
  assert.equal((await failure(call(k, { op: "bookmarks_remove" }, commit))).detail.code, CodeStageNotApproved);

  const again = (await call(k, { op: "bookmarks_remove", id })).staged ?? assert.fail();
  await approve(k, again.review_handle);
  const ok = await call(k, { op: "bookmarks_remove" }, { review_handle_digest: await sha256Hex(again.review_handle), fingerprint: again.fingerprint });
  assert.deepEqual(ok, { ids: [id], state: "removed" });
  assert.equal(k.fake.profile.nodes.has(id), false);
  assert.equal((await k.ctx.reviews.list()).length, 0);
});

test("a bookmark whose title, URL or folder changed after staging is not removed (stage_target_changed)", async () => {
  for (const change of ["title", "url", "parent"] as const) {
    const k = profiled();
    const id = k.fake.profile.addBookmark("1", "T", "https://a.test/");
    const stage = (await call(k, { op: "bookmarks_remove", id })).staged ?? assert.fail();
    await approve(k, stage.review_handle);
    const node = k.fake.profile.nodes.get(id) ?? assert.fail();
    if (change === "title") node.title = "T2";
    if (change === "url") node.url = "https://b.test/";
    if (change === "parent") await k.fake.profile.bookmarks.move(id, { parentId: "2" });
    const f = await failure(call(k, { op: "bookmarks_remove" }, { review_handle_digest: await sha256Hex(stage.review_handle), fingerprint: stage.fingerprint }));
    assert.equal(f.detail.code, CodeStageTargetChanged, change);
    assert.equal(k.fake.profile.nodes.has(id), true);
  }
});

test("a non-empty folder is refused; an empty one stages; the stage survives turning YOLO mode on", async () => {
  const k = profiled();
  const folder = k.fake.profile.addBookmark("1", "F");
  k.fake.profile.addBookmark(folder, "inside", "https://a.test/");
  assert.equal((await failure(call(k, { op: "bookmarks_remove", id: folder }))).detail.code, CodeBookmarkFolderNotEmpty);
  const empty = k.fake.profile.addBookmark("1", "E");
  const stage = await call(k, { op: "bookmarks_remove", id: empty });
  assert.equal(stage.state, "staged");
  await k.ctx.reviews.setYolo(false);
  await k.ctx.reviews.setYolo(true);
  await k.ctx.reviews.load();
  assert.equal((await k.ctx.reviews.list()).length, 1);
});

test("history_search passes text, range and bound (all history by default) and never deletes", async () => {
  const k = profiled();
  for (let i = 0; i < 4; i++) k.fake.profile.historyEntries.push({ id: String(i), url: `https://h.test/${i}`, title: `Bank ${i}`, lastVisitTime: 1000 * i, visitCount: 1 });
  const r = await call(k, { op: "history_search", query: "bank", start_time_ms: 1000, max_results: 2 });
  assert.deepEqual(items(r).map((i) => i.id), ["1", "2"]);
  assert.equal(r.truncated, true);
  assert.equal(items((await call(k, { op: "history_search", query: "bank" }))).length, 4);
  assert.deepEqual(writes(k), []);
});

test("sessions_list lists closed entries and devices; sessions_restore reopens http(s) URLs as inactive task tabs", async () => {
  const k = profiled();
  k.fake.profile.closed.push({ lastModified: 10, window: { sessionId: "w1", tabs: [{ sessionId: "a", url: "https://a.test/", title: "A" }, { sessionId: "b", url: "chrome://settings/", title: "S" }, { sessionId: "c", url: "http://c.test/", title: "C" }] } });
  k.fake.profile.devices.push({ deviceName: "Laptop", sessions: [{ lastModified: 5, tab: { sessionId: "d", url: "https://d.test/", title: "D" } }] });
  const list = await call(k, { op: "sessions_list" });
  assert.deepEqual(items(list).map((i) => [i.kind, i.id, i.parent_id]), [["window", "w1", undefined], ["tab", "a", "w1"], ["tab", "b", "w1"], ["tab", "c", "w1"], ["device", "device-0", undefined], ["tab", "d", "device-0"]]);
  assert.equal(items(list)[0]?.time_ms, 10_000);
  const r = await call(k, { op: "sessions_restore", id: "w1" });
  assert.equal(r.tabs?.length, 2);
  for (const t of r.tabs ?? []) {
    const tab = k.fake.tabMap.get(t.tab_id) ?? assert.fail();
    assert.equal(tab.active, false);
    assert.equal(k.ctx.ownership.owner(t.tab_id)?.taskId, LOOK.task_id);
  }
  assert.ok(!k.fake.calls.some((c) => c.startsWith("tabs.giveBack") || c.startsWith("tabs.openForUser") || c.startsWith("windows.giveFocusBack")));
  assert.equal((await failure(call(k, { op: "sessions_restore", id: "nope" }))).detail.code, CodeProfileNotFound);
});

test("sessions_restore refuses more than 25 URLs and origin lists before opening anything", async () => {
  const k = profiled();
  const tabs = Array.from({ length: 26 }, (_, i) => ({ sessionId: `t${i}`, url: `https://x.test/${i}` }));
  k.fake.profile.closed.push({ lastModified: 1, window: { sessionId: "big", tabs } });
  assert.equal((await failure(call(k, { op: "sessions_restore", id: "big" }))).detail.code, CodeInvalidParams);
  await k.ctx.origins.set({ allowed: [{ scheme: "https", host: "x.test", subdomains: false, port: 443 }], denied: [] });
  assert.equal((await failure(call(k, { op: "sessions_restore", id: "t1" }))).detail.code, "origin_policy_unverifiable");
  assert.deepEqual(writes(k), []);
});

test("downloads: search by terms, cancel, pause, resume answer id and state; an unknown id is not found", async () => {
  const k = profiled();
  const base = { url: "https://bank.test/s.pdf", finalUrl: "https://bank.test/s.pdf", canResume: true, bytesReceived: 5, totalBytes: 10, startTime: "2025-01-01T00:00:00.000Z" };
  k.fake.profile.downloadItems.push({ ...base, id: 1, filename: "/dl/statement.pdf", state: "in_progress", paused: false }, { ...base, id: 2, filename: "/dl/other.zip", state: "complete", paused: false });
  const found = await call(k, { op: "downloads_search", query: "statement" });
  assert.deepEqual(items(found).map((i) => [i.id, i.filename, i.time_ms]), [["1", "/dl/statement.pdf", Date.parse(base.startTime)]]);
  assert.deepEqual(await call(k, { op: "downloads_pause", id: "1" }), { ids: ["1"], state: "paused" });
  assert.deepEqual(await call(k, { op: "downloads_resume", id: "1" }), { ids: ["1"], state: "in_progress" });
  assert.deepEqual(await call(k, { op: "downloads_cancel", id: "1" }), { ids: ["1"], state: "interrupted" });
  assert.equal((await failure(call(k, { op: "downloads_cancel", id: "9" }))).detail.code, CodeProfileNotFound);
  // Chrome's refusal is a Failure (never the dispatcher's logged error).
  assert.equal((await failure(call(k, { op: "downloads_resume", id: "2" }))).detail.code, "chrome_error");
});

test("while paused every operation fails not_started and touches nothing", async () => {
  const k = profiled();
  await k.ctx.pause.set(true);
  const before = k.fake.calls.length;
  const f = await failure(call(k, { op: "history_search", query: "x" }));
  assert.equal(f.detail.code, CodePaused);
  assert.equal(f.detail.outcome, OutcomeNotStarted);
  assert.equal(k.fake.calls.length, before);
});

test("no log line holds a title, URL, file name or search text, through the dispatcher, refusals and Chrome errors included", async () => {
  const k = profiled();
  const id = k.fake.profile.addBookmark("1", CANARY, `https://${CANARY}.test/`);
  k.fake.profile.historyEntries.push({ id: "h", url: `https://${CANARY}.test/`, title: CANARY });
  k.fake.profile.downloadItems.push({ id: 1, url: `https://${CANARY}.test/`, finalUrl: "", filename: `/dl/${CANARY}`, state: "complete", paused: false, canResume: false, bytesReceived: 1, totalBytes: 1, startTime: "" });
  const logged: string[] = [];
  const log = { info: (m: string) => logged.push(m), warn: (m: string) => logged.push(m) };
  const serve = dispatcher({ ...k.ctx, log }, Promise.resolve());
  const ask = async (params: ProfileParams): Promise<string> =>
    JSON.stringify(await serve({ type: "request", id: 1, method: NativeProfile, class: "global", params: { task: LOOK, params } }));
  for (const params of [
    { op: "bookmarks_search", query: CANARY },
    { op: "history_search", query: CANARY },
    { op: "downloads_search", query: CANARY },
    { op: "bookmarks_update", id, title: `${CANARY}2` },
    { op: "bookmarks_create", parent_id: "0", title: CANARY },
    { op: "bookmarks_update", id, url: `javascript:${CANARY}` },
    { op: "bookmarks_remove", id },
    { op: "downloads_resume", id: "1" },
  ] satisfies ProfileParams[]) {
    const answer = await ask(params);
    assert.ok(answer.includes(NativeTypeResponse));
  }
  assert.ok((await ask({ op: "bookmarks_search", query: CANARY })).includes(CANARY), "the caller gets its result");
  assert.deepEqual(logged.filter((l) => l.includes(CANARY)), []);
  assert.deepEqual(k.warnings.filter((l) => l.includes(CANARY)), []);
});
