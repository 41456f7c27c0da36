// The scripting route's transport of the typed page agent client
// (agent-client/client.ts): chrome.scripting calls the page agent in the
// extension's isolated world of the tab's top document, injecting it first
// when the document has none. Every call is bounded (bounded.ts):
// chrome.scripting answers only when the page's main thread runs.
import { OutcomeNotStarted, OutcomeUnknown } from "../../protocol/generated";
import type { ValueMethod } from "../agent-client/answers";
import type { AgentClient } from "../agent-client/client";
import { agentClient } from "../agent-client/client";
import { FrameGone } from "../agent-client/errors";
import { bounded, pageBusy, SCRIPT_CALL_MS } from "../bounded";
import type { HasChrome, HasClock } from "../capabilities";
import { errorText } from "../log";
import type { FrameDoc } from "./refs";

/** The frame id scripting-route refs are recorded under: the top document only. */
export const TOP = "scripting:top";

/** chrome.scripting's words when the document it was sent to went away. */
const FRAME_REMOVED = /Frame with ID \d+ was removed|frame was removed|No frame with id/i;

/** The page agent functions that put input into the page: a timeout after them may have dispatched it. */
const INPUT: ReadonlySet<ValueMethod> = new Set<ValueMethod>(["domClick", "domSetValue", "select", "focus", "scrollBy", "credentialTarget"]);

/** The page agent of a tab's top document, through chrome.scripting. */
export class TopDocument {
  readonly agent: AgentClient;
  /**
   * The document (Chrome's documentId, under TOP) that gave the latest
   * answer: refs are bound to it, and a call that meets another document
   * than the ref's answers for that other one.
   */
  doc: FrameDoc | undefined;

  constructor(
    private readonly ctx: HasChrome & HasClock,
    private readonly tabId: number,
  ) {
    this.agent = agentClient((name, args) => this.call(name, args));
  }

  private async call(name: ValueMethod, args: readonly unknown[]): Promise<unknown> {
    const api = this.ctx.chrome.scripting;
    const r = await bounded(this.ctx.clock, SCRIPT_CALL_MS, () => pageBusy(`the scripting route's ${name}`, INPUT.has(name) ? OutcomeUnknown : OutcomeNotStarted), async () => {
      const first = await api.callAgent(this.tabId, name, [...args]);
      if (!first.missing) return first;
      await api.injectFile(this.tabId, "page-agent.js");
      return api.callAgent(this.tabId, name, [...args]);
    }).catch((e: unknown) => {
      // Observed in Chromium 156 under load: a call that meets the top
      // document's replacement fails "Frame with ID 0 was removed."
      if (FRAME_REMOVED.test(errorText(e))) throw new FrameGone(errorText(e));
      throw e;
    });
    this.doc = { frameId: TOP, loaderId: r.documentId };
    return r.value;
  }
}
