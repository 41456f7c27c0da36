// One claim's lock file (claim.ts says what a claim is; prune.ts claims a
// name before removing its files, as an adapter would): created whole and
// at once, or taken over when its process is gone; released by removing
// it, only by its holder and only while it is still its own. Every
// takeover and release runs under the directory's mutex (claimmutex.ts).
import { withClaimMutex } from "./claimmutex";
import { holderAlive, lockContent, linkNew, readIfThere } from "./liveness";
import { removeIfThere } from "./private";

/** takeClaim claims the lock file in dir: its release, or undefined while a live process holds it. */
export function takeClaim(dir: string, lock: string): (() => void) | undefined {
  const mine = lockContent();
  if (!tryLock(dir, lock, mine)) {
    return undefined;
  }
  let released = false;
  return () => {
    if (released) {
      return;
    }
    released = true;
    // A release that fails leaves a lock a later claimant sees dead.
    try {
      withClaimMutex(dir, () => {
        if (readIfThere(lock) === mine) {
          removeIfThere(lock);
        }
      });
    } catch {
      // ignored: as above
    }
  };
}

// tryLock creates the lock, or takes over one whose process is gone.
function tryLock(dir: string, lock: string, mine: string): boolean {
  if (linkNew(dir, lock, mine)) {
    return true;
  }
  return withClaimMutex(dir, () => {
    const held = readIfThere(lock);
    if (held !== undefined) {
      if (holderAlive(held)) {
        return false;
      }
      // No lock is removed but under the mutex, so the dead holder's lock
      // read here is still the one at the path.
      removeIfThere(lock);
    }
    return linkNew(dir, lock, mine);
  });
}
