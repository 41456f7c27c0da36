// The popup: the host connection and each task's label and owned-tab count,
// read from the service worker once a second while the popup is open. Task
// labels come from agents, so they are set as text, never as markup.
import { realChrome } from "../chrome/real";
import { LifecycleReady } from "../protocol/generated";
import { ADOPTION_ANSWER, PAUSE_REQUEST, STATUS_REQUEST } from "../shared/status";
import type { AdoptionAnswer, AdoptionSummary, PauseRequest, StatusReply, StatusRequest, TaskSummary } from "../shared/status";
import { describeHost, describePause, tabCount } from "./describe";

const REFRESH_MS = 1000;

const api = realChrome();

function element(id: string): HTMLElement {
  const e = document.getElementById(id);
  if (e === null) throw new Error(`popup.html has no #${id}`);
  return e;
}

const hostLine = element("host");
const recovery = element("recovery");
const taskList = element("tasks");
const noTasks = element("no-tasks");
const pauseLine = element("pause-line");
const adoptionList = element("adoptions");
const automationRow = element("automation-row");
const automation = element("automation");

// The optional scripting permission is asked for here, on the user's
// click (Chrome grants it only with a gesture), and given back when the
// box is cleared; the worker detaches its debugger sessions then.
automation.addEventListener("change", () => {
  const on = automation instanceof HTMLInputElement && automation.checked;
  const change = on ? api.permissions.request("scripting") : api.permissions.remove("scripting");
  void change.finally(() => void refresh());
});
const pauseButton = element("pause");
let running = true;

// Pause is a barrier the worker and the host put in place before they
// report it; the popup shows the state they report (pausing, then
// paused), not the click.
pauseButton.addEventListener("click", () => {
  const request: PauseRequest = { type: PAUSE_REQUEST, paused: running };
  pauseButton.setAttribute("disabled", "");
  void api.runtime.sendMessage(request).then(
    (reply) => {
      if (isStatusReply(reply)) render(reply);
    },
    () => refresh(),
  );
});

function taskItem(t: TaskSummary): HTMLLIElement {
  const li = document.createElement("li");
  const swatch = document.createElement("span");
  swatch.className = "swatch";
  swatch.style.background = t.color;
  const label = document.createElement("span");
  label.textContent = t.label;
  const count = document.createElement("span");
  count.className = "count";
  count.textContent = tabCount(t.ownedTabs);
  li.append(swatch, label, count);
  return li;
}

function send(message: PauseRequest | AdoptionAnswer): void {
  void api.runtime.sendMessage(message).then((reply) => {
    if (isStatusReply(reply)) render(reply);
  });
}

// An agent asks for the tab the user is looking at: who asks, and which
// tab (title and origin), with Allow and Deny. Set as text, never markup.
function adoptionItem(a: AdoptionSummary): HTMLLIElement {
  const li = document.createElement("li");
  const what = document.createElement("p");
  what.className = "what";
  const who = document.createElement("strong");
  who.textContent = a.taskLabel;
  const title = document.createElement("span");
  title.textContent = a.title === "" ? "this tab" : `"${a.title}"`;
  const origin = document.createElement("span");
  origin.className = "origin";
  origin.textContent = a.origin === "" ? "" : ` (${a.origin})`;
  what.append(who, " asks to work in ", title, origin, ".");
  const allow = document.createElement("button");
  allow.type = "button";
  allow.className = "allow";
  allow.textContent = "Allow";
  allow.addEventListener("click", () => send({ type: ADOPTION_ANSWER, id: a.id, allow: true }));
  const deny = document.createElement("button");
  deny.type = "button";
  deny.className = "deny";
  deny.textContent = "Deny";
  deny.addEventListener("click", () => send({ type: ADOPTION_ANSWER, id: a.id, allow: false }));
  li.append(what, allow, " ", deny);
  return li;
}

function render(reply: StatusReply): void {
  const text = describeHost(reply.host);
  hostLine.textContent = text.line;
  recovery.textContent = text.recovery;
  recovery.hidden = text.recovery === "";
  running = reply.pause === LifecycleReady;
  automationRow.hidden = false;
  if (automation instanceof HTMLInputElement) automation.checked = reply.automation;
  const pause = describePause(reply.pause, reply.settling);
  pauseLine.textContent = pause.line;
  pauseLine.hidden = pause.line === "";
  pauseButton.hidden = false;
  pauseButton.textContent = pause.button;
  if (pause.busy) pauseButton.setAttribute("disabled", "");
  else pauseButton.removeAttribute("disabled");
  adoptionList.replaceChildren(...reply.adoptions.map(adoptionItem));
  taskList.replaceChildren(...reply.tasks.map(taskItem));
  noTasks.hidden = reply.tasks.length > 0;
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
  return typeof v === "object" && v !== null && "host" in v && "pause" in v && "settling" in v && "automation" in v && "tasks" in v && Array.isArray(v.tasks) && "adoptions" in v && Array.isArray(v.adoptions);
}

void refresh();
setInterval(() => void refresh(), REFRESH_MS);
