// The Commit review list (spec 000 Commit review; issue 12): per staged
// action, who asks, what the control would do, the control's name, the
// origin Chrome reports for the tab and the form's visible fields; Approve
// and Deny send only the opaque review handle. Approval runs nothing: the
// agent's browser_commit does, once.
import { STAGE_REVIEW } from "../shared/status";
import type { StageSummary } from "../shared/status";
import { describeEffect, describeField, timeLeft } from "./describe";
import { button, el, swatch } from "./dom";
import type { Send } from "./dom";

export function stageItem(s: StageSummary, send: Send): HTMLLIElement {
  const li = el("li", `stage ${s.state}`);
  li.setAttribute("data-handle", s.handle);
  const what = el("p", "what");
  what.append(swatch(s.taskColor), el("strong", "", describeEffect(s.taskLabel, s.effect)));
  const control = el("p", "control");
  control.append(s.control === "" ? "by an unnamed control" : `by pressing "${s.control}"`, el("span", "origin", ` on ${s.origin}`));
  li.append(what, control);
  if (s.fields.length > 0) {
    const fields = el("ul", "fields");
    fields.append(...s.fields.map((f) => el("li", f.sensitive ? "sensitive" : "", describeField(f))));
    li.append(fields);
  }
  const state = el("p", "state");
  const left = el("span", "left", timeLeft(s.expiresInMs));
  if (s.state === "pending") {
    const data = { handle: s.handle };
    state.append(
      button("Approve", "approve", data, () => send({ type: STAGE_REVIEW, handle: s.handle, approve: true })),
      button("Deny", "deny", data, () => send({ type: STAGE_REVIEW, handle: s.handle, approve: false })),
      left,
    );
  } else {
    state.append(el("span", "approved-note", "approved — waiting for the agent's browser_commit"), left);
  }
  li.append(state);
  return li;
}
