// The adapters directory's mutex (STATE/adapters/.claim-mutex). Taking
// over a dead holder's lock is "read it, see the holder gone, remove it,
// create one's own": two claimants that read the same dead lock would
// otherwise both do it, the second removing the first's new lock, and two
// live processes would hold one claim. So every removal of a lock (a
// takeover, a release) runs under this mutex, which makes the read and
// the removal one step: a lock is only ever created where there is none
// (O_EXCL), and only removed under the mutex after reading it, so what was
// read is still what is removed.
//
// The mutex is a lock file like the claims' (liveness.ts) and is held for
// a few file operations. One left by a process that died holding it, or
// older than mutexStaleMs (a hung holder), is broken: renamed aside, and
// put back if what was renamed turns out not to be the stale one read.
// What remains is a window of microseconds in which a third claimant may
// take the mutex after it was renamed and before it is put back; it needs
// a process to have died inside the mutex first.
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";

import { holderAlive, lockContent, linkNew, readIfThere } from "./liveness";
import { removeIfThere } from "./private";

const mutexName = ".claim-mutex";
/** mutexStaleMs: a holder needs milliseconds; one older than this is hung or gone. */
const mutexStaleMs = 2_000;
/**
 * acquireWaitMs bounds the whole wait. It blocks the agent's event loop
 * (Pi, OMP: the wait is synchronous, as the claim is), so it is short:
 * long enough to outlast a hung holder's mutexStaleMs, no longer.
 */
const acquireWaitMs = 3_000;

const sleeper = new Int32Array(new SharedArrayBuffer(4));

export function withClaimMutex<T>(dir: string, fn: () => T): T {
  const mutex = path.join(dir, mutexName);
  const deadline = Date.now() + acquireWaitMs;
  for (;;) {
    const mine = lockContent();
    if (linkNew(dir, mutex, mine)) {
      try {
        return fn();
      } finally {
        if (readIfThere(mutex) === mine) {
          removeIfThere(mutex);
        }
      }
    }
    // Gone meanwhile (released): try again. It may also be a path that
    // cannot be read nor created (a dangling link): the deadline ends that.
    const held = readIfThere(mutex);
    if (held !== undefined && stale(mutex, held)) {
      breakStale(dir, mutex, held);
    }
    if (Date.now() > deadline) {
      const by = held === undefined ? "could not be created" : `stayed held by a running process (${held.trim()})`;
      throw new Error(`adapter state: ${mutex} ${by} for ${acquireWaitMs} ms`);
    }
    Atomics.wait(sleeper, 0, 0, 1 + Math.floor(Math.random() * 4));
  }
}

function stale(mutex: string, held: string): boolean {
  if (!holderAlive(held)) {
    return true;
  }
  try {
    return Date.now() - fs.statSync(mutex).mtimeMs > mutexStaleMs;
  } catch {
    return false; // gone meanwhile: the next attempt sees it
  }
}

function breakStale(dir: string, mutex: string, held: string): void {
  const aside = path.join(dir, `${mutexName}-broken-${randomBytes(6).toString("hex")}`);
  try {
    fs.renameSync(mutex, aside);
  } catch {
    return; // another claimant broke it first
  }
  if (readIfThere(aside) !== held) {
    // Renamed a live holder's new mutex: put it back unless taken meanwhile.
    try {
      fs.linkSync(aside, mutex);
    } catch {
      // EEXIST: see the file comment's remaining window.
    }
  }
  removeIfThere(aside);
}
