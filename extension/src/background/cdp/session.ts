// One tab's chrome.debugger attachment: commands with a deadline, events,
// the out-of-process iframes attached as flat child sessions, and the
// JavaScript dialog the page may be showing.
//
// Observed in Chromium 156 (checked with a test page): while alert(),
// confirm() or prompt() is open, the renderer answers nothing: the
// Input.dispatchMouseEvent that opened it, Runtime.evaluate and even
// Page.getFrameTree stay pending until the dialog is answered. So every
// pending command is cut short when Page.javascriptDialogOpening arrives,
// and page commands are refused while a dialog is open.
import { NetworkTracker } from "./network";
import type { ChromeApi } from "../../chrome/api";
import type { DialogInfo } from "../../protocol/generated";
import type { Clock } from "../clock";
import type { Log } from "../log";
import { errorText } from "../log";
import type { Fields } from "./read";
import { fieldsOf, optStr, strField } from "./read";

/** How long a command may take unless the caller says otherwise. */
export const COMMAND_MS = 10_000;

/** A command that got no answer in time: Chrome may still carry it out. */
export class CommandTimeout extends Error {
  constructor(readonly method: string, ms: number) {
    super(`${method} got no answer within ${ms} ms`);
    this.name = "CommandTimeout";
  }
}

/** A JavaScript dialog opened while the command waited, or was already open. */
export class DialogOpened extends Error {
  constructor(readonly dialog: DialogInfo) {
    super(`a JavaScript ${dialog.type} dialog is open`);
    this.name = "DialogOpened";
  }
}

/**
 * Chrome's words, in a command's rejection (never page content), for a
 * command that lost its attachment, and for Chrome taking back access to
 * what the tab now shows. Observed in Chromium 156: when another
 * extension's frame loads into the page after AgentTab attached, commands
 * fail with one or the other.
 */
const DETACHED = /Detached while handling command|Debugger is not attached/;
const REFUSED_MIDWAY = /Cannot access a (chrome|chrome-extension|chrome-untrusted|devtools):\/\/ URL/;

/** The debugger let go of the tab (it closed, the user cancelled, AgentTab released it, Chrome took it back). */
export class DebuggerDetached extends Error {
  constructor(readonly reason: string) {
    super(`the debugger was detached from the tab (${reason})`);
    this.name = "DebuggerDetached";
  }
}

/** An out-of-process iframe's flat session (Target.setAutoAttach with flatten). */
export interface ChildSession {
  sessionId: string;
  /** For an iframe target, its id is the frame's id. */
  frameId: string;
  /** The session that attached it (undefined: the tab's own), which holds the parent frame. */
  parentSessionId: string | undefined;
  parentFrameId: string;
}

export interface OpenDialog {
  info: DialogInfo;
  /** The session whose frame opened it: Page.handleJavaScriptDialog goes there. */
  sessionId: string | undefined;
}

export interface SendOptions {
  sessionId?: string | undefined;
  timeoutMs?: number;
  /** Browser-side commands that still work while a dialog blocks the page. */
  duringDialog?: boolean;
}

type EventListener = (sessionId: string | undefined, params: Fields) => void;

export class TabSession {
  dialog: OpenDialog | undefined;
  readonly children = new Map<string, ChildSession>();
  /** The tab's requests in flight since the attach (network.ts). */
  readonly network: NetworkTracker;
  private readonly listeners = new Map<string, Set<EventListener>>();
  private readonly interrupts = new Set<(e: Error) => void>();
  private gone: DebuggerDetached | undefined;

  constructor(
    private readonly api: ChromeApi,
    private readonly clock: Clock,
    readonly tabId: number,
    private readonly log: Log,
    /** Told when Chrome takes the debugger back from this tab (REFUSED_MIDWAY): a refusal like an attach's. */
    private readonly refusedMidway: (e: Error) => void = () => undefined,
  ) {
    this.network = new NetworkTracker(clock);
  }

  get detached(): boolean {
    return this.gone !== undefined;
  }

  /**
   * Sends a command and resolves with its result object. Rejects with
   * CommandTimeout, DialogOpened, DebuggerDetached or Chrome's error.
   */
  send(method: string, params: object = {}, opts: SendOptions = {}): Promise<Fields> {
    if (this.gone !== undefined) return Promise.reject(this.gone);
    if (this.dialog !== undefined && opts.duringDialog !== true) return Promise.reject(new DialogOpened(this.dialog.info));
    const ms = opts.timeoutMs ?? COMMAND_MS;
    return new Promise<Fields>((resolve, reject) => {
      let cancelTimer = (): void => undefined;
      const finish = (): void => {
        cancelTimer();
        this.interrupts.delete(interrupt);
      };
      const interrupt = (e: Error): void => {
        if (e instanceof DialogOpened && opts.duringDialog === true) return;
        finish();
        reject(e);
      };
      this.interrupts.add(interrupt);
      cancelTimer = this.clock.after(ms, () => interrupt(new CommandTimeout(method, ms)));
      this.api.debugger.send({ tabId: this.tabId, sessionId: opts.sessionId }, method, params).then(
        (result) => {
          finish();
          resolve(fieldsOf(result, `a result for ${method}`));
        },
        (e: unknown) => {
          finish();
          const error = e instanceof Error ? e : new Error(errorText(e));
          if (REFUSED_MIDWAY.test(error.message)) {
            this.refusedMidway(error);
            reject(new DebuggerDetached(error.message));
          } else if (DETACHED.test(error.message)) {
            reject(new DebuggerDetached(error.message));
          } else {
            reject(error);
          }
        },
      );
    });
  }

  /** Listens to one event of this tab, from any of its sessions. */
  on(method: string, listener: EventListener): () => void {
    let set = this.listeners.get(method);
    if (set === undefined) {
      set = new Set();
      this.listeners.set(method, set);
    }
    set.add(listener);
    return () => set.delete(listener);
  }

  /** Delivers one event of this tab (Debuggers routes chrome.debugger.onEvent here). */
  handle(sessionId: string | undefined, method: string, params: unknown): void {
    const p = fieldsOf(params, `${method} params`);
    try {
      this.track(sessionId, method, p);
    } catch (e) {
      this.log.warn(`debugger event ${method}: ${errorText(e)}`);
    }
    for (const l of [...(this.listeners.get(method) ?? [])]) l(sessionId, p);
  }

  /** The attachment is over: every pending and later command fails. */
  end(reason: string): void {
    if (this.gone !== undefined) return;
    this.gone = new DebuggerDetached(reason);
    for (const i of [...this.interrupts]) i(this.gone);
  }

  private track(sessionId: string | undefined, method: string, p: Fields): void {
    switch (method) {
      case "Page.javascriptDialogOpening": {
        const info: DialogInfo = { type: strField(p, "type", method), message: strField(p, "message", method) };
        const prompt = optStr(p, "defaultPrompt");
        if (info.type === "prompt" && prompt !== undefined) info.default_prompt = prompt;
        this.dialog = { info, sessionId };
        for (const i of [...this.interrupts]) i(new DialogOpened(info));
        return;
      }
      case "Page.javascriptDialogClosed":
        this.dialog = undefined;
        return;
      case "Target.attachedToTarget": {
        const info = fieldsOf(p["targetInfo"], `${method}.targetInfo`);
        if (strField(info, "type", "targetInfo") !== "iframe") return;
        const child: ChildSession = {
          sessionId: strField(p, "sessionId", method),
          frameId: strField(info, "targetId", "targetInfo"),
          parentSessionId: sessionId,
          parentFrameId: optStr(info, "parentFrameId") ?? "",
        };
        this.children.set(child.sessionId, child);
        return;
      }
      case "Target.detachedFromTarget": {
        const gone = optStr(p, "sessionId");
        if (gone !== undefined) this.children.delete(gone);
        return;
      }
    }
  }
}
