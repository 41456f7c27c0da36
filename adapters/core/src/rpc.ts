// One Core RPC connection, as internal/corerpc/client.go's Client: JSON-RPC
// 2.0 lines over STATE/core.sock (or the Windows pipe), the
// persist-then-confirm capability barrier, and the host's farewell.
import * as net from "node:net";

import { adapterConstants } from "./tools.generated";
import { ClosedError, LostError, ProtocolError } from "./errors";
import { CodeCapabilityUnconfirmed, CodeConnectionIdle, CodeInvalidParams, CodeTooManyConnections, MethodCapabilityConfirm, OutcomeNotStarted } from "./protocol";
import type { ProtocolErrorData } from "./protocol";

/** farewellWait is corerpc's (generated): how long a failed write waits for the host's farewell. */
const { farewellWaitMs } = adapterConstants;

interface WireError {
  code: number;
  message: string;
  data?: ProtocolErrorData;
}

/**
 * Confirmation is the storing and confirming of one issued capability
 * (corerpc's confirmation). It belongs to the connection, not to the call
 * whose answer carried the capability: that call may be cancelled first,
 * and the capability must still be kept and confirmed, or the host admits
 * nothing more on this connection (spec 000: persist, then confirm).
 */
interface Confirmation {
  done: Promise<void>;
  /** err is why the capability was not kept or not confirmed; set before done resolves. */
  err: Error | undefined;
}

/** confirmWait bounds one confirmation, as corerpc's confirmWait: a file write and one round trip. */
const { confirmWaitMs } = adapterConstants;

interface Response {
  result: unknown;
  error: WireError | undefined;
  confirmation: Confirmation | undefined;
}

type Pending = (r: Response | Error) => void;

/** keep stores an issued capability durably; it throws when it could not. */
export type Keep = (capability: string) => void;

export class Connection {
  private nextID = 0;
  private pending: Map<string, Pending> | undefined = new Map();
  private farewell: ProtocolErrorData | undefined;
  // settled is the confirmation of the capability issued last (none
  // before): calls the host refused while it was outstanding wait for it.
  private settled: Confirmation | undefined;
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
    // Started before the response is delivered, so that a concurrent call
    // the host refused meanwhile knows a confirmation is coming, and
    // whether or not the call that brought the capability still waits.
    let confirmation: Confirmation | undefined;
    if (typeof r.capability === "string" && r.capability !== "") {
      confirmation = this.confirm(r.capability);
      this.settled = confirmation;
    }
    const id = JSON.stringify(r.id ?? null);
    const p = this.pending?.get(id);
    this.pending?.delete(id);
    p?.({ result: r.result, error: r.error, confirmation });
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
      const settled = this.settled;
      if (!(e instanceof ProtocolError) || e.data.code !== CodeCapabilityUnconfirmed || settled === undefined) {
        throw e;
      }
      await race(settled.done, signal, this.done.then(() => new ClosedError(method)));
      if (settled.err !== undefined) {
        // Not confirmed: the host goes on refusing, so sending again is pointless.
        throw e;
      }
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
    if (pending === undefined || this.ended || this.sock.destroyed || !this.sock.writable) {
      // Known closed before anything was written: nothing reached the host.
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
        // farewell is still to be read). Go resends only when no byte went
        // out; node cannot tell how much did, so the request is lost: its
        // outcome is unknown, and a mutation is never sent twice.
        pending.delete(id);
        signal?.removeEventListener("abort", onAbort);
        const wait = new Promise<void>((res) => setTimeout(res, farewellWaitMs).unref());
        void Promise.race([this.done, wait]).then(() => {
          this.close();
          reject(this.farewellErr() ?? new LostError(`send ${method}: ${err.message}`));
        });
      });
    });
  }

  private async answer(method: string, r: Response, signal?: AbortSignal): Promise<unknown> {
    if (r.confirmation !== undefined) {
      // The answer is not returned before its capability is kept and
      // confirmed (line() started that; it goes on if the caller gives up).
      await race(r.confirmation.done, signal, new Promise<never>(() => {}));
      if (r.confirmation.err !== undefined) {
        throw r.confirmation.err;
      }
    }
    if (r.error !== undefined && r.error !== null) {
      if (r.error.data !== undefined && r.error.data !== null) {
        throw new ProtocolError(r.error.data);
      }
      throw new Error(`core rpc: ${method}: error ${r.error.code}: ${r.error.message}`);
    }
    return r.result;
  }

  // confirm stores a newly issued capability with keep, then confirms it,
  // bounded by confirmWait, not by any caller's signal. If keep fails the
  // capability stays unconfirmed: the host admits nothing more here, and
  // the capability it replaces still resumes the task from a new
  // connection. Calls waiting for it are released either way.
  private confirm(capability: string): Confirmation {
    const c: Confirmation = { done: Promise.resolve(), err: undefined };
    c.done = (async () => {
      if (this.keep === undefined) {
        c.err = new Error("core rpc: the host issued a resume capability to a client that cannot keep one");
        return;
      }
      try {
        this.keep(capability);
      } catch (e) {
        c.err = new Error("core rpc: storing the resume capability: " + (e instanceof Error ? e.message : String(e)));
        return;
      }
      try {
        await this.once(MethodCapabilityConfirm, {}, AbortSignal.timeout(confirmWaitMs));
      } catch (e) {
        c.err = new Error("core rpc: confirming the resume capability: " + (e instanceof Error ? e.message : String(e)));
      }
    })();
    return c;
  }

  // lost is the error of a call whose connection ended before its answer.
  private lost(): Error {
    return this.farewellErr() ?? new LostError("connection lost before the answer");
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
