// The adapter's one Core connection, as internal/mcpserver/core.go and
// ready.go keep it: dialled lazily and again after it drops, hello and
// resume on every new connection, one resend of a request that never went
// out, a wait for a starting host, and the outcome of a lost call.
import { adapterConstants } from "./tools.generated";
import { ClosedError, ProtocolError, failAs, hostUnreachable } from "./errors";
import type { AgentKeys } from "./keys";
import { Connection } from "./rpc";
import {
  CodeExtensionTimeout,
  CodeHostUnavailable,
  LifecycleHandshaking,
  LifecycleReady,
  LifecycleReconciling,
  LifecycleStarting,
  MethodHello,
  MethodResume,
  MethodStatus,
  OutcomeNotStarted,
} from "./protocol";
import type { HelloParams, HelloResult, Outcome, ProtocolErrorData, ResumeResult, StatusResult } from "./protocol";
import type { CapabilityKeeper } from "./capability";

/** Result is a Core answer or the failure a tool result carries. */
export type Result = { ok: true; value: unknown } | { ok: false; error: ProtocolErrorData };

export class Core {
  private conn: Connection | undefined;
  // connecting is the dial under way; await: whether it waits for a lost
  // host (a call's does, a probe's never); signal: the cancellation of the
  // call that started it, which ends it for every call that joined it.
  private connecting: Attempt | undefined;
  // reached: a host answered since the last wait for one to return.
  private reached = false;
  /** developerMode is what the host's last hello said. */
  developerMode = false;

  constructor(
    private readonly endpoint: string,
    private readonly hello: () => HelloParams,
    readonly caps: CapabilityKeeper,
    readonly keys: AgentKeys,
  ) {}

  /**
   * connect is core.connect: one dial at a time; a live connection is
   * reused; a host reached before is waited for (awaitHostReturn).
   */
  connect(signal?: AbortSignal): Promise<Connection | ProtocolErrorData> {
    return this.connectOnce(signal, true);
  }

  /**
   * probe is core.probe (developer_listing.go): connect if it can within
   * developerProbe, only to hear the hello's Developer mode. It never waits
   * for a lost host, nor for a call that is waiting for one, and leaves
   * reached alone: that wait belongs to the agent's next call.
   */
  async probe(): Promise<boolean> {
    if (this.connecting === undefined) {
      await this.connectOnce(AbortSignal.timeout(adapterConstants.developerProbeMs), false);
    }
    return this.developerMode;
  }

  private async connectOnce(signal: AbortSignal | undefined, await_: boolean): Promise<Connection | ProtocolErrorData> {
    for (;;) {
      if (this.conn !== undefined && !this.conn.closed) {
        return this.conn;
      }
      this.conn = undefined;
      const joined = this.connecting;
      if (joined === undefined) {
        let mine: Attempt | undefined;
        const promise = this.dial(signal, await_).finally(() => {
          if (this.connecting === mine) {
            this.connecting = undefined;
          }
        });
        mine = { promise, await: await_, signal };
        this.connecting = mine;
        return promise;
      }
      const c = await joined.promise;
      // A joined dial's failure is this call's own only when it was made
      // as this call's would be: not cut short by another call's
      // cancellation, and waiting for a lost host if this call waits (a
      // probe's never does). Otherwise dial again (or join the next one),
      // under this call's own signal.
      const cutShort = joined.signal !== signal && joined.signal?.aborted === true;
      const waitedAsThisWould = joined.await || !await_;
      if (c instanceof Connection || signal?.aborted === true || (!cutShort && waitedAsThisWould)) {
        return c;
      }
    }
  }

  private async dial(signal: AbortSignal | undefined, await_: boolean): Promise<Connection | ProtocolErrorData> {
    const keep = (cap: string): void => this.caps.keep(cap);
    let c: Connection | undefined;
    try {
      c = await Connection.dial(this.endpoint, keep, signal);
    } catch {
      if (await_ && this.reached) {
        c = await awaitHostReturn(this.endpoint, keep, signal);
        if (c === undefined && signal?.aborted !== true) {
          // The whole wait passed (the user quit Chrome): later calls fail
          // at once until a host is reached again. A call cancelled first
          // leaves the wait to the next one.
          this.reached = false;
        }
      }
    }
    if (c === undefined) {
      return hostUnreachable(OutcomeNotStarted);
    }
    let hello: HelloResult;
    try {
      hello = (await c.call(MethodHello, this.hello(), signal)) as HelloResult;
    } catch (e) {
      c.close();
      // The host's own refusal (too_many_connections) says what to do.
      return e instanceof ProtocolError ? e.data : hostUnreachable(OutcomeNotStarted);
    }
    try {
      await this.resume(c, signal);
    } catch {
      c.close();
      return hostUnreachable(OutcomeNotStarted);
    }
    this.conn = c;
    this.reached = true;
    this.developerMode = hello.developer_mode === true;
    return c;
  }

  // resume takes the task back on a new connection when this adapter holds
  // a capability; one the host no longer honours is dropped (a new task).
  private async resume(c: Connection, signal?: AbortSignal): Promise<void> {
    const capability = this.caps.current();
    if (capability === undefined) {
      return;
    }
    const res = (await c.call(MethodResume, { capability }, signal)) as ResumeResult;
    if (res.resumed !== true) {
      this.taskEnded();
    }
  }

  /** taskEnded drops the capability and the key seed of a task that is over. */
  taskEnded(): void {
    this.caps.forget();
    this.keys.forget();
  }

  /** call is core.call. ifLost is the outcome when the connection drops mid-call. */
  async call(method: string, params: unknown, ifLost: Outcome, signal?: AbortSignal): Promise<Result> {
    let c = await this.connect(signal);
    if (!(c instanceof Connection)) {
      return { ok: false, error: c };
    }
    let res = await attempt(c, method, params, signal);
    if (res instanceof ClosedError) {
      // The connection had ended (the host restarted) before the request
      // went out, so nothing ran: connect again, resuming, and resend once.
      this.forget(c);
      c = await this.connect(signal);
      if (!(c instanceof Connection)) {
        return { ok: false, error: c };
      }
      res = await attempt(c, method, params, signal);
    }
    if (res instanceof ProtocolError && starting(res.data) && (await awaitReady(c, signal))) {
      res = await attempt(c, method, params, signal);
    }
    if (!(res instanceof Error)) {
      return { ok: true, value: res.value };
    }
    if (res instanceof ProtocolError) {
      return { ok: false, error: res.data };
    }
    if (signal?.aborted === true) {
      return { ok: false, error: failAs(CodeExtensionTimeout, ifLost, "the call was cancelled before the host answered") };
    }
    // The connection failed: the next call dials again.
    this.forget(c);
    return { ok: false, error: hostUnreachable(ifLost) };
  }

  private forget(c: Connection): void {
    if (this.conn === c) {
      this.conn = undefined;
    }
    c.release();
  }

  close(): void {
    this.conn?.close();
    this.conn = undefined;
  }
}

interface Attempt {
  promise: Promise<Connection | ProtocolErrorData>;
  await: boolean;
  signal: AbortSignal | undefined;
}

// awaitHostReturn is host_return.go's: a host this adapter was connected
// to went away (Chrome stopped the extension's worker; the watchdog brings
// a new host within about 31 s), so dial until one answers, once per loss,
// bounded by hostReturnWait.
async function awaitHostReturn(endpoint: string, keep: (cap: string) => void, signal?: AbortSignal): Promise<Connection | undefined> {
  const deadline = Date.now() + adapterConstants.hostReturnWaitMs;
  for (;;) {
    try {
      return await Connection.dial(endpoint, keep, signal);
    } catch {
      if (signal?.aborted === true || Date.now() + adapterConstants.hostReturnPollMs > deadline) {
        return undefined;
      }
    }
    await new Promise((res) => setTimeout(res, adapterConstants.hostReturnPollMs));
  }
}

async function attempt(c: Connection, method: string, params: unknown, signal?: AbortSignal): Promise<{ value: unknown } | Error> {
  try {
    return { value: await c.call(method, params, signal) };
  } catch (e) {
    return e instanceof Error ? e : new Error(String(e));
  }
}

// starting says whether a refusal is a host on its way to ready.
function starting(e: ProtocolErrorData): boolean {
  if (e.code !== CodeHostUnavailable || e.outcome !== OutcomeNotStarted) {
    return false;
  }
  return e.lifecycle === LifecycleStarting || e.lifecycle === LifecycleHandshaking || e.lifecycle === LifecycleReconciling;
}

// awaitReady polls status until the host is ready (ready.go), up to
// readyWait; false when it moved elsewhere (paused) or did not make it.
async function awaitReady(c: Connection, signal?: AbortSignal): Promise<boolean> {
  const deadline = Date.now() + adapterConstants.readyWaitMs;
  for (;;) {
    let st: StatusResult;
    try {
      st = (await c.call(MethodStatus, {}, signal)) as StatusResult;
    } catch {
      return false;
    }
    switch (st.lifecycle) {
      case LifecycleReady:
        return true;
      case LifecycleStarting:
      case LifecycleHandshaking:
      case LifecycleReconciling:
        break;
      default:
        return false;
    }
    if (signal?.aborted === true || Date.now() + adapterConstants.readyPollMs > deadline) {
      return false;
    }
    await new Promise((res) => setTimeout(res, adapterConstants.readyPollMs));
  }
}
