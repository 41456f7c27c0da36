// Removing the kept files of sessions long over, as statedir's
// pruneAdapterFiles (internal/statedir/adapters_prune.go) does in Go: a
// capability is a bearer secret at rest, useless once the host has
// forgotten its task. On every claim, other names' .capability and .keys
// files (and their lock files) go when each that is there was last written
// more than adapterFilesKeptMs ago (statedir.AdapterFilesKept: the host's
// detached-task lifetime and a margin) and no live adapter holds the
// name's claim. The name is claimed first, as an adapter would
// (claimlock.ts: a dead holder's lock is taken over, and released with the
// files); an empty lock file is agenttab mcp's flock claim, which Node
// cannot test, so it counts as held (liveness.ts) and Go's pruner judges
// it. Nothing else in the directory (http-token, the claim mutex,
// temporary files) is touched.
import * as fs from "node:fs";
import * as path from "node:path";

import { takeClaim } from "./claimlock";
import { isNotExist, removeIfThere } from "./private";
import { adapterConstants } from "./tools.generated";

const { adapterFilesKeptMs } = adapterConstants;

// The kept files and the claim's lock file (statedir's capabilityExt,
// keysExt, claimLockExt; keys.ts keysFileFor).
const capabilityExt = ".capability";
const keysExt = ".keys";
const claimLockExt = capabilityExt + ".lock";

/** pruneAdapterFiles removes, from the adapters directory dir, what sessions long over left. */
export function pruneAdapterFiles(dir: string, nowMs: number): void {
  const cutoff = nowMs - adapterFilesKeptMs;
  const seen = new Set<string>();
  for (const name of fs.readdirSync(dir)) {
    const base = keptBase(name);
    if (base !== undefined && !seen.has(base)) {
      seen.add(base);
      pruneName(dir, path.join(dir, base), cutoff);
    }
  }
}

function keptBase(name: string): string | undefined {
  for (const ext of [claimLockExt, capabilityExt, keysExt]) {
    if (name.endsWith(ext) && name.length > ext.length) {
      return name.slice(0, -ext.length);
    }
  }
  return undefined;
}

function pruneName(dir: string, base: string, cutoff: number): void {
  const kept = [base + capabilityExt, base + keysExt];
  const lock = base + claimLockExt;
  if (!allOlder(cutoff, [...kept, lock])) {
    return;
  }
  const release = takeClaim(dir, lock);
  if (release === undefined) {
    return;
  }
  try {
    // Written or released since the first look: in use after all.
    if (allOlder(cutoff, kept)) {
      kept.forEach(removeIfThere);
    }
  } finally {
    release();
  }
}

// allOlder says whether every one of the files that is there was last
// modified before cutoff; anything but a regular file keeps the name.
function allOlder(cutoff: number, paths: string[]): boolean {
  for (const p of paths) {
    let st: fs.Stats;
    try {
      st = fs.lstatSync(p);
    } catch (e) {
      if (isNotExist(e)) {
        continue;
      }
      return false;
    }
    if (!st.isFile() || st.mtimeMs >= cutoff) {
      return false;
    }
  }
  return true;
}
