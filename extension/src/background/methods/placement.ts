// Where a created tab goes. Source of truth: DESIGN.md "Default window": the
// window of the task's most recent owned tab; for an empty task the
// last-focused normal window, without focusing it; with no normal window,
// an unfocused new one (undefined here).
import type { ChromeApi } from "../../chrome/api";
import type { Ownership } from "../tabs/ownership";

export async function defaultWindow(api: ChromeApi, ownership: Ownership, taskId: string): Promise<number | undefined> {
  return ownership.latestWindow(taskId) ?? (await api.windows.lastFocusedNormal());
}
