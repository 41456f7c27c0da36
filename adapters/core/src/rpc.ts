// One Core RPC connection, as internal/corerpc/client.go's Client: JSON-RPC
// 2.0 lines over STATE/core.sock (or the Windows pipe), the
// persist-then-confirm capability barrier, and the host's farewell.
import * as net from "node:net";

import { adapterConstants } from "./tools.generated";
import { ClosedError, LostError, ProtocolError } from "./errors";
import { CodeCapabilityUnconfirmed, CodeConnectionIdle, CodeInvalidParams, CodeTooManyConnections, MethodCapabilityConfirm, OutcomeNotStarted } from "./protocol";
import type { ProtocolErrorData } from "./protocol";

/** farewellWait is corerpc's: how long a failed write waits for the host's farewell. */
const farewellWaitMs = 5000;

interface WireError {
  code: number;
  message: string;
  data?: ProtocolErrorData;
}

interface Response {
  result: unknown;
  error: WireError | undefined;
  capability: string | undefined;
}

type Pending = (r: Response | Error) => void;

/** keep stores an issued capability durably; it throws when it could not. */
export type Keep = (capability: string) => void;

export class Connection {
  private nextID = 0;
  private pending: Map<string, Pending> | undefined = new Map();
  private farewell: ProtocolErrorData | undefined;
  private settled: { promise: Promise<void>; resolve: () => void } | undefined;
  private buf: Buffer[] = [];
  private bufLen = 0;
  /** done resolves when the connection ends. */
  readonly done: Promise<void>;
  private ended = false;

  private constructor(private readonly sock: net.Socket, private readonly keep: Keep | undefined) {
    let end: () => void = () => {};
    this.done = new Promise((resolve) => (end = resolve));
    sock.on("data", (chunk: Buffer) => this.read(chunk));
    sock.on("error", () => {}); // "close" follows; calls see it there
    sock.on("close", () => {
      this.ended = true;
      const pending = this.pending;
      this.pending = undefined;
      for (const p of pending?.values() ?? []) {
        p(this.lost());
      }
      end();
    });
  }

  /** dial connects to the Core endpoint (corerpc.DialClient). */
  static dial(endpoint: string, keep: Keep | undefined, signal?: AbortSignal): Promise<Connection> {
    return new Promise((resolve, reject) => {
      const sock = net.createConnection({ path: endpoint });
      const onAbort = (): void => {
        sock.destroy();
        reject(signal?.reason instanceof Error ? signal.reason : new Error("aborted"));
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      sock.once("error", (e) => {
        signal?.removeEventListener("abort", onAbort);
        reject(e);
      });
      sock.once("connect", () => {
        signal?.removeEventListener("abort", onAbort);
        sock.removeAllListeners("error");
        resolve(new Connection(sock, keep));
      });
    });
  }

  get closed(): boolean {
    return this.ended;
  }

  close(): void {
    this.sock.destroy();
  }

  private read(chunk: Buffer): void {
    let start = 0;
    for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, start)) {
      this.buf.push(chunk.subarray(start, i));
      const line = Buffer.concat(this.buf).toString("utf8");
      this.buf = [];
      this.bufLen = 0;
      start = i + 1;
      this.line(line);
    }
    const rest = chunk.subarray(start);
    this.bufLen += rest.length;
    if (this.bufLen > adapterConstants.maxLine) {
      this.close(); // ReadLine without skip: a runaway line ends the connection
      return;
    }
    if (rest.length > 0) {
      this.buf.push(rest);
    }
  }

  private line(line: string): void {
    let r: { id?: unknown; result?: unknown; error?: WireError; capability?: string };
    try {
      r = JSON.parse(line) as typeof r;
    } catch {
      return;
    }
    if (typeof r !== "object" || r === null) {
      return;
    }
    const f = farewellOf(r.id, r.error);
    if (f !== undefined) {
      this.farewell = f;
      return;
    }
    // Noted before the response is delivered, so that a concurrent call
    // the host refused meanwhile knows a confirmation is coming.
    if (typeof r.capability === "string" && r.capability !== "" && this.settled === undefined) {
      let resolve: () => void = () => {};
      const promise = new Promise<void>((res) => (resolve = res));
      this.settled = { promise, resolve };
    }
    const id = JSON.stringify(r.id ?? null);
    const p = this.pending?.get(id);
    this.pending?.delete(id);
    p?.({ result: r.result, error: r.error, capability: typeof r.capability === "string" && r.capability !== "" ? r.capability : undefined });
  }

  /**
   * call sends one request and answers its result. A failure the host
   * reported throws ProtocolError; a request refused because a capability
   * issued on this connection was not confirmed yet is sent again once it
   * is (corerpc.Client.Call).
   */
  async call(method: string, params: unknown, signal?: AbortSignal): Promise<unknown> {
    try {
      return await this.once(method, params, signal);
    } catch (e) {
      if (!(e instanceof ProtocolError) || e.data.code !== CodeCapabilityUnconfirmed || this.settled === undefined) {
        throw e;
      }
      const settled = this.settled.promise;
      await race(settled, signal, this.done.then(() => new ClosedError(method)));
      return this.once(method, params, signal);
    }
  }

  private once(method: string, params: unknown, signal?: AbortSignal): Promise<unknown> {
    this.nextID++;
    const id = String(this.nextID);
    const body = `{"jsonrpc":"2.0","id":${id},"method":${JSON.stringify(method)},"params":${JSON.stringify(params ?? {})}}`;
    const size = Buffer.byteLength(body, "utf8");
    if (size > adapterConstants.maxLine) {
      // The host would refuse the line and close the connection; refused
      // here, nothing was sent.
      return Promise.reject(
        new ProtocolError({
          code: CodeInvalidParams,
          outcome: OutcomeNotStarted,
          message: `the ${method} request is ${size} bytes once encoded; a request to the AgentTab host is limited to ${adapterConstants.maxLine} bytes, so it was not sent`,
          recovery: "Send less in one call: split a long text over several type steps (type appends), or send fewer steps per call.",
        }),
      );
    }
    const pending = this.pending;
    if (pending === undefined || this.ended) {
      return Promise.reject(new ClosedError(`send ${method}`));
    }
    return new Promise<unknown>((resolve, reject) => {
      const onAbort = (): void => {
        pending.delete(id);
        reject(signal?.reason instanceof Error ? signal.reason : new DOMException("aborted", "AbortError"));
      };
      if (signal?.aborted) {
        onAbort();
        return;
      }
      signal?.addEventListener("abort", onAbort, { once: true });
      pending.set(id, (r) => {
        signal?.removeEventListener("abort", onAbort);
        if (r instanceof Error) {
          reject(r);
          return;
        }
        this.answer(method, r, signal).then(resolve, reject);
      });
      this.sock.write(body + "\n", (err) => {
        if (err === undefined || err === null) {
          return;
        }
        // The host closed the connection, perhaps after saying why (its
        // farewell is still to be read); nothing it read ran.
        pending.delete(id);
        signal?.removeEventListener("abort", onAbort);
        const wait = new Promise<void>((res) => setTimeout(res, farewellWaitMs).unref());
        void Promise.race([this.done, wait]).then(() => {
          this.close();
          reject(this.farewellErr() ?? new ClosedError(`send ${method}: ${err.message}`));
        });
      });
    });
  }

  private async answer(method: string, r: Response, signal?: AbortSignal): Promise<unknown> {
    if (r.capability !== undefined) {
      await this.confirm(r.capability, signal);
    }
    if (r.error !== undefined && r.error !== null) {
      if (r.error.data !== undefined && r.error.data !== null) {
        throw new ProtocolError(r.error.data);
      }
      throw new Error(`core rpc: ${method}: error ${r.error.code}: ${r.error.message}`);
    }
    return r.result;
  }

  // confirm stores a newly issued capability with keep, then confirms it.
  // If keep fails the capability stays unconfirmed: the host admits
  // nothing more here, and the capability it replaces still resumes the
  // task from a new connection.
  private async confirm(capability: string, signal?: AbortSignal): Promise<void> {
    try {
      if (this.keep === undefined) {
        throw new Error("core rpc: the host issued a resume capability to a client that cannot keep one");
      }
      try {
        this.keep(capability);
      } catch (e) {
        throw new Error("core rpc: storing the resume capability: " + (e instanceof Error ? e.message : String(e)));
      }
      try {
        await this.once(MethodCapabilityConfirm, {}, signal);
      } catch (e) {
        throw new Error("core rpc: confirming the resume capability: " + (e instanceof Error ? e.message : String(e)));
      }
    } finally {
      this.settle();
    }
  }

  private settle(): void {
    this.settled?.resolve();
    this.settled = undefined;
  }

  // lost is the error of a call whose connection ended before its answer.
  private lost(): Error {
    return this.farewellErr() ?? new LostError();
  }

  // farewellErr: after connection_idle the call never ran (ClosedError:
  // dial again and send it once more); too_many_connections is the
  // host's refusal itself.
  private farewellErr(): Error | undefined {
    const f = this.farewell;
    if (f === undefined) {
      return undefined;
    }
    if (f.code === CodeConnectionIdle) {
      return new ClosedError(`${f.code}: ${f.message}`);
    }
    return new ProtocolError(f);
  }
}

// farewellOf recognises the host's notice that it closes the connection
// without reading further: an error for no request (id null) with one of
// the two codes the host sends only then.
function farewellOf(id: unknown, e: WireError | undefined): ProtocolErrorData | undefined {
  if (id !== null || e === undefined || e === null || e.data === undefined || e.data === null) {
    return undefined;
  }
  if (e.data.code !== CodeConnectionIdle && e.data.code !== CodeTooManyConnections) {
    return undefined;
  }
  return e.data;
}

// race waits for p; an abort or the alternative (an error) rejects.
async function race(p: Promise<void>, signal: AbortSignal | undefined, alt: Promise<Error>): Promise<void> {
  const aborted = new Promise<never>((_, reject) => {
    if (signal?.aborted) {
      reject(signal.reason instanceof Error ? signal.reason : new DOMException("aborted", "AbortError"));
    }
    signal?.addEventListener("abort", () => reject(signal.reason instanceof Error ? signal.reason : new DOMException("aborted", "AbortError")), { once: true });
  });
  const r = await Promise.race([p.then(() => undefined), alt, aborted]);
  if (r instanceof Error) {
    throw r;
  }
}
