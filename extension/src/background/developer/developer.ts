// The host's "developer" (browser_developer's extension half). Source of
// truth: protocol/developer.go and spec 000 ("Developer mode additionally
// exposes browser_developer ... visibly marked on a task"; raw
// Developer-mode CDP requests on a tab_only page "fail before script or
// debugger execution with browser_restricted_origin and outcome:
// not_started"). The host checked the policy, the arguments and that the
// task owns the tab; here a refused method (protocol.DeveloperRefused:
// what would lift the user's managed limits or reach past the tab) is
// refused again first, the tab must still be owned and in its group,
// page work must be admitted (restricted surfaces, local files, the handoff
// blackout), and only then is the task marked and the command sent through
// the tab's own debugger session: the one owned tab, never another target.
import {
  CodeChromeError,
  CodeDebuggerUnavailable,
  CodeInvalidParams,
  CodeMessageTooBig,
  DeveloperCDP,
  DeveloperCommandMs,
  DeveloperRefusedDomains,
  DeveloperRefusedMethods,
  MaxDeveloperResult,
  OutcomeDispatched,
  OutcomeNotStarted,
  OutcomeUnknown,
} from "../../protocol/generated";
import type { ExtDeveloperParams, ExtDeveloperResult } from "../../protocol/generated";
import type { HasChrome, HasLog, HasNotices, HasOwnership, Notifies } from "../capabilities";
import type { HasChallenges } from "../challenges/challenges";
import type { HasOrigins, HasPages } from "../context";
import { CommandTimeout, DebuggerDetached, DialogOpened } from "../cdp/session";
import type { TabSession } from "../cdp/session";
import { errorText } from "../log";
import { Failure, failure } from "../native/failure";
import { admitPageWork, dialogFailure, ownedPage } from "../pagework/page-work";
import { markDeveloper } from "../tabs/task-group";

export type DeveloperEnv = HasChrome & HasOwnership & HasPages & HasChallenges & HasOrigins & HasNotices & Notifies & HasLog;

/** An exception's text is cut to this many characters. */
export const MAX_EXCEPTION_CHARS = 4_000;

export async function developer(ctx: DeveloperEnv, p: ExtDeveloperParams): Promise<ExtDeveloperResult> {
  if (p.action === DeveloperCDP && refused(p.method ?? "")) {
    throw failure(CodeInvalidParams, `${p.method ?? ""} is refused in Developer mode: it reaches beyond the owned tab or around the user's managed policy`, OutcomeNotStarted);
  }
  const { url } = await ownedPage(ctx, p.task_id, p.tab_id);
  await admitPageWork(ctx, p.tab_id, url);
  // Marked before anything runs: a task that may have used Developer mode
  // shows it, even when the command then fails.
  await markDeveloper(ctx, p.task_id);
  let sent = false;
  try {
    const result = await ctx.pages.use(p.tab_id, (page) => {
      sent = true;
      return p.action === DeveloperCDP ? command(page.session, p) : evaluate(page.session, p.expression ?? "");
    });
    return { result: bounded(result) };
  } catch (e) {
    throw developerFailure(e, sent);
  }
}

/**
 * The host refuses these too (protocol.DeveloperRefused); checked again
 * here because the command goes out on the session where the origin
 * guard holds Fetch.enable: Fetch.disable or an answer to a paused
 * request would release the guard's hold on the tab.
 */
function refused(method: string): boolean {
  const domain = method.split(".", 1)[0] ?? "";
  return DeveloperRefusedDomains.includes(domain) || DeveloperRefusedMethods.includes(method);
}

/** A raw command on the tab's session; a dialog does not hold it back (raw means the agent may answer one). */
function command(session: TabSession, p: ExtDeveloperParams): Promise<unknown> {
  return session.send(p.method ?? "", p.params ?? {}, { timeoutMs: DeveloperCommandMs, duringDialog: true });
}

/**
 * Runtime.evaluate in the top frame's main world (no contextId: the
 * page's default context), the value returned by value and a promise
 * awaited; answered as { value } or { exception }.
 */
async function evaluate(session: TabSession, expression: string): Promise<unknown> {
  if (session.dialog !== undefined) throw dialogFailure(session.dialog.info);
  const r = await session.send("Runtime.evaluate", { expression, returnByValue: true, awaitPromise: true }, { timeoutMs: DeveloperCommandMs });
  const details = r["exceptionDetails"];
  if (details !== undefined) return { exception: exceptionText(details) };
  const remote = r["result"];
  const value = typeof remote === "object" && remote !== null && "value" in remote ? remote.value : undefined;
  return value === undefined ? {} : { value };
}

/** The exception's description when Chrome gives one (it names the error and its message), else its text. */
function exceptionText(details: unknown): string {
  let text = "exception";
  if (typeof details === "object" && details !== null) {
    const ex = "exception" in details ? details.exception : undefined;
    const description = typeof ex === "object" && ex !== null && "description" in ex ? ex.description : undefined;
    const plain = "text" in details ? details.text : undefined;
    if (typeof description === "string") text = description;
    else if (typeof plain === "string") text = plain;
  }
  return text.length > MAX_EXCEPTION_CHARS ? text.slice(0, MAX_EXCEPTION_CHARS) + "…" : text;
}

/** The result, or message_too_large when its JSON is over the bound (the command did run). */
function bounded(result: unknown): unknown {
  const size = JSON.stringify(result ?? null).length;
  if (size > MaxDeveloperResult) {
    throw new Failure(
      CodeMessageTooBig,
      OutcomeDispatched,
      `the result is ${size} bytes of JSON, over browser_developer's ${MaxDeveloperResult}`,
      "It ran: do not repeat it blindly. Ask for less (evaluate an expression that returns a smaller value, such as a slice or a count).",
    );
  }
  return result;
}

/** How a failure reaches the agent: before the command went out nothing ran; after, it may have. */
function developerFailure(e: unknown, sent: boolean): Failure {
  if (e instanceof Failure) return e;
  if (e instanceof DialogOpened) return dialogFailure(e.dialog, sent ? OutcomeUnknown : OutcomeNotStarted);
  if (e instanceof DebuggerDetached) return failure(CodeDebuggerUnavailable, errorText(e), sent ? OutcomeUnknown : OutcomeNotStarted);
  if (e instanceof CommandTimeout) return failure(CodeChromeError, `the tab did not answer in time (${e.message})`, OutcomeUnknown);
  // Chrome's answer to the command: an unknown method, bad params, or the
  // command's own error. It may have done part of its work.
  return failure(CodeChromeError, `the DevTools command failed: ${errorText(e)}`, sent ? OutcomeUnknown : OutcomeNotStarted);
}
