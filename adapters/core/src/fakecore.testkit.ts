// A fake Core for the unit tests: a Unix socket server at STATE/core.sock
// that answers JSON-RPC lines with what the test's handler says.
import * as fs from "node:fs";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";

export interface Req {
  id: unknown;
  method: string;
  params: Record<string, unknown>;
  conn: number;
}

/** An answer: a result (with a capability), a protocol error, or what happens to the connection. */
export type Answer =
  | { result: unknown; capability?: string; delayMs?: number }
  | { error: { code: string; message: string; recovery: string; outcome: string; lifecycle?: string } }
  | "drop" // close the connection without answering
  | "farewell"; // say connection_idle and close, without answering

export class FakeCore {
  readonly requests: Req[] = [];
  private server: net.Server;
  private conns = 0;
  private sockets = new Set<net.Socket>();

  constructor(readonly stateDir: string, private readonly handle: (r: Req) => Answer) {
    this.server = net.createServer((s) => this.serve(s));
  }

  static start(handle: (r: Req) => Answer): Promise<FakeCore> {
    return FakeCore.startAt(fs.mkdtempSync(path.join(os.tmpdir(), "core-")), handle);
  }

  /** startAt serves the state directory dir (a host that comes back there). */
  static async startAt(dir: string, handle: (r: Req) => Answer): Promise<FakeCore> {
    const f = new FakeCore(dir, handle);
    await new Promise<void>((res) => f.server.listen(path.join(dir, "core.sock"), res));
    return f;
  }

  methods(): string[] {
    return this.requests.map((r) => r.method);
  }

  /** dropAll closes every connection (a host restart). */
  dropAll(): void {
    for (const s of this.sockets) {
      s.destroy();
    }
  }

  async stop(): Promise<void> {
    this.dropAll();
    await new Promise<void>((res) => this.server.close(() => res()));
  }

  private serve(s: net.Socket): void {
    const conn = ++this.conns;
    this.sockets.add(s);
    s.on("close", () => this.sockets.delete(s));
    let buf = "";
    s.on("data", (d) => {
      buf += d.toString("utf8");
      for (let i = buf.indexOf("\n"); i >= 0; i = buf.indexOf("\n")) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 1);
        const m = JSON.parse(line) as { id: unknown; method: string; params: Record<string, unknown> };
        const req: Req = { id: m.id, method: m.method, params: m.params, conn };
        this.requests.push(req);
        const a = m.method === "hello" ? { result: { connection_id: `conn_${conn}`, protocol_version: 1, host_version: "t", lifecycle: "ready" } } : this.handle(req);
        if (a === "drop") {
          s.destroy();
          return;
        }
        if (a === "farewell") {
          const data = { code: "connection_idle", message: "idle", recovery: "reconnect", outcome: "not_started" };
          s.end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32000, message: "idle", data } }) + "\n");
          return;
        }
        const resp: Record<string, unknown> = { jsonrpc: "2.0", id: m.id };
        if ("error" in a) {
          resp["error"] = { code: -32000, message: a.error.message, data: a.error };
        } else {
          resp["result"] = a.result;
          if (a.capability !== undefined) {
            resp["capability"] = a.capability;
          }
        }
        const out = JSON.stringify(resp) + "\n";
        if ("result" in a && a.delayMs !== undefined) {
          setTimeout(() => s.write(out), a.delayMs);
        } else {
          s.write(out);
        }
      }
    });
  }
}
