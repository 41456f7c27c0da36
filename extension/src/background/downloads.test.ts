import { test } from "node:test";
import assert from "node:assert/strict";
import { DownloadLog, itemOf } from "./downloads";
import { kit } from "./testkit";

const URL = "https://a.test/report.csv";

test("a tab's download is followed by its guid, and matched to the Chrome item of the size its own events reported", async () => {
  const k = kit();
  const log = new DownloadLog();
  const now = Date.now();
  log.onEvent(7, "Page.downloadWillBegin", { guid: "g7", url: URL, suggestedFilename: "report.csv", frameId: "F" });
  log.onEvent(8, "Page.downloadWillBegin", { guid: "g8", url: URL, suggestedFilename: "report.csv", frameId: "F" });
  log.onEvent(7, "Page.downloadProgress", { guid: "g7", state: "completed", receivedBytes: 300, totalBytes: 300 });
  log.onEvent(7, "Page.downloadProgress", { guid: "g8", state: "completed", receivedBytes: 999, totalBytes: 999 });
  log.onEvent(8, "Page.downloadProgress", { guid: "g8", state: "completed", receivedBytes: 200, totalBytes: 200 });
  // Chrome lists the two items of the one URL; the larger one started first.
  const at = new Date(now).toISOString();
  k.fake.downloadList.push(
    { id: 1, url: URL, finalUrl: URL, filename: "/d/report.csv", bytesReceived: 300, totalBytes: 300, state: "complete", startTime: at },
    { id: 2, url: URL, finalUrl: URL, filename: "/d/report (1).csv", bytesReceived: 200, totalBytes: 200, state: "complete", startTime: at },
  );
  const eight = log.take(8, now - 1000);
  assert.ok(eight);
  assert.equal(eight.guid, "g8");
  assert.deepEqual(eight.progress, { state: "completed", receivedBytes: 200 }, "another tab's events do not touch this tab's download");
  assert.equal((await itemOf(k.ctx, eight, new Set()))?.id, 2);
  const seven = log.take(7, now - 1000);
  assert.ok(seven);
  assert.equal((await itemOf(k.ctx, seven, new Set([2])))?.id, 1);
  assert.equal(log.take(7, now - 1000), undefined, "each start answers one wait");
});

test("a download the tab's events still report in progress takes no item, even the only one (it may be another tab's)", async () => {
  const k = kit();
  const log = new DownloadLog();
  log.onEvent(7, "Page.downloadWillBegin", { guid: "g7", url: URL, suggestedFilename: "report.csv", frameId: "F" });
  log.onEvent(7, "Page.downloadProgress", { guid: "g7", state: "inProgress", receivedBytes: 0, totalBytes: 0 });
  k.fake.downloadList.push({ id: 3, url: URL, finalUrl: URL, filename: "/d/report.csv", bytesReceived: 10, totalBytes: 10, state: "complete", startTime: new Date().toISOString() });
  const start = log.take(7, Date.now() - 1000);
  assert.ok(start);
  assert.equal(await itemOf(k.ctx, start, new Set()), undefined);
  log.onEvent(7, "Page.downloadProgress", { guid: "g7", state: "completed", receivedBytes: 10, totalBytes: 10 });
  assert.equal((await itemOf(k.ctx, start, new Set()))?.id, 3);
});
