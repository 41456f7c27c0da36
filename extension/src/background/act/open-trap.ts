// The window.open trap: for the duration of one gesture, window.open in
// the frame's main world records the popup instead of opening it, and the
// worker opens it as a background tab owned by the task. Source of truth:
// spec 000 ("only the window.open trap that keeps a gesture's popups in
// background task tabs runs in the page's main world, and only for the
// duration of that gesture") and issue 3 (a popup becomes a background tab
// of the same task).
//
// Observed in Chromium 156: a window.open, and a target=_blank link, from a
// click on a background tab open an active tab, so the user's visible tab
// would change. The trap takes over both. It cannot catch a reference to
// window.open the page took before the gesture, nor a form aimed at a new
// tab; those open as Chrome decides and children.ts still takes them into
// the task when Chrome lets it.
import type { ChromeApi } from "../../chrome/api";
import { OutcomeNotStarted } from "../../protocol/generated";
import { bounded, pageBusy, SCRIPT_CALL_MS } from "../bounded";
import type { Clock } from "../clock";
import type { FrameEntry } from "../cdp/frames";
import { fieldsOf, numField, optStr } from "../cdp/read";
import { errorText } from "../log";
import type { Page } from "../pagework/page-tab";

/** At most this many popups of one gesture are opened; more are refused. */
export const MAX_POPUPS = 4;

/**
 * If the worker never collects (the gesture ended in a dialog, the worker
 * stopped), the trap removes itself after this long.
 */
const TRAP_LIFETIME_MS = 15_000;

/** A popup the page asked for; url is absolute, or as the page gave it when it does not parse. */
export interface OpenRequest {
  url: string;
}

/**
 * Runs in the page's main world (serialized with toString: it must stay
 * self-contained, no imports or outer names). It makes a controller that
 * stays with the worker and arms the trap for one gesture at a time. On
 * the debugger route (no key) the controller is returned unarmed as a
 * remote object the page cannot reach; the worker keeps it for the
 * document and arms it before each gesture (one round trip instead of
 * four). On the scripting route (key given), where results cross only as
 * JSON, it is armed at once and waits under a random non-enumerable name
 * on the window until collected. A page that finds that name gains
 * nothing: it could only add requests, as calling window.open during the
 * gesture does anyway. The page itself only sees the trap function and
 * the stand-ins it returns, and only while armed. A stand-in takes the
 * location the page gives it during the gesture (the common
 * `w = open(); w.location = url` pattern).
 */
export function installOpenTrap(lifetime: number, key?: string): unknown {
  const doc = document;
  const w = window;
  // The browser's own window.open, taken at each arming. A page may have
  // put its own function there (a global `function open() {}` does): that
  // one is the page's, not a popup, and is left alone (a corpus page's
  // inbox called its row handler open(); the trap took the calls).
  let original: typeof window.open = w.open;
  const browsers = (f: unknown): f is typeof window.open => typeof f === "function" && /\{\s*\[native code\]\s*\}\s*$/.test(Function.prototype.toString.call(f));
  let until = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  type Request = { url: string; closed: boolean };
  let requests: Request[] = [];
  const abs = (u: unknown): string => {
    try {
      return new URL(String(u), doc.baseURI).href;
    } catch {
      return String(u);
    }
  };
  const sameTab = (target: unknown): boolean => {
    const t = String(target || "").toLowerCase();
    return t === "" || t === "_self" || t === "_parent" || t === "_top";
  };
  const standIn = (r: Request): object => {
    const loc = {
      get href() {
        return r.url;
      },
      set href(u: string) {
        r.url = abs(u);
      },
      assign(u: string) {
        r.url = abs(u);
      },
      replace(u: string) {
        r.url = abs(u);
      },
      toString() {
        return r.url;
      },
    };
    return {
      get location(): object {
        return loc;
      },
      set location(u: unknown) {
        r.url = abs(u);
      },
      get closed() {
        return r.closed;
      },
      close() {
        r.closed = true;
      },
      focus() {},
      blur() {},
      postMessage() {},
      opener: null,
    };
  };
  // A link that opens a new tab (target=_blank or a named target): its
  // default action is taken over once the page's own handlers have run
  // (this listener is on the window, in the bubbling phase), so a page
  // that prevents it keeps that choice.
  const onClick = (e: MouseEvent): void => {
    if (e.defaultPrevented || Date.now() > until || e.button !== 0) return;
    const a = e.composedPath().find((n): n is HTMLAnchorElement | HTMLAreaElement => n instanceof HTMLAnchorElement || n instanceof HTMLAreaElement);
    if (a === undefined || !a.hasAttribute("href") || sameTab(a.target) || a.hasAttribute("download")) return;
    e.preventDefault();
    requests.push({ url: a.href, closed: false });
  };
  const restore = (): void => {
    if (w.open === trap) w.open = original;
    w.removeEventListener("click", onClick);
  };
  // A method, so that the page sees a function named "open" (a bundler may rename a named function expression).
  const trap = {
    open(this: unknown, url?: string | URL, target?: string, features?: string): unknown {
      if (Date.now() > until) {
        restore();
        return Reflect.apply(original, this, [url, target, features]);
      }
      if (target !== undefined && target !== "" && sameTab(target)) return Reflect.apply(original, this, [url, target, features]);
      const r = { url: url === undefined || url === "" ? "about:blank" : abs(url), closed: false };
      requests.push(r);
      return standIn(r);
    },
  }.open as typeof window.open;
  const controller = {
    /** Sets the trap for one gesture; gone after ms even if nobody collects it (the worker stopped, a dialog held the page). */
    arm(ms: number): boolean {
      requests = [];
      until = Date.now() + ms;
      if (w.open !== trap && browsers(w.open)) {
        original = w.open;
        w.open = trap;
      }
      w.removeEventListener("click", onClick);
      w.addEventListener("click", onClick);
      // An earlier gesture's timer must not disarm this one.
      if (timer !== undefined) clearTimeout(timer);
      timer = setTimeout(() => {
        restore();
        if (typeof key === "string") Reflect.deleteProperty(w, key);
      }, ms);
      return true;
    },
    collect(): { url: string }[] {
      restore();
      until = 0;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      const answer = requests.filter((r) => !r.closed).map((r) => ({ url: r.url }));
      requests = [];
      return answer;
    },
  };
  // The debugger route passes no key (CDP turns a null argument into undefined).
  if (typeof key !== "string") return controller;
  controller.arm(lifetime);
  Object.defineProperty(w, key, { value: controller, configurable: true, enumerable: false });
  return true;
}

/** The scripting route's collect, in the main world: removes the trap and its name, answers the requests. */
export function collectOpenTrap(key: string): unknown {
  const controller: unknown = Reflect.get(window, key);
  Reflect.deleteProperty(window, key);
  const collect: unknown = typeof controller === "object" && controller !== null ? Reflect.get(controller, "collect") : undefined;
  return typeof collect === "function" ? Reflect.apply(collect, controller, []) : [];
}

const ARM = `function (ms) { return this.arm(ms); }`;
const COLLECT = `function () { return this.collect(); }`;

/** An installed trap; collect removes it and answers what the page asked to open. */
export interface Trap {
  collect(): Promise<OpenRequest[]>;
}

/** Each tab's trap controllers (remote object ids), one per frame, for the document they were made in. */
const controllers = new WeakMap<Page["tab"], Map<string, { loaderId: string; objectId: string }>>();

/**
 * Arms the trap in the main world of frame's document for one gesture.
 * The controller is made once per document (installController) and kept;
 * a controller that no longer answers (its document or the debugger
 * session went away, observed in Chromium 156 as "Could not find object
 * with given id") is made again once.
 */
export async function installTrap(page: Page, frame: FrameEntry): Promise<Trap> {
  const sessionId = frame.sessionId;
  const send = (method: string, params: object) => page.session.send(method, params, { sessionId });
  let byFrame = controllers.get(page.tab);
  if (byFrame === undefined) {
    byFrame = new Map();
    controllers.set(page.tab, byFrame);
  }
  const key = `${sessionId ?? ""}|${frame.doc.frameId}`;
  const arm = (objectId: string) => send("Runtime.callFunctionOn", { functionDeclaration: ARM, objectId, arguments: [{ value: TRAP_LIFETIME_MS }], returnByValue: true });
  const kept = byFrame.get(key);
  let controller: string | undefined;
  if (kept !== undefined && kept.loaderId === frame.doc.loaderId) {
    const armed = await arm(kept.objectId).then(
      (r) => r["exceptionDetails"] === undefined,
      () => false,
    );
    if (armed) controller = kept.objectId;
  }
  if (controller === undefined) {
    byFrame.delete(key);
    controller = await installController(page, frame);
    byFrame.set(key, { loaderId: frame.doc.loaderId, objectId: controller });
    if ((await arm(controller))["exceptionDetails"] !== undefined) throw new Error("the window.open trap did not arm");
  }
  const objectId = controller;
  return {
    async collect() {
      const r = await send("Runtime.callFunctionOn", { functionDeclaration: COLLECT, objectId, returnByValue: true });
      const value = fieldsOf(r["result"], "the trap's requests")["value"];
      return requestsIn(value);
    },
  };
}

/**
 * Makes the trap's controller in the main world of frame's document: the
 * document is read in AgentTab's world, found again by its backend node,
 * and resolved in the page's main world (DOM.resolveNode without a
 * context resolves there).
 */
async function installController(page: Page, frame: FrameEntry): Promise<string> {
  const sessionId = frame.sessionId;
  const send = (method: string, params: object) => page.session.send(method, params, { sessionId });
  const contextId = await page.tab.worlds.context(page.session, frame);
  const isolated = fieldsOf((await send("Runtime.evaluate", { expression: "document", contextId }))["result"], "document");
  const isolatedId = optStr(isolated, "objectId");
  const node = fieldsOf((await send("DOM.describeNode", { objectId: isolatedId }))["node"], "DOM.describeNode.node");
  send("Runtime.releaseObject", { objectId: isolatedId }).catch(() => undefined);
  const main = fieldsOf((await send("DOM.resolveNode", { backendNodeId: numField(node, "backendNodeId", "node") }))["object"], "DOM.resolveNode.object");
  const mainId = optStr(main, "objectId");
  const installed = await send("Runtime.callFunctionOn", { functionDeclaration: installOpenTrap.toString(), objectId: mainId, arguments: [{ value: TRAP_LIFETIME_MS }] });
  send("Runtime.releaseObject", { objectId: mainId }).catch(() => undefined);
  const controller = optStr(fieldsOf(installed["result"], "the trap"), "objectId");
  if (controller === undefined) throw new Error("the window.open trap did not install");
  return controller;
}

/**
 * Installs the trap in the main world of the tab's top document through
 * chrome.scripting (the scripting route, where Chrome refuses the
 * debugger).
 */
export async function installScriptedTrap(api: ChromeApi, clock: Clock, tabId: number): Promise<Trap> {
  const key = `__agenttab_trap_${crypto.randomUUID().replaceAll("-", "")}`;
  // Both calls are bounded: a dialog the gesture opened holds the page, and
  // an unanswered collect would hold the step (and the task's order) until
  // a human answers it. The trap then removes itself after its lifetime.
  const run = (what: string, f: () => Promise<unknown>) => bounded(clock, SCRIPT_CALL_MS, () => pageBusy(what, OutcomeNotStarted), f);
  await run("the window.open trap's installation", () => api.scripting.runMain(tabId, installOpenTrap, [TRAP_LIFETIME_MS, key]));
  return { collect: async () => requestsIn(await run("the window.open trap's collection", () => api.scripting.runMain(tabId, collectOpenTrap, [key]))) };
}

function requestsIn(value: unknown): OpenRequest[] {
  return Array.isArray(value) ? value.filter(isRequest) : [];
}

function isRequest(v: unknown): v is OpenRequest {
  return typeof v === "object" && v !== null && typeof (v as { url?: unknown }).url === "string";
}

/** Why a trap could not be installed or read, for the worker's log. */
export function trapError(e: unknown): string {
  return `window.open trap: ${errorText(e)}`;
}
