// The native port to the host (protocol/native.go): connect, handshake,
// answer requests, send events, ask the host (its one extension→host
// request, protocol/localfiles.go), reconnect with backoff.
//
// Observed (notes/chromium.md): an open native port keeps the MV3 worker
// alive, and the port disconnects when the host exits. Without a port the
// worker is stopped after ~30 s idle and its timers die with it. Chrome can
// also stop a worker whose port is open (an update, DevTools, its own
// limits): the port closes, so the host exits (stdin EOF), and no disconnect
// handler runs in the worker that is gone. Observed in Chromium 156
// (e2e/sw_suspend_test.go): ServiceWorker.stopAllWorkers stops AgentTab's
// worker with its port open, its target goes, the host sees stdin EOF and
// exits, and the stopped worker runs no code, so only an event brings it
// back. So a watchdog alarm is kept armed for as long as the worker lives,
// connected or not: it wakes a stopped worker, whose first turn connects
// (main.ts), and Chrome starts a host for the new port (measured there:
// the next agent call answered 29.6–29.9 s after the stop). Alarms fire no
// sooner than 30 s after they are set on Chrome 120+, which bounds the wake;
// the adapter waits that long for a host that went away
// (internal/mcpserver/host_return.go).
import {
  ClassGlobal,
  ClassMutation,
  ClassRead,
  NativeHostName,
  NativeTypeEvent,
  NativeTypeHello,
  NativeTypeReject,
  NativeTypeRequest,
  NativeTypeResponse,
  NativeTypeWelcome,
  Version,
  decodeNativeWelcome,
  RecoveryUpdate,
} from "../../protocol/generated";
import type { NativeEvent, NativeHello, NativeRequest, NativeResponse, NativeWelcome } from "../../protocol/generated";
import type { ChromeApi, Port } from "../../chrome/api";
import type { HostState } from "../../shared/status";
import { Backoff } from "./backoff";
import type { Clock } from "../clock";
import { isFields } from "../fields";
import type { Log } from "../log";
import { errorText } from "../log";

/** The watchdog: one-shot, armed again at every firing and every new port. */
export const WATCHDOG_ALARM = "agenttab.watchdog";
const WATCHDOG_MINUTES = 0.5;

type RequestHandler = (request: NativeRequest) => Promise<NativeResponse>;

/** What the hello says of the user's switches, read when it is sent. */
export type HelloState = Pick<NativeHello, "paused" | "pause_reason" | "yolo">;

/** The host's answer to ask: its result, or its protocol error's fields. */
export type HostAnswer = { result: unknown } | { error: Record<string, unknown> };

/** A question to the host that is still waiting for its answer. */
interface Asked {
  answer: (a: HostAnswer) => void;
  fail: (why: string) => void;
}

export class HostConnection {
  private port: Port | undefined;
  private welcomed = false;
  private current: HostState = { state: "connecting" };
  private readonly backoff = new Backoff();
  private cancelRetry: (() => void) | undefined;
  /** Questions to the host by id; ids count apart from the host's. */
  private readonly asked = new Map<number, Asked>();
  private nextAsk = 0;

  constructor(
    private readonly chrome: ChromeApi,
    private readonly handle: RequestHandler,
    private readonly clock: Clock,
    private readonly log: Log,
    /**
     * The persisted Pause (and who paused) and the YOLO switch, sent with
     * the hello (read before connect is first called): a host that was
     * away pauses, and discards its stages, as the user asked meanwhile.
     */
    private readonly hello: () => HelloState = () => ({ paused: false, yolo: true }),
    /** Takes what the welcome carries besides the version (the origin policy); a throw refuses the connection. */
    private readonly onWelcome: (welcome: NativeWelcome) => void = () => undefined,
  ) {
    this.chrome.alarms.onAlarm((name) => {
      if (name !== WATCHDOG_ALARM) return;
      this.armWatchdog();
      this.connect();
    });
  }

  get state(): HostState {
    return this.current;
  }

  /** Opens the port unless one is open; safe to call at any time. */
  connect(): void {
    if (this.port !== undefined) return;
    this.cancelRetry?.();
    this.cancelRetry = undefined;
    this.armWatchdog();
    const port = this.chrome.nativePort(NativeHostName);
    this.port = port;
    this.welcomed = false;
    this.current = { state: "connecting" };
    port.onMessage((m) => this.receive(port, m));
    port.onDisconnect((error) => this.disconnected(port, error));
    const hello: NativeHello = {
      type: NativeTypeHello,
      protocol_version: Version,
      extension_id: this.chrome.runtime.id,
      extension_version: this.chrome.runtime.version,
      ...this.hello(),
    };
    this.post(port, hello);
  }

  /** Sends an event to a welcomed host. Without one it is dropped: the host reconciles when it comes back. */
  notify(event: string, params: unknown): void {
    if (this.port === undefined || !this.welcomed) return;
    const message: NativeEvent = { type: NativeTypeEvent, event, params };
    this.post(this.port, message);
  }

  /**
   * Asks the welcomed host: resolves with its answer, and rejects when
   * there is no host to ask, when the question cannot be sent, when the
   * port closes first, or after timeoutMs (the caller decides what no
   * answer means).
   */
  ask(method: string, params: unknown, timeoutMs: number): Promise<HostAnswer> {
    const port = this.port;
    if (port === undefined || !this.welcomed) return Promise.reject(new Error("AgentTab is not connected to its host"));
    const id = ++this.nextAsk;
    return new Promise<HostAnswer>((resolve, reject) => {
      const stop = this.clock.after(timeoutMs, () => settle(() => reject(new Error(`the host did not answer within ${timeoutMs} ms`))));
      const settle = (f: () => void): void => {
        if (!this.asked.delete(id)) return;
        stop();
        f();
      };
      const fail = (why: string): void => settle(() => reject(new Error(why)));
      this.asked.set(id, { answer: (a) => settle(() => resolve(a)), fail });
      const request: NativeRequest = { type: NativeTypeRequest, id, method, params };
      // A question that never left cannot be answered: it fails now, not
      // after timeoutMs (a paused file: request would wait all that time).
      const failure = this.post(port, request);
      if (failure !== undefined) fail(`the question could not be sent to the host: ${failure}`);
    });
  }

  private receive(port: Port, m: unknown): void {
    if (port !== this.port || !isFields(m)) return;
    switch (m["type"]) {
      case NativeTypeWelcome:
        return this.welcome(port, m);
      case NativeTypeReject:
        return this.rejected(m["error"]);
      case NativeTypeRequest:
        return this.request(port, m);
      case NativeTypeResponse:
        return this.answered(m);
      default:
        this.log.warn(`ignored a host message of type ${JSON.stringify(m["type"])}`);
    }
  }

  private welcome(port: Port, m: Record<string, unknown>): void {
    if (m["protocol_version"] !== Version) {
      // The host checks the version too; this side refuses rather than guess.
      this.log.warn(`host speaks protocol ${JSON.stringify(m["protocol_version"])}, extension speaks ${Version}`);
      return this.refuse(port, "protocol_version_mismatch", `the host speaks protocol ${JSON.stringify(m["protocol_version"])}; this extension speaks ${Version}`);
    }
    let welcome: NativeWelcome;
    try {
      welcome = decodeNativeWelcome(m, "welcome");
      this.onWelcome(welcome);
    } catch (e) {
      this.log.warn(`the host's welcome cannot be read: ${errorText(e)}`);
      return this.refuse(port, "invalid_request", `the host's welcome cannot be read: ${errorText(e)}`);
    }
    this.welcomed = true;
    this.backoff.reset();
    this.current = { state: "connected", hostVersion: welcome.host_version };
    this.log.info(`connected to host ${this.current.hostVersion}`);
  }

  private refuse(port: Port, code: string, message: string): void {
    this.current = { state: "rejected", code, message, recovery: RecoveryUpdate };
    port.disconnect();
    this.disconnected(port, undefined);
  }

  // The host exits after a reject, so the port disconnects next and the
  // usual backoff applies; the reason stays visible in the popup.
  private rejected(error: unknown): void {
    const f = isFields(error) ? error : {};
    const text = (k: string) => (typeof f[k] === "string" ? f[k] : "");
    this.current = { state: "rejected", code: text("code"), message: text("message"), recovery: text("recovery") };
    this.log.warn(`host rejected the handshake: ${text("code")}: ${text("message")}`);
  }

  private request(port: Port, m: Record<string, unknown>): void {
    const id = m["id"];
    if (!this.welcomed || typeof id !== "number" || typeof m["method"] !== "string") {
      this.log.warn("ignored a request before the welcome or without an id and method");
      return;
    }
    const request: NativeRequest = { type: NativeTypeRequest, id, method: m["method"], params: m["params"] };
    // A request without a known class keeps none: the dispatcher refuses
    // it as a mismatch rather than guess.
    const cls = m["class"];
    if (cls === ClassRead || cls === ClassMutation || cls === ClassGlobal) request.class = cls;
    void this.handle(request).then((response) => {
      // A response for a host that has since gone would reach the next
      // host, which never asked.
      if (port === this.port) this.post(port, response);
    });
  }

  /** The host's answer to one of ask's questions. */
  private answered(m: Record<string, unknown>): void {
    const asked = typeof m["id"] === "number" ? this.asked.get(m["id"]) : undefined;
    if (asked === undefined) return this.log.warn("ignored a host response nothing asked for");
    const error = m["error"];
    asked.answer(isFields(error) ? { error } : { result: m["result"] });
  }

  private disconnected(port: Port, error: string | undefined): void {
    if (port !== this.port) return;
    this.port = undefined;
    this.welcomed = false;
    for (const a of [...this.asked.values()]) a.fail("the host disconnected before it answered");
    const delay = this.backoff.delay();
    if (this.current.state !== "rejected") {
      this.current = { state: "reconnecting", reason: error ?? "the host closed the connection", retryInMs: delay };
    }
    this.log.info(`native port closed (${error ?? "no error"}); retrying in ${delay} ms`);
    // The timer dies with a stopped worker; the watchdog, armed by connect,
    // wakes it.
    this.cancelRetry = this.clock.after(delay, () => this.connect());
  }

  private armWatchdog(): void {
    void this.chrome.alarms.create(WATCHDOG_ALARM, WATCHDOG_MINUTES).catch((e: unknown) => this.log.warn(`alarms.create: ${errorText(e)}`));
  }

  // Chrome throws when posting to a port that has just disconnected; the
  // disconnect handler then does the rest. Answers why the message was not
  // sent, or undefined when it was.
  private post(port: Port, message: unknown): string | undefined {
    try {
      port.postMessage(message);
      return undefined;
    } catch (e) {
      this.log.warn(`postMessage failed: ${errorText(e)}`);
      return errorText(e);
    }
  }
}
