// Attention notices (spec 000 handoff; issue 12): an agent asks the user
// to do a step in one of its tabs. Open tab focuses exactly that tab, on
// this click only (the one focus AgentTab ever causes); Dismiss hides the
// reminder and leaves the notice open for the agent to close.
import { NOTICE_ACTION } from "../shared/status";
import type { NoticeSummary } from "../shared/status";
import { ago, describeReason } from "./describe";
import { button, el, swatch } from "./dom";
import type { Send } from "./dom";

export function noticeItem(n: NoticeSummary, send: Send): HTMLLIElement {
  const li = el("li", "notice");
  li.setAttribute("data-notice", n.noticeId);
  const what = el("p", "what");
  what.append(swatch(n.taskColor), el("strong", "", describeReason(n.taskLabel, n.reason)), el("span", "origin", n.origin === "" ? "" : ` on ${n.origin}`));
  li.append(what);
  if (n.message !== "") li.append(el("p", "message", `"${n.message}"`));
  const data = { notice: n.noticeId };
  li.append(
    el("p", "age", `Asked ${ago(n.ageMs)}.`),
    button("Open tab", "open-tab", data, () => send({ type: NOTICE_ACTION, noticeId: n.noticeId, action: "open_tab" })),
    button("Dismiss", "dismiss", data, () => send({ type: NOTICE_ACTION, noticeId: n.noticeId, action: "dismiss" })),
  );
  return li;
}
