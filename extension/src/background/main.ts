// The service worker's entry point. Everything is wired synchronously, so
// that the Chrome events which woke a stopped worker reach their listeners
// (MV3 delivers them only to listeners added during the first turn).
import pageAgent from "virtual:page-agent";
import { realChrome } from "../chrome/real";
import { realClock } from "./clock";
import type { Context } from "./context";
import { dispatcher } from "./native/dispatch";
import { FocusGuard } from "./tabs/focus-guard";
import { HostConnection } from "./native/host-connection";
import { askHost } from "./origins/local-files";
import { watchAutomation } from "./popup/automation";
import { consoleLog, errorText } from "./log";
import { OriginGuard } from "./origins/origin-guard";
import { Ownership } from "./tabs/ownership";
import { Pages } from "./pagework/page-tab";
import { servePopup } from "./popup/status";
import { Adoptions } from "./tabs/adoptions";
import { PauseState } from "./pause/pause-state";
import { Children, watchChildren } from "./tabs/children";
import { watchOwnership } from "./tabs/watch-ownership";
import { watchRevisions } from "./tabs/watch-revisions";

const api = realChrome();
const ownership = new Ownership(api.storageSession, consoleLog, api.storageLocal);
// A browser start (not an extension reload) makes the mirrored ownership
// record untrustworthy; the listener is added in the first turn, as MV3
// requires, and waits for the record to be read.
api.runtime.onStartup(() => void ready.then(() => ownership.browserStarted()));
const pause = new PauseState(api.storageLocal, consoleLog);
// The Pause is read before the hello, so a restarted browser is paused
// before the host reconciles anything (spec 001).
const ready = Promise.all([ownership.load(), pause.load()]).then(() => undefined);
// Constructed now: they add the chrome.debugger and webNavigation
// listeners, which MV3 delivers only to listeners added during the
// worker's first turn.
const pages = new Pages(api, realClock, consoleLog, ownership, pageAgent);
// The guard asks the host about local files through the connection made
// below (called only once a host has welcomed it).
const origins = new OriginGuard(api, pages.debuggers, ownership, consoleLog, askHost((method, params, ms) => connection.ask(method, params, ms)));
// Its listeners are added now, in the first turn, like every other.
const focus = new FocusGuard(api, ownership, realClock, consoleLog);
const ctx: Context = {
  chrome: api,
  ownership,
  pages,
  children: new Children(consoleLog, focus),
  origins,
  pause,
  adoptions: new Adoptions(api.action, realClock, consoleLog),
  notify: (event, params) => connection.notify(event, params),
  clock: realClock,
  log: consoleLog,
};
const connection = new HostConnection(api, dispatcher(ctx, ready), realClock, consoleLog, () => pause.paused, (welcome) => origins.welcomed(welcome));
watchOwnership(ctx, ready);
watchRevisions(ctx, ready);
watchChildren(ctx, ready);
watchAutomation(ctx);
servePopup(ctx, ready, () => connection.state);
void ready.then(() => connection.connect());
void focus.load().catch((e: unknown) => consoleLog.warn(`reading the user's view: ${errorText(e)}`));
