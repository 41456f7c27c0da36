// The popup's dependencies for unit tests: a host in a given state that
// answers questions with a test's function (none: it rejects, as a host
// that is away does), a scheduler of its own, and a focus guard stand-in
// that records the allowances the Open tab button gave.
import type { PopupDeps } from "../background/popup/env";
import type { HostAnswer } from "../background/native/host-connection";
import { Scheduler } from "../background/native/scheduler";
import type { HostState } from "../shared/status";

export interface Asked {
  method: string;
  params: unknown;
}

export interface PopupKit extends PopupDeps {
  /** The questions asked of the host, in order. */
  asked: Asked[];
  /** The tabs the focus guard was told the user opened. */
  allowed: number[];
}

export function popupDeps(state: () => HostState, answer?: (method: string, params: unknown) => HostAnswer): PopupKit {
  const asked: Asked[] = [];
  const allowed: number[] = [];
  return {
    asked,
    allowed,
    host: {
      state,
      ask: async (method, params) => {
        asked.push({ method, params });
        if (answer === undefined) throw new Error("AgentTab is not connected to its host");
        return answer(method, params);
      },
    },
    scheduler: new Scheduler(),
    focus: { allowUserOpen: (tabId) => void allowed.push(tabId) },
  };
}
