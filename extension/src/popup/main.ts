// The popup: the host connection, the Pause, YOLO mode, the actions
// waiting for Commit review, the agents' attention notices, adoption
// requests and the tasks, read from the service worker once a second
// while the popup is open. Labels, control names, field values and
// messages come from agents and pages, so they are set as text, never as
// markup (dom.ts).
import { realChrome } from "../chrome/real";
import { LifecycleReady } from "../protocol/generated";
import { ADOPTION_ANSWER, PAUSE_REQUEST, STATUS_REQUEST, YOLO_SWITCH } from "../shared/status";
import type { AdoptionSummary, PauseRequest, StatusReply, StatusRequest } from "../shared/status";
import { describeHost, describePause } from "./describe";
import { button, el } from "./dom";
import type { PopupMessage } from "./dom";
import { noticeItem } from "./notices";
import { stageItem } from "./stages";
import { forgetEnded, taskItem } from "./tasks";

const REFRESH_MS = 1000;

const api = realChrome();

function element(id: string): HTMLElement {
  const e = document.getElementById(id);
  if (e === null) throw new Error(`popup.html has no #${id}`);
  return e;
}

function checkbox(id: string): HTMLInputElement {
  const e = element(id);
  if (!(e instanceof HTMLInputElement)) throw new Error(`popup.html's #${id} is not an input`);
  return e;
}

const hostLine = element("host");
const recovery = element("recovery");
const taskList = element("tasks");
const noTasks = element("no-tasks");
const pauseLine = element("pause-line");
const adoptionList = element("adoptions");
const automationRow = element("automation-row");
const automation = checkbox("automation");
const yoloRow = element("yolo-row");
const yolo = checkbox("yolo");
const yoloWarning = element("yolo-warning");
const stagesSection = element("stages-section");
const stageList = element("stages");
const noStages = element("no-stages");
const noticesSection = element("notices-section");
const noticeList = element("notices");

// The optional scripting permission is asked for here, on the user's
// click (Chrome grants it only with a gesture), and given back when the
// box is cleared; the worker detaches its debugger sessions then.
automation.addEventListener("change", () => {
  const change = automation.checked ? api.permissions.request("scripting") : api.permissions.remove("scripting");
  void change.finally(() => void refresh());
});

// YOLO mode is the user's alone (no agent-facing control exists). The
// worker stores the switch and, turning it on, discards every waiting
// stage before it answers; the box shows what the worker reports.
// Until it answers, the refresh leaves the box as the user set it.
let yoloSwitching = false;
yolo.addEventListener("change", () => {
  yolo.disabled = true;
  yoloSwitching = true;
  const done = (): void => {
    yoloSwitching = false;
  };
  void api.runtime.sendMessage({ type: YOLO_SWITCH, on: yolo.checked }).then(
    (reply) => {
      done();
      if (isStatusReply(reply)) render(reply);
    },
    () => {
      done();
      void refresh();
    },
  );
});

const pauseButton = element("pause");
let running = true;

// Pause is a barrier the worker and the host put in place before they
// report it; the popup shows the state they report (pausing, then
// paused), not the click.
pauseButton.addEventListener("click", () => {
  const request: PauseRequest = { type: PAUSE_REQUEST, paused: running };
  pauseButton.setAttribute("disabled", "");
  send(request);
});

function send(message: PopupMessage): void {
  void api.runtime.sendMessage(message).then(
    (reply) => {
      if (isStatusReply(reply)) render(reply);
    },
    () => refresh(),
  );
}

// An agent asks for the tab the user is looking at: who asks, and which
// tab (title and origin), with Allow and Deny.
function adoptionItem(a: AdoptionSummary): HTMLLIElement {
  const li = el("li", "");
  const what = el("p", "what");
  const title = a.title === "" ? "this tab" : `"${a.title}"`;
  what.append(el("strong", "", a.taskLabel), " asks to work in ", el("span", "", title), el("span", "origin", a.origin === "" ? "" : ` (${a.origin})`), ".");
  li.append(
    what,
    button("Allow", "allow", {}, () => send({ type: ADOPTION_ANSWER, id: a.id, allow: true })),
    " ",
    button("Deny", "deny", {}, () => send({ type: ADOPTION_ANSWER, id: a.id, allow: false })),
  );
  return li;
}

let last: StatusReply | undefined;

function render(reply: StatusReply): void {
  last = reply;
  const text = describeHost(reply.host);
  hostLine.textContent = text.line;
  recovery.textContent = text.recovery;
  recovery.hidden = text.recovery === "";
  running = reply.pause === LifecycleReady;
  automationRow.hidden = false;
  automation.checked = reply.automation;
  const pause = describePause(reply.pause, reply.settling, reply.pauseReason);
  pauseLine.textContent = pause.line;
  pauseLine.hidden = pause.line === "";
  pauseButton.hidden = false;
  pauseButton.textContent = pause.button;
  if (pause.busy) pauseButton.setAttribute("disabled", "");
  else pauseButton.removeAttribute("disabled");
  yoloRow.hidden = false;
  if (!yoloSwitching) {
    yolo.checked = reply.yolo;
    yolo.disabled = false;
  }
  // Said before the click that would do it: turning YOLO on discards the
  // actions waiting for review (spec 000).
  yoloWarning.hidden = reply.yolo || reply.stages.length === 0;
  // With YOLO on nothing is staged, so the section shows only while
  // review is the mode or something still waits.
  stagesSection.hidden = reply.yolo && reply.stages.length === 0;
  stageList.replaceChildren(...reply.stages.map((s) => stageItem(s, send)));
  noStages.hidden = reply.stages.length > 0;
  noticesSection.hidden = reply.notices.length === 0;
  noticeList.replaceChildren(...reply.notices.map((n) => noticeItem(n, send)));
  adoptionList.replaceChildren(...reply.adoptions.map(adoptionItem));
  forgetEnded(reply.tasks);
  taskList.replaceChildren(...reply.tasks.map((t) => taskItem(t, send, rerender)));
  noTasks.hidden = reply.tasks.length > 0;
}

function rerender(): void {
  if (last !== undefined) render(last);
}

async function refresh(): Promise<void> {
  const request: StatusRequest = { type: STATUS_REQUEST };
  try {
    const reply = await api.runtime.sendMessage(request);
    if (isStatusReply(reply)) render(reply);
  } catch {
    hostLine.textContent = "The AgentTab service worker is not answering.";
  }
}

// The worker is this extension's own code; the check keeps a malformed
// answer from breaking the popup rather than guarding against an attacker.
function isStatusReply(v: unknown): v is StatusReply {
  return (
    typeof v === "object" &&
    v !== null &&
    "host" in v &&
    "pause" in v &&
    "settling" in v &&
    "automation" in v &&
    "tasks" in v &&
    Array.isArray(v.tasks) &&
    "adoptions" in v &&
    Array.isArray(v.adoptions) &&
    "yolo" in v &&
    typeof v.yolo === "boolean" &&
    "stages" in v &&
    Array.isArray(v.stages) &&
    "notices" in v &&
    Array.isArray(v.notices)
  );
}

void refresh();
setInterval(() => void refresh(), REFRESH_MS);
