// The task list: colour, label, tab count, whether its agent is connected
// and when it last acted, and End task (issue 12: the user releases a
// task's tabs, keeping or closing them). A task whose agent is gone offers
// both endings at once, so cleaning it up is one click; a connected task
// asks first (End task…, then keep or close), since an agent is working.
import { END_TASK } from "../shared/status";
import type { TaskSummary } from "../shared/status";
import { describeTaskState, tabCount } from "./describe";
import { button, el, swatch } from "./dom";
import type { Send } from "./dom";

/** Tasks whose End task… was pressed, so the choice survives the popup's refresh. */
const confirming = new Set<string>();

export function taskItem(t: TaskSummary, send: Send, rerender: () => void): HTMLLIElement {
  const li = el("li", t.connected ? "task connected" : "task disconnected");
  li.setAttribute("data-task", t.taskId);
  const row = el("div", "row");
  row.append(swatch(t.color), el("span", "label", t.label), el("span", "count", tabCount(t.ownedTabs)));
  // Spec 000: Developer mode "is visibly marked on a task".
  if (t.developer) row.append(el("span", "developer", "Developer mode"));
  const state = el("p", "state", describeTaskState(t.connected, t.idleMs));
  li.append(row, state);
  const data = { task: t.taskId };
  const end = (closeTabs: boolean): void => {
    confirming.delete(t.taskId);
    send({ type: END_TASK, taskId: t.taskId, closeTabs });
  };
  const actions = el("p", "actions");
  if (t.connected && !confirming.has(t.taskId)) {
    actions.append(
      button("End task…", "end-task", data, () => {
        confirming.add(t.taskId);
        rerender();
      }),
    );
  } else {
    actions.append(button("End, keep tabs", "end-keep", data, () => end(false)), button("End, close tabs", "end-close", data, () => end(true)));
    if (t.connected) {
      actions.append(
        button("Cancel", "end-cancel", data, () => {
          confirming.delete(t.taskId);
          rerender();
        }),
      );
    }
  }
  li.append(actions);
  return li;
}

/** Forget choices for tasks that are gone. */
export function forgetEnded(tasks: TaskSummary[]): void {
  const live = new Set(tasks.map((t) => t.taskId));
  for (const id of confirming) if (!live.has(id)) confirming.delete(id);
}
