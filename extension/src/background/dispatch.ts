// Turns a host request into a response: decode the params, run the handler
// in the scheduler, and map any failure to the protocol's Error.
import {
  CodeInternal,
  CodeUnknownMethod,
  NativeAct,
  NativeFinish,
  NativeOpen,
  NativePing,
  NativeReconcile,
  NativeSnapshot,
  NativeTabs,
  NativeWait,
  NativeTypeResponse,
  OutcomeNotStarted,
  OutcomeUnknown,
} from "../protocol/generated";
import type { NativeRequest, NativeResponse } from "../protocol/generated";
import { act } from "./act/act";
import type { Context } from "./context";
import { actParams, finishParams, openParams, reconcileParams, snapshotParams, tabsParams, waitParams } from "./decode";
import { Failure } from "./failure";
import { finish } from "./finish";
import { listTabs } from "./list-tabs";
import { errorText } from "./log";
import { open } from "./open";
import { reconcile } from "./reconcile";
import { Scheduler } from "./scheduler";
import { snapshot } from "./snapshot";
import { waitFor } from "./wait";

export function dispatcher(ctx: Context, ready: Promise<void>): (request: NativeRequest) => Promise<NativeResponse> {
  const scheduler = new Scheduler();

  const call = async (method: string, params: unknown): Promise<unknown> => {
    switch (method) {
      case NativePing:
        return {};
      case NativeReconcile: {
        const p = reconcileParams(params);
        return scheduler.global(() => reconcile(ctx, p));
      }
      case NativeOpen: {
        const p = openParams(params);
        return scheduler.task(p.task.task_id, () => open(ctx, p));
      }
      case NativeTabs: {
        const p = tabsParams(params);
        return scheduler.task(p.task_id, () => listTabs(ctx, p));
      }
      case NativeFinish: {
        const p = finishParams(params);
        return scheduler.task(p.task_id, () => finish(ctx, p));
      }
      case NativeSnapshot: {
        const p = snapshotParams(params);
        return scheduler.read(p.task_id, () => snapshot(ctx, p));
      }
      case NativeAct: {
        const p = actParams(params);
        return scheduler.task(p.task_id, () => act(ctx, p));
      }
      case NativeWait: {
        const p = waitParams(params);
        return scheduler.read(p.task_id, () => waitFor(ctx, p.task_id, p.tab_id, p.condition));
      }
    }
    throw new Failure(
      CodeUnknownMethod,
      OutcomeNotStarted,
      `the extension has no method ${JSON.stringify(method)}`,
      "Update AgentTab so the host and the extension match.",
    );
  };

  return async (request) => {
    try {
      await ready;
      return { type: NativeTypeResponse, id: request.id, result: await call(request.method, request.params) };
    } catch (e) {
      if (e instanceof Failure) return { type: NativeTypeResponse, id: request.id, error: e.detail };
      // Something the handler did not expect: Chrome may have acted, so the
      // step's outcome is unknown and it must not be repeated blindly.
      ctx.log.warn(`${request.method} failed: ${errorText(e)}`);
      return {
        type: NativeTypeResponse,
        id: request.id,
        error: {
          code: CodeInternal,
          message: `${request.method} failed in the extension: ${errorText(e)}`,
          recovery: "Check the task's tabs with browser_tabs before repeating the step.",
          outcome: OutcomeUnknown,
        },
      };
    }
  };
}
