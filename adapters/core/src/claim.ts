// Claiming the adapter's private files per process, as
// statedir.ClaimAdapterFile does with flock lock files: two running Pi
// sessions never share one capability (and so one task). Node has no
// flock, so the lock is a file created with O_EXCL holding "pid nonce";
// a lock whose pid is dead is taken over. A restarted adapter takes the
// lowest free slot back, with what its predecessor left there.
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";

import { adaptersDir } from "./statedir";
import { isNotExist, removeIfThere } from "./private";

/** maxAdapterSlots is statedir's bound on one adapter name's files. */
export const maxAdapterSlots = 64;

export interface Claim {
  /** STATE/adapters/<adapter>-<n>.capability; the key seed is beside it (.keys). */
  capabilityPath: string;
  release(): void;
}

export function claimAdapterFile(stateDir: string, adapter: string): Claim {
  if (!/^[a-z0-9][a-z0-9_-]*$/.test(adapter)) {
    throw new Error(`adapter state: ${JSON.stringify(adapter)} is not an adapter name (lower-case letters, digits, - and _)`);
  }
  const dir = adaptersDir(stateDir);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  for (let slot = 1; slot <= maxAdapterSlots; slot++) {
    const capabilityPath = path.join(dir, `${adapter}-${slot}.capability`);
    const lock = capabilityPath + ".lock";
    const mine = `${process.pid} ${randomBytes(8).toString("hex")}\n`;
    if (tryLock(lock, mine)) {
      let released = false;
      return {
        capabilityPath,
        release() {
          if (released) {
            return;
          }
          released = true;
          // Only its holder removes a lock, and only while it is still its own.
          if (readLock(lock) === mine) {
            removeIfThere(lock);
          }
        },
      };
    }
  }
  throw new Error(`adapter state: ${maxAdapterSlots} adapters named ${adapter} are running`);
}

// tryLock creates the lock, or takes over one whose process is gone.
function tryLock(lock: string, mine: string): boolean {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lock, mine, { flag: "wx", mode: 0o600 });
      // Another claimant that took the same stale lock over removes ours
      // only if it read it before we wrote it; check that ours stands.
      return readLock(lock) === mine;
    } catch (e) {
      if (!(e instanceof Error && "code" in e && e.code === "EEXIST")) {
        throw e;
      }
    }
    const held = readLock(lock);
    if (held === undefined) {
      continue; // released meanwhile
    }
    if (alive(Number.parseInt(held, 10))) {
      return false;
    }
    // Removed only if it is still the dead holder's lock (a claimant may
    // have replaced it since it was read).
    if (readLock(lock) !== held) {
      return false;
    }
    removeIfThere(lock);
  }
  return false;
}

function readLock(lock: string): string | undefined {
  try {
    return fs.readFileSync(lock, "utf8");
  } catch (e) {
    if (isNotExist(e)) {
      return undefined;
    }
    throw e;
  }
}

// alive says whether pid names a running process (EPERM: one of another
// user's, which is running). A malformed lock counts as held: never taken
// over by guess.
function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) {
    return true;
  }
  if (pid === process.pid) {
    return true;
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return !(e instanceof Error && "code" in e && e.code === "ESRCH");
  }
}
