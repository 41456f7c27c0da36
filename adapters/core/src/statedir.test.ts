import assert from "node:assert/strict";
import { test } from "node:test";

import { endpoint, pipeName, resolveStateDir } from "./statedir";

const home = () => "/home/u";

test("the state directory resolves as internal/statedir/resolve.go does", () => {
  assert.equal(resolveStateDir("linux", { AGENTTAB_STATE_DIR: "/x/y/" }, home), "/x/y");
  assert.throws(() => resolveStateDir("linux", { AGENTTAB_STATE_DIR: "rel" }, home), /is not an absolute path/);
  assert.equal(resolveStateDir("linux", { XDG_STATE_HOME: "/xdg" }, home), "/xdg/agenttab");
  assert.equal(resolveStateDir("linux", { XDG_STATE_HOME: "rel" }, home), "/home/u/.local/state/agenttab");
  assert.equal(resolveStateDir("linux", {}, home), "/home/u/.local/state/agenttab");
  assert.equal(resolveStateDir("darwin", {}, home), "/home/u/Library/Application Support/AgentTab");
  assert.equal(resolveStateDir("win32", { LOCALAPPDATA: "C:\\Users\\a\\AppData\\Local" }, home), "C:\\Users\\a\\AppData\\Local\\AgentTab");
  assert.equal(resolveStateDir("win32", { AGENTTAB_STATE_DIR: "D:/state" }, home), "D:\\state");
  assert.throws(() => resolveStateDir("win32", {}, home), /LOCALAPPDATA is not set/);
  assert.throws(() => resolveStateDir("linux", {}, () => ""), /home directory is unknown/);
});

// The expected name is corerpc.PipeName's for the same path (computed by Go).
test("the Windows pipe name is corerpc.PipeName's", () => {
  assert.equal(pipeName("C:\\Users\\a\\AppData\\Local\\AgentTab\\core.sock"), "\\\\.\\pipe\\agenttab-24dd78af608e9cd5");
  assert.equal(pipeName("c:\\users\\A\\appdata\\local\\agenttab\\CORE.SOCK"), pipeName("C:\\Users\\a\\AppData\\Local\\AgentTab\\core.sock"));
  assert.equal(endpoint("C:\\Users\\a\\AppData\\Local\\AgentTab", "win32"), "\\\\.\\pipe\\agenttab-24dd78af608e9cd5");
  assert.equal(endpoint("/s", "linux"), "/s/core.sock");
});
