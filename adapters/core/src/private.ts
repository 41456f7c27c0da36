// The adapter's private files under STATE/adapters/ (the capability, the
// key seed), as internal/mcpserver/private_file.go keeps them. Spec 000:
// "Adapters must store a capability in owner-only private state".
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";

/**
 * readPrivate reads one of the adapter's files: undefined when there is
 * none; it throws when others could read it (such a file is not trusted).
 * Windows has no POSIX modes (node reports 0o666 for every file): the
 * folder's ACL, the user's profile, is what protects it there.
 */
export function readPrivate(file: string): Buffer | undefined {
  let st: fs.Stats;
  try {
    st = fs.statSync(file);
  } catch (e) {
    if (isNotExist(e)) {
      return undefined;
    }
    throw e;
  }
  if (process.platform !== "win32" && (st.mode & 0o077) !== 0) {
    throw new Error(`${file} is readable by other users (mode ${modeString(st.mode)}); remove it`);
  }
  return fs.readFileSync(file);
}

/**
 * writeDurably replaces the file with data (mode 0600): a temporary file
 * written and fsynced, renamed over the old one, and the directory fsynced,
 * so a crash leaves the old or the new content whole.
 */
export function writeDurably(file: string, data: string): void {
  const dir = path.dirname(file);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const tmp = path.join(dir, "." + path.basename(file) + "-" + randomBytes(6).toString("hex"));
  const fd = fs.openSync(tmp, "wx", 0o600);
  try {
    try {
      fs.fchmodSync(fd, 0o600);
      fs.writeSync(fd, data);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmp, file);
  } catch (e) {
    removeIfThere(tmp);
    throw e;
  }
  syncDir(dir);
}

function syncDir(dir: string): void {
  if (process.platform === "win32") {
    return; // a directory cannot be opened for fsync there; rename is durable
  }
  const d = fs.openSync(dir, "r");
  try {
    fs.fsyncSync(d);
  } finally {
    fs.closeSync(d);
  }
}

/**
 * removeIfThere removes the file, ignoring every failure as Go's callers
 * ignore os.Remove's: what was done (a task finished, a claim released)
 * must not turn into an error because a file stayed.
 */
export function removeIfThere(file: string): void {
  try {
    fs.unlinkSync(file);
  } catch {
    // ignored: see above
  }
}

export function isNotExist(e: unknown): boolean {
  return e instanceof Error && "code" in e && e.code === "ENOENT";
}

// modeString writes the permission bits as Go's fs.FileMode does (-rw-r--r--).
function modeString(mode: number): string {
  const rwx = "rwxrwxrwx";
  let s = "-";
  for (let i = 0; i < 9; i++) {
    s += (mode & (1 << (8 - i))) !== 0 ? rwx[i] : "-";
  }
  return s;
}
