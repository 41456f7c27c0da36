// The service worker's entry point. Everything is wired synchronously, so
// that the Chrome events which woke a stopped worker reach their listeners
// (MV3 delivers them only to listeners added during the first turn).
import pageAgent from "virtual:page-agent";
import { PauseByDebuggerCancel } from "../protocol/generated";
import { realChrome } from "../chrome/real";
import { Challenges } from "./challenges/challenges";
import { realClock } from "./clock";
import type { Context } from "./context";
import { dispatcher } from "./native/dispatch";
import { FocusGuard } from "./tabs/focus-guard";
import { HostConnection } from "./native/host-connection";
import type { HelloState } from "./native/host-connection";
import { askHost } from "./origins/local-files";
import { watchAutomation } from "./popup/automation";
import { Badge } from "./popup/badge";
import { consoleLog, errorText } from "./log";
import { Notices } from "./notices/notices";
import { watchNotices } from "./notices/watch-notices";
import { OriginGuard } from "./origins/origin-guard";
import { Ownership } from "./tabs/ownership";
import { Pages } from "./pagework/page-tab";
import { servePopup } from "./popup/status";
import { Adoptions } from "./tabs/adoptions";
import { watchDebuggerCancel } from "./pause/debugger-cancel";
import { pauseRefusal } from "./pause/pause";
import { PauseState } from "./pause/pause-state";
import { Reviews } from "./review/reviews";
import { Scheduler } from "./native/scheduler";
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
// The one writer of the toolbar badge: adoptions, notices and stages feed it.
const badge = new Badge(api.action, consoleLog);
const reviews = new Reviews(api.storageLocal, realClock, consoleLog, (n) => badge.count("stages", n));
const notices = new Notices(api.storageLocal, realClock, consoleLog, (taskId, tabId) => ownership.owner(tabId)?.taskId === taskId, (n) => badge.count("notices", n));
// The Pause and the YOLO switch are read before the hello, so a restarted
// browser is paused (and discards stages) before the host reconciles
// anything (spec 001). Notices are read once ownership is: they live as
// long as their task owns their tab.
const ready = Promise.all([ownership.load(), pause.load(), reviews.load()]).then(() => notices.load());
// Constructed now: they add the chrome.debugger and webNavigation
// listeners, which MV3 delivers only to listeners added during the
// worker's first turn.
const pages = new Pages(api, realClock, consoleLog, ownership, pageAgent);
// After the debugging banner's Cancel nothing attaches until Resume.
pages.debuggers.refuseAttachWhile(() => (pause.reason === PauseByDebuggerCancel ? pauseRefusal(pause.reason) : undefined));
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
  adoptions: new Adoptions(badge, realClock),
  notices,
  reviews,
  challenges: new Challenges(realClock),
  notify: (event, params) => connection.notify(event, params),
  clock: realClock,
  log: consoleLog,
};
const scheduler = new Scheduler();
const hello = (): HelloState => {
  const reason = pause.reason;
  return reason === undefined ? { paused: pause.paused, yolo: reviews.yolo } : { paused: pause.paused, pause_reason: reason, yolo: reviews.yolo };
};
const connection = new HostConnection(api, dispatcher(ctx, ready, scheduler), realClock, consoleLog, hello, (welcome) => origins.welcomed(welcome));
watchOwnership(ctx, ready);
watchRevisions(ctx, ready);
watchChildren(ctx, ready);
watchNotices(ctx, ready);
watchDebuggerCancel(ctx, ready);
watchAutomation(ctx);
servePopup(ctx, ready, {
  host: { state: () => connection.state, ask: (method, params, ms) => connection.ask(method, params, ms) },
  scheduler,
  focus,
});
void ready.then(() => connection.connect());
void focus.load().catch((e: unknown) => consoleLog.warn(`reading the user's view: ${errorText(e)}`));
