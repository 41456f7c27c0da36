// The host's "credential_fill": one value from the 1Password broker into a
// field of an owned tab. Source of truth: issue 13 and spec 000's broker
// paragraphs (values travel only over this private message and are
// written into the page by the extension; the origin is Chrome's, never
// the page's or the agent's), protocol/credentials.go
// (ExtCredentialFillParams).
//
// The value is never logged, stored or answered: no log line here names
// the params, every failure's message is built from words of this file and
// the field's description, and the answer is {filled: true}. It stays in
// this call's memory, and goes to the page agent (page/credential.ts) and,
// on the debugger route, to Input.insertText.
import { CodeCredentialFieldUnfit, CodeCredentialTokenInvalid, CodeInternal, CodeStaleRevision, CodeValueNotAccepted, OutcomeDispatched, OutcomeNotStarted, OutcomeUnknown, RouteDebugger } from "../../protocol/generated";
import type { ExtCredentialFillParams, ExtCredentialFillResult } from "../../protocol/generated";
import type { CredentialTarget } from "../../shared/page-agent";
import type { ScanEnv } from "../challenges/scan";
import { DialogOpened } from "../cdp/session";
import { errorText } from "../log";
import { Failure, failure } from "../native/failure";
import { onRoute } from "../pagework/choose-route";
import type { PageRoute } from "../pagework/page-route";
import { admitPageWork, dialogFailure, ownedPage } from "../pagework/page-work";

/** What the fill uses of the worker's Context: a snapshot's (ownership, page access, both routes). */
export type CredentialEnv = ScanEnv;

/** The origin of a URL as Chrome has it for the tab ("" when it has none: about:blank, a data: URL). */
export function originOf(url: string): string {
  try {
    const o = new URL(url).origin;
    return o === "null" ? "" : o;
  } catch {
    return "";
  }
}

export async function credentialFill(ctx: CredentialEnv, p: ExtCredentialFillParams): Promise<ExtCredentialFillResult> {
  // Ownership and group membership, from Chrome (not_owned otherwise).
  const { owned, url } = await ownedPage(ctx, p.task_id, p.tab_id);
  if (owned.revision !== p.expected_page_revision) {
    throw failure(CodeStaleRevision, `the page is at revision ${owned.revision}, not ${p.expected_page_revision}; nothing was filled`);
  }
  // The tab's origin as chrome.tabs reports it, never what the page says.
  if (originOf(url) === "" || originOf(url) !== p.origin) {
    throw failure(CodeCredentialTokenInvalid, "the tab is no longer on the origin the token was made for; nothing was filled");
  }
  await admitPageWork(ctx, p.tab_id, url);
  const dialog = ctx.pages.session(p.tab_id)?.dialog;
  if (dialog !== undefined) throw dialogFailure(dialog.info);
  let dispatched = false;
  try {
    await onRoute(
      ctx,
      p.tab_id,
      async (route) => {
        const target = await route.locate(p.ref);
        if (route.name === RouteDebugger) {
          const seen = await target.agent.credentialTarget(p.ref, p.field, null);
          refuseUnfit(p, seen);
          if (!seen.focused) throw failure(CodeCredentialFieldUnfit, `${seen.description || p.ref} did not take focus; nothing was filled`);
          dispatched = true;
          await insert(route, p.value);
          if (!(await target.agent.credentialHolds(p.ref, p.value))) throw notTaken(seen, OutcomeUnknown);
          return;
        }
        // The scripting route: the DOM way, in one call (checked, focused,
        // set, input and change).
        dispatched = true;
        const seen = await target.agent.credentialTarget(p.ref, p.field, p.value);
        if (!seen.fit) dispatched = false;
        refuseUnfit(p, seen);
        if (!(await target.agent.credentialHolds(p.ref, p.value))) throw notTaken(seen, OutcomeDispatched);
      },
      () => !dispatched,
    );
  } catch (e) {
    throw fillFailure(e, dispatched);
  }
  return { filled: true };
}

/** The debugger route's text input: one Input.insertText into the field readied (its content selected), as a fill step does (act/typing.ts). */
async function insert(route: PageRoute, value: string): Promise<void> {
  await route.debugger("a credential fill").session.send("Input.insertText", { text: value });
}

function refuseUnfit(p: ExtCredentialFillParams, seen: CredentialTarget): void {
  if (seen.fit) return;
  const what = seen.description || p.ref;
  throw failure(CodeCredentialFieldUnfit, `${what} is not a field for a ${p.field.replaceAll("_", "-")}: ${seen.why ?? "unfit"}; nothing was filled`, OutcomeNotStarted);
}

// The message never says what the field holds (the value, or a part of it).
function notTaken(seen: CredentialTarget, outcome: typeof OutcomeDispatched | typeof OutcomeUnknown): Failure {
  const where = outcome === OutcomeUnknown ? " (focus may have moved: check where it went before filling again)" : "";
  return failure(CodeValueNotAccepted, `${seen.description || "the field"} does not hold the value written${where}; the page may limit or reformat it`, outcome);
}

/** A failure as the agent hears it; none names the value (a page agent or Chrome error names the call, never its arguments). */
function fillFailure(e: unknown, dispatched: boolean): Failure {
  if (e instanceof Failure) return e;
  if (e instanceof DialogOpened) return dialogFailure(e.dialog, dispatched ? OutcomeDispatched : OutcomeNotStarted);
  return failure(CodeInternal, `the credential fill failed: ${errorText(e)}`, dispatched ? OutcomeUnknown : OutcomeNotStarted);
}
