// Waiting, bounded, for a tab to finish loading.
import type { ChromeApi } from "../../chrome/api";
import type { Clock } from "../clock";

/** Resolves once the tab's status is "complete", it is gone, or timeoutMs passed. */
export function waitForLoad(api: ChromeApi, clock: Clock, tabId: number, timeoutMs: number): Promise<void> {
  return new Promise((resolve) => {
    const stops: (() => void)[] = [];
    const done = () => {
      for (const stop of stops) stop();
      resolve();
    };
    // Listen before reading the status, so a load that completes between
    // the read and the subscription is not missed.
    stops.push(
      api.tabs.onUpdated((id, change) => {
        if (id === tabId && change.status === "complete") done();
      }),
      api.tabs.onRemoved((id) => {
        if (id === tabId) done();
      }),
      clock.after(Math.max(0, timeoutMs), done),
    );
    api.tabs.get(tabId).then(
      (tab) => {
        if (tab === undefined || tab.status === "complete") done();
      },
      () => done(),
    );
  });
}
