// A time limit on a call Chrome may never answer. chrome.scripting answers
// only when the page's main thread runs the script, so a page stuck in its
// own script, or held by a JavaScript dialog nobody can answer without the
// debugger, would otherwise hang the step (the scripting route,
// pagework/scripting-agent.ts; the window.open trap there, act/open-trap.ts).
import { CodeChromeError } from "../protocol/generated";
import type { Outcome } from "../protocol/generated";
import type { Clock } from "./clock";
import { Failure } from "./native/failure";

/** How long one chrome.scripting call into a page may take. */
export const SCRIPT_CALL_MS = 10_000;

export function bounded<T>(clock: Clock, ms: number, timedOut: () => Error, f: () => Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const cancel = clock.after(ms, () => reject(timedOut()));
    f().then(
      (v) => {
        cancel();
        resolve(v);
      },
      (e: unknown) => {
        cancel();
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}

/** The page did not answer `what` in time; outcome says whether input may have gone out. */
export function pageBusy(what: string, outcome: Outcome): Failure {
  return new Failure(
    CodeChromeError,
    outcome,
    `the page did not answer ${what} within ${SCRIPT_CALL_MS / 1000} s (its main thread is busy, or a JavaScript dialog holds it: without the debugger AgentTab cannot see or answer dialogs)`,
    "Ask the user to answer any dialog on the tab, then take a new browser_snapshot.",
  );
}
