// The debugger route (page-route.ts): page work through chrome.debugger in
// every frame of the tab, the page agent called in AgentTab's isolated
// world of each (cdp/agent.ts), input as trusted DevTools input events.
// It serves every step kind protocol.StepRules gives it, and the work
// only it can do (hover, press, drag, network-idle and download waits,
// screenshots) through debugger().
import { CodeInternal, OutcomeNotStarted, RouteDebugger } from "../../protocol/generated";
import type { ExtSnapshotParams, ExtSnapshotResult, StepKind } from "../../protocol/generated";
import type { TargetInfo } from "../../shared/page-agent";
import { trapped } from "../act/child-gesture";
import type { GestureEnv } from "../act/child-gesture";
import { installTrap } from "../act/open-trap";
import type { Located } from "../act/pointer";
import { aim, routedClick } from "../act/pointer";
import type { Progress } from "../act/receipts";
import type { Done } from "../act/typing";
import { typeInto } from "../act/typing";
import type { WaitState } from "../act/validate";
import type { AgentClient } from "../agent-client/client";
import type { ElementState } from "../agent-client/answers";
import { FrameGone } from "../agent-client/errors";
import type { HasClock } from "../capabilities";
import type { Failure } from "../native/failure";
import { failure } from "../native/failure";
import { debuggerSnapshot } from "./debugger-snapshot";
import type { Page } from "./page-tab";
import type { PageRoute, Target } from "./page-route";
import { routeServes } from "./page-route";
import type { Probe } from "./wait-seen";
import { refSeen, textSeen } from "./wait-seen";

/** What the debugger route uses of the worker's Context (context.ts): the clock, and the gesture's trap (act/child-gesture.ts). */
type DebuggerEnv = GestureEnv & HasClock;

export class DebuggerRoute implements PageRoute {
  readonly name = RouteDebugger;
  readonly lacksUserActivation = false;

  constructor(
    private readonly ctx: DebuggerEnv,
    readonly page: Page,
  ) {}

  serves(kind: StepKind): boolean {
    return routeServes(this.name, kind);
  }

  refuse(what: string): Failure {
    return failure(CodeInternal, `protocol.StepRules gives the debugger route no ${what}`, OutcomeNotStarted);
  }

  snapshot(p: ExtSnapshotParams): Promise<ExtSnapshotResult> {
    return debuggerSnapshot(this.ctx.clock, this.page, p);
  }

  // A route serves one step (choose-route.ts onRoute), which locates its
  // ref more than once: the challenge guard and Commit review before the
  // input (act/prepare.ts), then the input. Within a step a ref's frame
  // cannot change (refs are unique per document), and a document that went
  // meanwhile fails the agent call itself; each frame-tree read and knows()
  // call costs a DevTools round trip (issue 12: the guard added about 5 ms
  // to a gen500 click before this).
  private readonly located = new Map<string, Promise<Target>>();

  locate(ref: string): Promise<Target> {
    let target = this.located.get(ref);
    if (target === undefined) {
      target = this.page.locate(ref).then((at) => new DebuggerTarget(this.ctx, this.page, ref, at));
      this.located.set(ref, target);
    }
    return target;
  }

  async top(): Promise<AgentClient> {
    return this.page.agent((await this.page.frames()).top);
  }

  /** Text in any frame's visible text (or, with gone, in none). */
  textProbe(text: string, gone: boolean): Probe {
    const page = this.page;
    return async () => {
      const index = await page.frames();
      let present = false;
      for (const frame of index.frames.values()) {
        try {
          if (await page.agent(frame).hasText(text)) {
            present = true;
            break;
          }
        } catch (e) {
          // A frame that navigates away between the tree and the call shows
          // nothing this round.
          if (!(e instanceof FrameGone)) throw e;
        }
      }
      return textSeen(present, gone);
    };
  }

  /** An element's state; an element whose document is gone counts as gone. */
  async refProbe(ref: string, want: WaitState): Promise<Probe> {
    const page = this.page;
    const { frame } = await page.locate(ref);
    return async () => {
      const index = await page.frames();
      const now = index.frames.get(frame.doc.frameId);
      let state: ElementState;
      if (now?.doc.loaderId !== frame.doc.loaderId) state = "gone";
      else {
        try {
          state = await page.agent(now).state(ref);
        } catch (e) {
          if (!(e instanceof FrameGone)) throw e;
          state = "gone";
        }
      }
      return refSeen(ref, state, want);
    };
  }

  debugger(): Page {
    return this.page;
  }
}

/** A ref located in one frame's document, with trusted input at its point in the top frame's viewport. */
class DebuggerTarget implements Target {
  readonly agent: AgentClient;

  constructor(
    private readonly ctx: DebuggerEnv,
    private readonly page: Page,
    readonly ref: string,
    private readonly located: Located,
  ) {
    this.agent = page.agent(located.frame);
  }

  async click(count: 1 | 2, progress: Progress): Promise<TargetInfo> {
    const page = this.page;
    // The trap is armed in the ref's frame while the page takes its two looks.
    return trapped(
      this.ctx,
      page.tabId,
      () => installTrap(page, this.located.frame),
      () => aim(page, this.ref, this.located, progress),
      async (at, armed) => {
        await routedClick(page, this.ctx.clock, progress, at, count, armed);
        return at.info;
      },
    );
  }

  setValue(text: string, mode: "type" | "fill", progress: Progress): Promise<Done> {
    return typeInto(this.page, this.ctx.clock, progress, this.ref, this.located, text, mode);
  }
}
