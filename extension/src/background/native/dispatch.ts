// Turns a host request into a response: decode the params, run the handler
// in the scheduler, and map any failure to the protocol's Error.
import {
  ClassGlobal,
  ClassMutation,
  ClassRead,
  CodeClassificationMismatch,
  CodeInternal,
  CodeInvalidParams,
  CodeUnknownMethod,
  DecodeError,
  NativeAct,
  NativeAdopt,
  NativeClasses,
  NativeCommit,
  NativeDeveloper,
  NativeCredentialFill,
  NativeFinish,
  NativeHandoff,
  NativeOpen,
  NativeParamsDecoders,
  NativePause,
  NativePausing,
  NativePing,
  NativeProfile,
  NativeReconcile,
  NativeSnapshot,
  NativeTabs,
  NativeUnpause,
  NativeWait,
  NativeTypeResponse,
  OutcomeNotStarted,
  OutcomeUnknown,
  RecoveryUpdate,
  StepRules,
} from "../../protocol/generated";
import type { NativeMethod, NativeParams, NativeRequest, NativeResponse, OriginStop, RequestClass } from "../../protocol/generated";
import { act } from "../act/act";
import type { Context, HasOrigins } from "../context";
import { adopt } from "../methods/adopt";
import { Failure, failure } from "./failure";
import { finish } from "../methods/finish";
import { handoff } from "../notices/handoff";
import { listTabs } from "../methods/list-tabs";
import { errorText } from "../log";
import { open } from "../methods/open";
import { beginPause, pauseRefusal } from "../pause/pause";
import { reconcile } from "../methods/reconcile";
import { commitStage } from "../review/commit";
import { developer } from "../developer/developer";
import { credentialFill } from "../credentials/fill";
import { profile } from "../profile/profile";
import { Scheduler } from "./scheduler";
import { snapshot } from "../pagework/snapshot";
import { waitFor } from "../pagework/wait";

/** The work a method asks for, given its decoded params. */
type Handler<M extends NativeMethod> = (p: NativeParams[M]) => Promise<unknown>;

/** Every method's handler; a method of protocol.NativeParams without one fails tsc. */
type Handlers = { [M in NativeMethod]: Handler<M> };

/**
 * Decodes a request's params with the generated decoder of its method
 * (protocol.NativeParams: the generated types say what the host means to
 * send, the decoders check it did), then runs its handler.
 */
function serve<M extends NativeMethod>(handlers: Handlers, method: M, params: unknown): Promise<unknown> {
  const decode: (v: unknown) => NativeParams[M] = NativeParamsDecoders[method];
  let decoded: NativeParams[M];
  try {
    decoded = decode(params);
  } catch (e) {
    if (e instanceof DecodeError) throw new Failure(CodeInvalidParams, OutcomeNotStarted, e.message, RecoveryUpdate);
    throw e;
  }
  const handle: Handler<M> = handlers[method];
  return handle(decoded);
}

function isMethod(method: string): method is NativeMethod {
  return Object.hasOwn(NativeClasses, method);
}

/** scheduler is the worker's one (main.ts gives it to the popup too: the YOLO switch passes its global barrier). */
export function dispatcher(ctx: Context, ready: Promise<void>, scheduler = new Scheduler()): (request: NativeRequest) => Promise<NativeResponse> {
  // Each request is classified here again, from what it asks for, and run
  // in the lane of this classification; a host label that disagrees is
  // refused before anything runs (issue 4: a click labelled as a read is
  // an approval bypass, not metadata).
  const call = async (method: string, params: unknown, label: RequestClass | undefined): Promise<unknown> => {
    if (!isMethod(method)) throw failure(CodeUnknownMethod, `the extension has no method ${JSON.stringify(method)}`);
    // The method's class (protocol.NativeClasses, the table the host's
    // Classify reads); an act batch of reads only is a read (StepRules).
    const base = NativeClasses[method];
    const expect = (cls: RequestClass): void => {
      if (cls !== label) throw mismatch(method, label, cls);
    };
    const run = <T>(taskId: string, work: () => Promise<T>, cls = base): Promise<T> => {
      expect(cls);
      // Checked when the work's turn comes: work queued before a Pause is
      // rejected as not started, never run (spec 000). A task's work that
      // runs is counted until it settles: what the popup's pausing waits for.
      return lane(scheduler, taskId, cls)(() => {
        if (cls !== ClassGlobal && ctx.pause.paused) throw pauseRefusal(ctx.pause.reason);
        return taskId === "" ? work() : ctx.pause.track(work);
      });
    };
    const pauseTo = (paused: boolean) => async (): Promise<unknown> => {
      // The host's pause says the Pause is in force; a host that paused
      // at its start sends it without pausing first.
      if (paused) await beginPause(ctx);
      return run("", async () => {
        await ctx.pause.set(paused);
        return { paused };
      });
    };
    // One handler per method of protocol.NativeParams: a method missing
    // here fails tsc.
    const handlers: Handlers = {
      [NativePing]: async () => {
        expect(base);
        return {};
      },
      [NativeReconcile]: (p) => run("", () => reconcile(ctx, p)),
      [NativeAdopt]: (p) => run(p.task.task_id, () => adopt(ctx, p)),
      [NativePausing]: async () => {
        // Served at once, not behind the work whose settling it begins.
        expect(base);
        await beginPause(ctx);
        return { paused: true };
      },
      [NativePause]: pauseTo(true),
      [NativeUnpause]: pauseTo(false),
      // Into a new window too: only the task's first tab may go there
      // (open.ts checks), which the task's order decides, and other
      // tasks are not held back (issue 10; protocol.Classify).
      [NativeOpen]: (p) => run(p.task.task_id, () => open(ctx, p)),
      [NativeTabs]: (p) => {
        // Listing also revokes what Chrome no longer shows in the group,
        // so it keeps the task's order like a mutation while it is a read.
        expect(base);
        return scheduler.task(p.task_id, () => {
          if (ctx.pause.paused) throw pauseRefusal(ctx.pause.reason);
          return ctx.pause.track(() => listTabs(ctx, p));
        });
      },
      [NativeFinish]: (p) => run(p.task_id, () => finish(ctx, p)),
      [NativeSnapshot]: (p) => run(p.task_id, async () => withStops(ctx, p, await snapshot(ctx, p))),
      [NativeAct]: (p) => {
        const reads = p.actions.every((s) => StepRules[s.kind].class === ClassRead);
        return run(p.task_id, async () => withStops(ctx, p, await act(ctx, p)), reads ? ClassRead : base);
      },
      [NativeWait]: (p) => run(p.task_id, async () => withStops(ctx, p, await waitFor(ctx, p.task_id, p.tab_id, p.condition))),
      // An approved stage's one step: a mutation, never classified again (review/commit.ts).
      [NativeCommit]: (p) => run(p.task_id, async () => withStops(ctx, p, await commitStage(ctx, p))),
      // Notices need no page access: a tab_only tab takes one too, and
      // the handoff blackout does not apply to it (notices/handoff.ts).
      [NativeHandoff]: (p) => run(p.task_id, () => handoff(ctx, p)),
      [NativeDeveloper]: (p) => run(p.task_id, () => developer(ctx, p)),
      // A mutation of the task's lane; its params hold the value: never logged (credentials/fill.ts).
      [NativeCredentialFill]: (p) => run(p.task_id, () => credentialFill(ctx, p)),
      // Browser-global work that still respects Pause (profile/profile.ts checks it).
      [NativeProfile]: (p) => run(p.task.task_id, () => profile(ctx, p)),
    };
    return serve(handlers, method, params);
  };

  return async (request) => {
    try {
      await ready;
      return { type: NativeTypeResponse, id: request.id, result: await call(request.method, request.params, request.class) };
    } catch (e) {
      if (e instanceof Failure) return { type: NativeTypeResponse, id: request.id, error: e.detail };
      // Something the handler did not expect: Chrome may have acted, so the
      // step's outcome is unknown and it must not be repeated blindly.
      ctx.log.warn(`${request.method} failed: ${errorText(e)}`);
      return { type: NativeTypeResponse, id: request.id, error: failure(CodeInternal, `${request.method} failed in the extension: ${errorText(e)}`, OutcomeUnknown).detail };
    }
  };
}

/** The scheduler lane of a class: reads wait behind the task's mutations, mutations hold its tail, global work the barrier. */
function lane(scheduler: Scheduler, taskId: string, cls: RequestClass): <T>(work: () => Promise<T>) => Promise<T> {
  switch (cls) {
    case ClassRead:
      return (work) => scheduler.read(taskId, work);
    case ClassMutation:
      return (work) => scheduler.task(taskId, work);
    case ClassGlobal:
      return (work) => scheduler.global(work);
  }
}

function mismatch(method: string, label: RequestClass | undefined, cls: RequestClass): Failure {
  return failure(CodeClassificationMismatch, `the host labelled ${method} ${label === undefined ? "without a class" : `a ${label} request`}, but it is a ${cls}; nothing ran`);
}

/**
 * Adds the navigations the origin guard stopped on the tab while no step
 * watched it (origin-guard.ts), so that the agent hears of each once.
 */
function withStops<R extends { origin_stops?: OriginStop[] }>(ctx: HasOrigins, p: { task_id: string; tab_id: number }, result: R): R {
  const stops = ctx.origins.takeUnreported(p.tab_id, p.task_id);
  return stops.length === 0 ? result : { ...result, origin_stops: stops };
}
