// Lock files the adapters' claims are made of (claim.ts, claimmutex.ts):
// "pid starttime nonce", appearing whole and at once, and whether the
// process that wrote one still runs. A pid alone is not enough: the
// system reuses it, so a dead holder's pid may name a live stranger. On
// Linux the process's start time (/proc/<pid>/stat field 22, in clock
// ticks since boot) tells them apart; elsewhere it is "-" and the pid is
// all there is.
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";

import { isNotExist, removeIfThere } from "./private";

/** processStart is /proc/<pid>/stat's starttime, or undefined where there is none. */
export function processStart(pid: number): string | undefined {
  let stat: string;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  // The command name (field 2) is in parentheses and may hold spaces;
  // the fields after its closing one start at field 3.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const start = fields[22 - 3];
  return start !== undefined && /^[0-9]+$/.test(start) ? start : undefined;
}

let ownStart: string | undefined;

/** lockContent is a new lock's text for this process: "pid starttime nonce\n". */
export function lockContent(): string {
  ownStart ??= processStart(process.pid) ?? "-";
  return `${process.pid} ${ownStart} ${randomBytes(8).toString("hex")}\n`;
}

/**
 * holderAlive says whether the process that wrote a lock still runs. A
 * malformed lock counts as held: never taken over by guess. The older
 * "pid nonce" form has no start time. Pids are per PID namespace: a state
 * directory shared across them (containers) makes kill(pid, 0) report a
 * live holder in another one dead, and its claim taken over; give each
 * its own state directory (AGENTTAB_STATE_DIR).
 */
export function holderAlive(content: string): boolean {
  const parts = content.trim().split(/\s+/);
  const pid = Number(parts[0]);
  const start = parts.length >= 3 ? (parts[1] ?? "-") : "-";
  if (!Number.isInteger(pid) || pid <= 0) {
    return true;
  }
  if (pid === process.pid) {
    // Ours, or an earlier process's whose pid this one got.
    ownStart ??= processStart(process.pid) ?? "-";
    return start === "-" || ownStart === "-" || start === ownStart;
  }
  try {
    process.kill(pid, 0);
  } catch (e) {
    if (e instanceof Error && "code" in e && e.code === "ESRCH") {
      return false;
    }
    // EPERM: another user's process, which runs.
  }
  if (start === "-") {
    return true;
  }
  const now = processStart(pid);
  return now === undefined || now === start;
}

/**
 * linkNew creates file holding content if there is none: false when one
 * is there. The content is written aside and hard-linked into place, so a
 * reader never sees the file empty or half written; where hard links are
 * refused it is created with O_EXCL and written.
 */
export function linkNew(dir: string, file: string, content: string): boolean {
  const aside = path.join(dir, "." + path.basename(file) + "-" + randomBytes(6).toString("hex"));
  fs.writeFileSync(aside, content, { flag: "wx", mode: 0o600 });
  try {
    fs.linkSync(aside, file);
    return true;
  } catch (e) {
    if (isCode(e, "EEXIST")) {
      return false;
    }
    if (!isCode(e, "EPERM") && !isCode(e, "ENOTSUP") && !isCode(e, "EXDEV")) {
      throw e;
    }
  } finally {
    removeIfThere(aside);
  }
  try {
    fs.writeFileSync(file, content, { flag: "wx", mode: 0o600 });
    return true;
  } catch (e) {
    if (isCode(e, "EEXIST")) {
      return false;
    }
    throw e;
  }
}

/** readIfThere is the file's text, or undefined when there is none. */
export function readIfThere(file: string): string | undefined {
  try {
    return fs.readFileSync(file, "utf8");
  } catch (e) {
    if (isNotExist(e)) {
      return undefined;
    }
    throw e;
  }
}

function isCode(e: unknown, code: string): boolean {
  return e instanceof Error && "code" in e && e.code === code;
}
