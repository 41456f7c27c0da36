import { test } from "node:test";
import assert from "node:assert/strict";
import { DownloadLog, RECENT_MS } from "./downloads";
import { downloadProbe } from "../pagework/wait-net";
import { ManualClock } from "../../testing/testkit";

const URL = "https://a.test/report.csv";

test("two tabs downloading one URL each get their own download, by the guid on their own session", async () => {
  const clock = new ManualClock();
  const log = new DownloadLog(clock);
  log.onEvent(7, "Page.downloadWillBegin", { guid: "g7", url: URL, suggestedFilename: "report.csv", frameId: "F" });
  log.onEvent(8, "Page.downloadWillBegin", { guid: "g8", url: URL, suggestedFilename: "report.csv", frameId: "F" });
  const seven = downloadProbe(log, 7, clock.now());
  const eight = downloadProbe(log, 8, clock.now());
  log.onEvent(7, "Page.downloadProgress", { guid: "g7", state: "completed", receivedBytes: 300, totalBytes: 300 });
  // Tab 8's guid reported on tab 7's session does not touch tab 8's download.
  log.onEvent(7, "Page.downloadProgress", { guid: "g8", state: "completed", receivedBytes: 999, totalBytes: 999 });
  assert.deepEqual(await seven(), {
    ok: true,
    seen: "report.csv: complete, 300 of 300 bytes",
    download: { id: "g7", file_name: "report.csv", url: URL, bytes: 300, state: "complete" },
  });
  assert.deepEqual((await eight()).download, { id: "g8", file_name: "report.csv", url: URL, bytes: 0, state: "in_progress" });
  log.onEvent(8, "Page.downloadProgress", { guid: "g8", state: "inProgress", receivedBytes: 50, totalBytes: 200 });
  assert.deepEqual(await eight(), {
    ok: false,
    seen: "report.csv: in_progress, 50 of 200 bytes",
    download: { id: "g8", file_name: "report.csv", url: URL, bytes: 50, state: "in_progress" },
  });
  log.onEvent(8, "Page.downloadProgress", { guid: "g8", state: "completed", receivedBytes: 200, totalBytes: 200 });
  assert.deepEqual((await eight()).download, { id: "g8", file_name: "report.csv", url: URL, bytes: 200, state: "complete" });
  assert.equal((await downloadProbe(log, 7, clock.now())()).ok, false, "each start answers one wait");
});

test("a canceled download ends the wait, canceled with the bytes it got", async () => {
  const clock = new ManualClock();
  const log = new DownloadLog(clock);
  log.onEvent(7, "Page.downloadWillBegin", { guid: "g7", url: URL, suggestedFilename: "", frameId: "F" });
  log.onEvent(7, "Page.downloadProgress", { guid: "g7", state: "canceled", receivedBytes: 10, totalBytes: 0 });
  assert.deepEqual(await downloadProbe(log, 7, clock.now())(), {
    ok: true,
    seen: `${URL}: canceled, 10 bytes`,
    download: { id: "g7", file_name: "", url: URL, bytes: 10, state: "canceled" },
  });
});

test("a wait counts a start from shortly before it, by the worker's clock, and not an older one", async () => {
  const clock = new ManualClock();
  const log = new DownloadLog(clock);
  log.onEvent(7, "Page.downloadWillBegin", { guid: "old", url: URL, suggestedFilename: "old.csv" });
  clock.advance(RECENT_MS + 1);
  assert.deepEqual(await downloadProbe(log, 7, clock.now())(), { ok: false, seen: "no download started by this tab" });
  log.onEvent(7, "Page.downloadWillBegin", { guid: "new", url: URL, suggestedFilename: "new.csv" });
  clock.advance(RECENT_MS);
  assert.equal((await downloadProbe(log, 7, clock.now())()).download?.id, "new");
  log.forget(7);
  log.onEvent(7, "Page.downloadProgress", { guid: "new", state: "completed", receivedBytes: 1, totalBytes: 1 });
  assert.equal((await downloadProbe(log, 7, 0)()).download, undefined, "a released tab's starts are gone");
});
