// Claiming the adapter's private files for one agent session in one
// process. Spec 001: "A fresh adapter connection therefore gets a distinct
// task"; "A missing or invalid capability creates a new task rather than
// recovering another agent's task". So the files are bound to the agent's
// session: STATE/adapters/<adapter>-<h>.capability (and .keys), h the
// first 16 hex of SHA-256(session), the session id itself never in a file
// name. Only a later process of the same session finds what an earlier
// one kept. While a live process holds that claim, another one of the same
// session moves on to <adapter>-<h>-2, -3 … (as statedir.ClaimAdapterFile
// numbers them: first slot unnumbered), a fresh task.
//
// Node has no flock, so a claim is a lock file beside the capability,
// made whole and at once (written aside, then hard-linked: O_EXCL) and
// holding "pid starttime nonce"; a lock whose process is gone is taken
// over (claimlock.ts). claimmutex.ts says why every takeover and release
// runs under the directory's mutex, and liveness.ts how a reused pid is
// told apart. A release marks the kept files as used until then: the task
// detaches as its adapter exits, so their kept time starts afresh. So does
// the claim every keptTouchEveryMs while it is held (statedir's
// KeptTouchEvery says why): an adapter killed outright never releases.
//
// Every claim also removes the kept files of sessions long over: other
// names' .capability and .keys files (and their lock files) last written
// more than adapterFilesKeptMs ago whose claim no live adapter, of either
// language, holds (prune.ts).
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";

import { takeClaim } from "./claimlock";
import { keysFileFor } from "./keys";
import { pruneAdapterFiles } from "./prune";
import { adaptersDir } from "./statedir";
import { adapterConstants } from "./tools.generated";

/** maxAdapterSlots is statedir.MaxAdapterSlots: the bound on one name's numbered files. */
const { maxAdapterSlots, keptTouchEveryMs } = adapterConstants;

export interface Claim {
  /** STATE/adapters/<adapter>-<h>[-n].capability; the key seed is beside it (.keys). */
  capabilityPath: string;
  release(): void;
}

/** sessionFileName is the files' base name for an adapter and an agent session. */
export function sessionFileName(adapter: string, session: string): string {
  return `${adapter}-${createHash("sha256").update(session, "utf8").digest("hex").slice(0, 16)}`;
}

export function claimAdapterFile(stateDir: string, adapter: string, session: string): Claim {
  if (!/^[a-z0-9][a-z0-9_-]*$/.test(adapter)) {
    throw new Error(`adapter state: ${JSON.stringify(adapter)} is not an adapter name (lower-case letters, digits, - and _)`);
  }
  if (session === "") {
    throw new Error("adapter state: the agent's session id is empty; open AgentTab once the agent's session is known");
  }
  const dir = adaptersDir(stateDir);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const name = sessionFileName(adapter, session);
  for (let slot = 1; slot <= maxAdapterSlots; slot++) {
    const capabilityPath = path.join(dir, (slot === 1 ? name : `${name}-${slot}`) + ".capability");
    const release = takeClaim(dir, capabilityPath + ".lock");
    if (release !== undefined) {
      try {
        pruneAdapterFiles(dir, Date.now());
      } catch {
        // best effort: a later claim prunes again
      }
      // unref: the timer never keeps the agent's process alive.
      const touching = setInterval(() => renewKept(capabilityPath), keptTouchEveryMs);
      touching.unref();
      let released = false;
      return {
        capabilityPath,
        release() {
          if (!released) {
            released = true;
            clearInterval(touching);
            renewKept(capabilityPath);
            release();
          }
        },
      };
    }
  }
  throw new Error(`adapter state: ${maxAdapterSlots} adapters named ${adapter} are running this session`);
}

// renewKept marks the capability and its key seed as used until now.
function renewKept(capabilityPath: string): void {
  const now = new Date();
  for (const p of [capabilityPath, keysFileFor(capabilityPath)]) {
    try {
      fs.utimesSync(p, now, now);
    } catch {
      // not there: nothing kept
    }
  }
}
