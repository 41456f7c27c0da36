import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { mock, test } from "node:test";
import { fileURLToPath } from "node:url";

import { claimAdapterFile, sessionFileName } from "./claim";
import { lockContent, processStart } from "./liveness";
import { adapterConstants } from "./tools.generated";

// A claimant child of the race test (this file run again with the env
// set): waits for the common start time, claims, says which file, holds
// it until its stdin ends.
const child = process.env["CLAIM_TEST_CHILD"];
if (child !== undefined) {
  const [state, startAt] = child.split("|");
  while (Date.now() < Number(startAt)) {
    // spin: every child claims at the same moment
  }
  const c = claimAdapterFile(state ?? "", "pi", "race");
  process.stdout.write(path.basename(c.capabilityPath) + "\n");
  process.stdin.resume();
  await new Promise((res) => process.stdin.on("end", res));
  c.release();
  process.exit(0);
}

function tmp(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), "claim-"));
}

function deadPid(): string {
  return spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]).stdout.toString();
}

test("the files are bound to the agent's session: another session never gets them", () => {
  const state = tmp();
  const a = claimAdapterFile(state, "pi", "session-A");
  const h = sessionFileName("pi", "session-A");
  assert.match(h, /^pi-[0-9a-f]{16}$/);
  assert.equal(path.basename(a.capabilityPath), h + ".capability");
  assert.equal(fs.statSync(path.join(state, "adapters")).mode & 0o777, 0o700);
  a.release();
  // A later process of another session: its own file, though A's is free.
  const b = claimAdapterFile(state, "pi", "session-B");
  assert.notEqual(b.capabilityPath, a.capabilityPath);
  assert.ok(!b.capabilityPath.includes("session-B"), "the session id never appears in a file name");
  // The same session again: what A kept.
  const a2 = claimAdapterFile(state, "pi", "session-A");
  assert.equal(a2.capabilityPath, a.capabilityPath);
  // While that claim is live, the same session gets -2, a fresh task.
  const a3 = claimAdapterFile(state, "pi", "session-A");
  assert.equal(path.basename(a3.capabilityPath), h + "-2.capability");
  assert.throws(() => claimAdapterFile(state, "../evil", "s"), /is not an adapter name/);
  assert.throws(() => claimAdapterFile(state, "pi", ""), /session id is empty/);
  for (const c of [b, a2, a3]) c.release();
  assert.deepEqual(fs.readdirSync(path.join(state, "adapters")), [], "released claims and the mutex leave nothing");
});

test("a dead holder's lock is taken over; a live one's, or a malformed one, is not", () => {
  const state = tmp();
  const dir = path.join(state, "adapters");
  fs.mkdirSync(dir, { mode: 0o700 });
  const base = path.join(dir, sessionFileName("omp", "s"));
  fs.writeFileSync(base + ".capability.lock", `${deadPid()} 00\n`); // the older "pid nonce" form
  assert.equal(claimAdapterFile(state, "omp", "s").capabilityPath, base + ".capability");

  const x = path.join(dir, sessionFileName("x", "s"));
  fs.writeFileSync(x + ".capability.lock", `1 - 00\n`); // pid 1 runs
  fs.writeFileSync(x + "-2.capability.lock", ""); // malformed: held
  assert.equal(claimAdapterFile(state, "x", "s").capabilityPath, x + "-3.capability");
});

test("a reused pid is seen as dead: its start time differs", { skip: processStart(process.pid) === undefined ? "no /proc" : false }, () => {
  const state = tmp();
  const dir = path.join(state, "adapters");
  fs.mkdirSync(dir, { mode: 0o700 });
  const base = path.join(dir, sessionFileName("pi", "s"));
  // pid 1 runs, but not the process that started at tick 1 after boot.
  assert.notEqual(processStart(1), "1");
  fs.writeFileSync(base + ".capability.lock", "1 1 00\n");
  // This process's own pid with another start time: an earlier process's.
  fs.writeFileSync(base + "-2.capability.lock", `${process.pid} 1 00\n`);
  const c = claimAdapterFile(state, "pi", "s");
  assert.equal(c.capabilityPath, base + ".capability");
  assert.match(fs.readFileSync(c.capabilityPath + ".lock", "utf8"), new RegExp(`^${process.pid} ${processStart(process.pid) ?? ""} [0-9a-f]{16}\\n$`));
  assert.equal(claimAdapterFile(state, "pi", "s").capabilityPath, base + "-2.capability");
});

test("processes racing for one dead lock: exactly one wins it, none share a file", async () => {
  const state = tmp();
  const dir = path.join(state, "adapters");
  fs.mkdirSync(dir, { mode: 0o700 });
  const base = sessionFileName("pi", "race");
  fs.writeFileSync(path.join(dir, base + ".capability.lock"), `${deadPid()} - 00\n`);
  // A dead holder's mutex too: breaking it is raced as well.
  fs.writeFileSync(path.join(dir, ".claim-mutex"), `${deadPid()} - 00\n`);
  const n = 6;
  const startAt = Date.now() + 1500;
  const self = fileURLToPath(import.meta.url);
  const kids = Array.from({ length: n }, () => spawn(process.execPath, [self], { env: { ...process.env, CLAIM_TEST_CHILD: `${state}|${startAt}` }, stdio: ["pipe", "pipe", "inherit"] }));
  const got = await Promise.all(
    kids.map(
      (k) =>
        new Promise<string>((resolve, reject) => {
          let out = "";
          k.stdout.on("data", (b: Buffer) => {
            out += b.toString();
            if (out.endsWith("\n")) resolve(out.trim());
          });
          k.on("exit", (code) => reject(new Error(`a claimant exited (${String(code)}) before claiming: ${out}`)));
        }),
    ),
  );
  for (const k of kids) k.stdin.end();
  await Promise.all(kids.map((k) => new Promise((res) => k.on("exit", res))));
  assert.equal(got.filter((f) => f === base + ".capability").length, 1, `one winner: ${got.join(" ")}`);
  assert.equal(new Set(got).size, n, `distinct files: ${got.join(" ")}`);
  assert.match(lockContent(), /^\d+ (\d+|-) [0-9a-f]{16}\n$/);
});

test("a claim removes what sessions long over left, and nothing held, fresh or else", () => {
  const state = tmp();
  const dir = path.join(state, "adapters");
  fs.mkdirSync(dir, { mode: 0o700 });
  const old = new Date(Date.now() - adapterConstants.adapterFilesKeptMs - 60_000);
  const write = (name: string, content: string, at: Date): string => {
    const p = path.join(dir, name);
    fs.writeFileSync(p, content, { mode: 0o600 });
    fs.utimesSync(p, at, at);
    return p;
  };
  const kept = (base: string, at: Date): string[] => [write(base + ".capability", "cap", at), write(base + ".keys", "{}", at)];
  const gone = [
    ...kept("pi-0000000000000001", old),
    ...kept("omp-0000000000000002", old),
    write("omp-0000000000000002.capability.lock", `${deadPid()} - 00\n`, old), // a dead holder's
  ];
  const stay = [
    ...kept("pi-0000000000000003", old),
    write("pi-0000000000000003.capability.lock", lockContent(), old), // a live holder's
    ...kept("mcp-stdio-4", old),
    write("mcp-stdio-4.capability.lock", "", old), // agenttab mcp's flock: Node cannot tell, so held
    ...kept("pi-0000000000000005", new Date()), // fresh
    write("pi-0000000000000006.capability", "cap", old),
    write("pi-0000000000000006.keys", "{}", new Date()), // written lately
    write("http-token", "secret", old),
    write(".pi-0000000000000001.capability-0a0b0c", "tmp", old),
    write("notes.txt", "", old),
  ];
  const c = claimAdapterFile(state, "pi", "new");
  for (const p of gone) assert.ok(!fs.existsSync(p), `${path.basename(p)} of a session long over stayed`);
  for (const p of stay) assert.ok(fs.existsSync(p), `${path.basename(p)} was removed`);
  c.release();
});

// keptFilesLongOver writes a claim's kept files, last modified long ago;
// renewed says whether each was modified since.
function keptFilesLongOver(c: { capabilityPath: string }): (why: string) => void {
  const files = [c.capabilityPath, c.capabilityPath.replace(/\.capability$/, ".keys")];
  const old = new Date(Date.now() - adapterConstants.adapterFilesKeptMs - 60_000);
  for (const p of files) {
    fs.writeFileSync(p, "x", { mode: 0o600 });
    fs.utimesSync(p, old, old);
  }
  return (why) => {
    for (const p of files) {
      assert.ok(fs.statSync(p).mtimeMs > Date.now() - 60_000, `${path.basename(p)} not renewed ${why}`);
    }
  };
}

test("a release marks the kept files as used until then", () => {
  const c = claimAdapterFile(tmp(), "pi", "s");
  const renewed = keptFilesLongOver(c);
  c.release();
  renewed("by the release");
});

test("a held claim marks the kept files as used every keptTouchEveryMs: a killed adapter never releases", () => {
  mock.timers.enable({ apis: ["setInterval"] });
  try {
    const c = claimAdapterFile(tmp(), "pi", "s");
    const renewed = keptFilesLongOver(c);
    mock.timers.tick(adapterConstants.keptTouchEveryMs);
    renewed("while held");
    c.release();
  } finally {
    mock.timers.reset();
  }
});
