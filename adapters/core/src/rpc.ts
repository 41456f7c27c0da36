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
  /** finished: done has resolved (err is final). */
  finished: boolean;
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

// Pending is the caller waiting for an answer; undefined for a request
// its caller gave up on, whose answer is still due (and may carry a
// capability a refused call waits for).
type Pending = ((r: Response | Error) => void) | undefined;

/** keep stores an issued capability durably; it throws when it could not. */
export type Keep = (capability: string) => void;

export class Connection {
  private nextID = 0;
  private pending: Map<string, Pending> | undefined = new Map();
  private farewell: ProtocolErrorData | undefined;
  // settled is the confirmation of the capability issued last (none
  // before): calls the host refused while it was outstanding wait for it.
  private settled: Confirmation | undefined;
  // waiters are refused calls waiting for the next capability to arrive,
  // or for nothing to be pending any more (then none is coming).
  private waiters: (() => void)[] = [];
  // retired: a capability was not kept or not confirmed; nothing more is
  // sent, and the connection ends once drained (retire).
  private retired = false;
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
        p?.(this.lost());
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

  /** closed: nothing more can be sent here (ended, or retired). */
  get closed(): boolean {
    return this.ended || this.retired;
  }

  close(): void {
    this.sock.destroy();
  }

  /**
   * release is corerpc.Client.Close: it ends the connection, except a
   * retired one, which ends by itself once the answers still due on it
   * came (retire).
   */
  release(): void {
    if (!this.retired) {
      this.close();
    }
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
    const outstanding = this.pending?.has(id) === true;
    const p = this.pending?.get(id);
    this.pending?.delete(id);
    if (confirmation !== undefined || (outstanding && this.pending?.size === 0)) {
      this.wake();
    }
    // The caller has its answer before drain may end a retired connection.
    p?.({ result: r.result, error: r.error, confirmation });
    this.drain();
  }

  private wake(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) {
      f();
    }
  }

  /**
   * call sends one request and answers its result. A failure the host
   * reported throws ProtocolError. A request the host refused because a
   * capability issued on this connection was not confirmed yet (nothing
   * ran) is sent again once it is; if it cannot be (the confirmation
   * failed and the connection is retired, or the connection ended), it
   * throws ClosedError, so that the caller dials again, resumes with the
   * capability it kept and sends it once more (corerpc.Client.Call).
   */
  async call(method: string, params: unknown, signal?: AbortSignal): Promise<unknown> {
    const before = this.settled;
    // A confirmation still under way when the request is sent may be what
    // the host refuses it for.
    const beforeOpen = before !== undefined && !before.finished;
    try {
      return await this.once(method, params, signal);
    } catch (e) {
      if (!(e instanceof ProtocolError) || e.data.code !== CodeCapabilityUnconfirmed) {
        throw e;
      }
      const conf = await this.awaitCapability(method, before, beforeOpen, signal);
      if (conf === undefined) {
        // No capability is outstanding here that this client knows of: the host's refusal stands.
        throw e;
      }
      await race(conf.done, signal, this.done.then(() => refusedThenClosed(method)));
      if (conf.err !== undefined) {
        // Not confirmed: confirm retired the connection, on which the
        // host would go on refusing everything.
        throw refusedThenClosed(method, conf.err);
      }
      return this.once(method, params, signal);
    }
  }

  // awaitCapability finds the confirmation a request refused
  // capability_unconfirmed waits for: one under way when it was sent, or
  // one started since. Failing both, while other requests are outstanding
  // it waits for the capability one of their answers will carry: the host
  // refuses as soon as a parallel request made the task, before that
  // request's answer (carrying the capability) is written. undefined: none
  // can come.
  private async awaitCapability(method: string, before: Confirmation | undefined, beforeOpen: boolean, signal?: AbortSignal): Promise<Confirmation | undefined> {
    for (;;) {
      const latest = this.settled;
      if (latest !== before || beforeOpen) {
        return latest;
      }
      if (this.pending === undefined) {
        throw refusedThenClosed(method);
      }
      if (this.pending.size === 0) {
        return undefined;
      }
      await race(new Promise<void>((res) => this.waiters.push(res)), signal, this.done.then(() => refusedThenClosed(method)));
    }
  }

  // retire stops a connection whose capability was not kept or not
  // confirmed from sending anything more (the host would refuse it: once
  // throws ClosedError, nothing sent), and ends it once the requests still
  // outstanding are answered (a refusal says nothing ran, where a
  // connection cut before it could not), or after confirmWait.
  private retire(): void {
    this.retired = true;
    this.drain();
    setTimeout(() => this.close(), confirmWaitMs).unref();
  }

  // drain ends a retired connection once no caller waits for an answer on
  // it (an abandoned request's answer has no one to hand it to).
  private drain(): void {
    if (!this.retired) {
      return;
    }
    for (const p of this.pending?.values() ?? []) {
      if (p !== undefined) {
        return;
      }
    }
    this.close();
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
    if (pending === undefined || this.ended || this.retired || this.sock.destroyed || !this.sock.writable) {
      // Known closed (or retired) before anything was written: nothing
      // reached the host. Its farewell, if it said one, says why
      // (too_many_connections is its refusal).
      return Promise.reject(this.farewellErr() ?? new ClosedError(`send ${method}`));
    }
    return new Promise<unknown>((resolve, reject) => {
      const onAbort = (): void => {
        if (pending.has(id)) {
          // Its answer is still due, and may carry a capability: kept
          // outstanding (no one to hand it to), so that a call the host
          // refused meanwhile waits for it (awaitCapability).
          pending.set(id, undefined);
        }
        this.drain();
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
        if (pending.size === 0) {
          this.wake();
        }
        this.drain();
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
        // The request ran: never a ClosedError (which would send it
        // again), whatever made the confirmation fail.
        throw new LostError(`${method} was answered with a resume capability that was not kept and confirmed, so its answer is withheld: ${r.confirmation.err.message}`);
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
  // bounded by confirmWait, not by any caller's signal. If either fails the
  // capability stays unconfirmed and the connection is retired (retire):
  // the host would admit nothing more on it, while the capability it
  // replaces (if any), or the new one if it was kept, still resumes the
  // task from a new connection (spec 001: until a replacement is confirmed
  // the old one still resumes). The call whose answer brought it ran: its
  // error is a LostError, never a ClosedError, so it is not sent again.
  // Calls waiting for the confirmation are released either way.
  private confirm(capability: string): Confirmation {
    const c: Confirmation = { done: Promise.resolve(), finished: false, err: undefined };
    c.done = (async () => {
      try {
        if (this.keep === undefined) {
          throw new Error("the host issued a resume capability to a client that cannot keep one");
        }
        try {
          this.keep(capability);
        } catch (e) {
          throw new Error("storing the resume capability: " + (e instanceof Error ? e.message : String(e)));
        }
        try {
          await this.once(MethodCapabilityConfirm, {}, AbortSignal.timeout(confirmWaitMs));
        } catch (e) {
          throw new Error("confirming the resume capability: " + (e instanceof Error ? e.message : String(e)));
        }
      } catch (e) {
        c.err = new Error("core rpc: " + (e instanceof Error ? e.message : String(e)));
        this.retire();
      } finally {
        c.finished = true;
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

// refusedThenClosed is the error of a request the host refused
// capability_unconfirmed (nothing ran) on a connection that then ended, or
// whose capability failed to be kept or confirmed (why): a ClosedError, so
// it is sent again on a new connection.
function refusedThenClosed(method: string, why?: Error): ClosedError {
  const end = why === undefined ? "and the connection ended" : `which failed: ${why.message}`;
  return new ClosedError(`${method} was refused until a resume capability was confirmed, ${end}`);
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
