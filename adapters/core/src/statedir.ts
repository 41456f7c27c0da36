// The state directory, resolved exactly as internal/statedir/resolve.go
// does (AGENTTAB_STATE_DIR, absolute; else the platform default), and the
// Core endpoint inside it: STATE/core.sock, or on Windows the named pipe
// internal/corerpc/listen_windows.go's PipeName derives from that path.
import { createHash } from "node:crypto";
import { homedir } from "node:os";
import * as path from "node:path";

export const envStateDir = "AGENTTAB_STATE_DIR";

type Env = Readonly<Record<string, string | undefined>>;

/** resolveStateDir is statedir.resolve with the platform, environment and home passed in. */
export function resolveStateDir(platform: string = process.platform, env: Env = process.env, home: () => string = homedir): string {
  const p = platform === "win32" ? path.win32 : path.posix;
  const dir = env[envStateDir] ?? "";
  if (dir !== "") {
    // Chrome starts the host with a working directory of its choosing, so
    // a relative path would name another directory for the host.
    if (!isAbs(platform, dir)) {
      throw new Error(`${envStateDir}=${JSON.stringify(dir)} is not an absolute path; set it to an absolute directory`);
    }
    return clean(p, dir);
  }
  switch (platform) {
    case "win32": {
      const local = env["LOCALAPPDATA"] ?? "";
      if (local === "") {
        throw new Error("cannot find the state directory: LOCALAPPDATA is not set; set AGENTTAB_STATE_DIR");
      }
      return p.join(local, "AgentTab");
    }
    case "darwin":
      return p.join(homeDir(home), "Library", "Application Support", "AgentTab");
    default: {
      // XDG: a relative XDG_STATE_HOME is invalid and must be ignored.
      const xdg = env["XDG_STATE_HOME"] ?? "";
      if (xdg !== "" && xdg.startsWith("/")) {
        return p.join(xdg, "agenttab");
      }
      return p.join(homeDir(home), ".local", "state", "agenttab");
    }
  }
}

function homeDir(home: () => string): string {
  let h: string;
  try {
    h = home();
  } catch (e) {
    throw new Error(`cannot find the state directory: ${String(e)}; set AGENTTAB_STATE_DIR`);
  }
  if (h === "") {
    throw new Error("cannot find the state directory: the home directory is unknown; set AGENTTAB_STATE_DIR");
  }
  return h;
}

function isAbs(platform: string, p: string): boolean {
  if (platform !== "win32") {
    return p.startsWith("/");
  }
  // A drive-letter path (C:\ or C:/) or a UNC path (\\server\share).
  if (p.length >= 3 && p[1] === ":" && (p[2] === "\\" || p[2] === "/")) {
    return true;
  }
  return p.length >= 2 && (p[0] === "\\" || p[0] === "/") && (p[1] === "\\" || p[1] === "/");
}

// clean is filepath.Clean for an absolute path: normalised, no trailing
// separator but on a root.
function clean(p: path.PlatformPath, dir: string): string {
  const n = p.normalize(dir);
  const root = p.parse(n).root;
  return n.length > root.length && (n.endsWith("/") || n.endsWith(p.sep)) ? n.slice(0, -1) : n;
}

/** socketPath is statedir.Dir.Socket. */
export function socketPath(stateDir: string, platform: string = process.platform): string {
  return (platform === "win32" ? path.win32 : path.posix).join(stateDir, "core.sock");
}

/** pipeName is corerpc.PipeName: one pipe per state directory. */
export function pipeName(stateSocketPath: string): string {
  const sum = createHash("sha256").update(stateSocketPath.toLowerCase(), "utf8").digest();
  return "\\\\.\\pipe\\agenttab-" + sum.subarray(0, 8).toString("hex");
}

/** endpoint is what node:net dials for the state directory's Core. */
export function endpoint(stateDir: string, platform: string = process.platform): string {
  const sock = socketPath(stateDir, platform);
  return platform === "win32" ? pipeName(sock) : sock;
}

/** adaptersDir is statedir.Dir.Adapters: adapter-owned private state. */
export function adaptersDir(stateDir: string, platform: string = process.platform): string {
  return (platform === "win32" ? path.win32 : path.posix).join(stateDir, "adapters");
}
