// Answers the popup's status request: the host connection and, per task,
// its label and owned-tab count.
import type { ChromeApi } from "../chrome/api";
import type { HostState, StatusReply } from "../shared/status";
import { isStatusRequest } from "../shared/status";
import type { Ownership } from "./ownership";

export function servePopup(api: ChromeApi, ownership: Ownership, ready: Promise<void>, host: () => HostState): void {
  api.runtime.onMessage((message) => {
    if (!isStatusRequest(message)) return undefined;
    return ready.then((): StatusReply => ({
      host: host(),
      tasks: ownership.taskIds().flatMap((id) => {
        const t = ownership.task(id);
        return t === undefined ? [] : [{ label: t.look.label, color: t.look.color, ownedTabs: t.tabs.size }];
      }),
    }));
  });
}
