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
import { CONTROL } from "../act/keys";
import { onRoute } from "../pagework/choose-route";
import type { Page } from "../pagework/page-tab";
import { admitPageWork, dialogFailure, ownedPage } from "../pagework/page-work";

/** What the fill uses of the worker's Context: a snapshot's (ownership, page access, both routes). */
export type CredentialEnv = ScanEnv;

/**
 * The origin of a URL as Chrome has it for the tab or a frame ("" when it
 * has none: about:blank, a data: URL), written as the host writes the
 * token's (internal/onepassword/match.go, Origin.String): one trailing dot
 * of the host dropped. Chrome keeps it ("https://bank.test./" has the
 * origin "https://bank.test."); the two sides compare the same form.
 */
export function originOf(url: string): string {
  try {
    // An opaque origin is "null", which is no URL: "".
    const o = new URL(new URL(url).origin);
    const host = o.hostname.endsWith(".") ? o.hostname.slice(0, -1) : o.hostname;
    return `${o.protocol}//${host}${o.port === "" ? "" : `:${o.port}`}`;
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
        if (route.name === RouteDebugger) {
          // The ref may be in any frame of the tab, another origin's
          // iframe too: its document's origin, from Chrome's frame tree,
          // must be the token's as the tab's is.
          const page = route.debugger("a credential fill");
          const { frame } = await page.locate(p.ref);
          refuseOtherOrigin(p, frame.url);
          const agent = page.agent(frame);
          const seen = await agent.credentialTarget(p.ref, p.field, null);
          refuseUnfit(p, seen);
          if (!seen.focused) throw failure(CodeCredentialFieldUnfit, `${seen.description || p.ref} did not take focus; nothing was filled`);
          dispatched = true;
          await page.session.send("Input.insertText", { text: p.value });
          const held = await agent.credentialHolds(p.ref, p.value);
          if (held.holds) return;
          if (held.focused) throw notTaken(seen);
          // The page moved focus between the check and the insert: the
          // text went where focus is, which is cleared.
          await clearFocused(page);
          throw failure(CodeValueNotAccepted, `${seen.description || "the field"} lost focus before the value went in; the field that had focus instead was cleared (select all, Backspace)`, OutcomeUnknown);
        }
        // The scripting route serves the top document only (its refs are
        // the top frame's), whose origin is the tab's, checked above. The
        // DOM way, in one call (checked, focused, set, input and change).
        const target = await route.locate(p.ref);
        dispatched = true;
        const seen = await target.agent.credentialTarget(p.ref, p.field, p.value);
        if (!seen.fit) dispatched = false;
        refuseUnfit(p, seen);
        if (!(await target.agent.credentialHolds(p.ref, p.value)).holds) throw notTaken(seen, OutcomeDispatched);
      },
      () => !dispatched,
    );
  } catch (e) {
    throw fillFailure(e, dispatched);
  }
  return { filled: true };
}

/**
 * Select all, then Backspace, into whatever has focus (any frame): the
 * editing command rides with the key (Input.dispatchKeyEvent commands),
 * as Control+A alone selects nothing on macOS.
 */
async function clearFocused(page: Page): Promise<void> {
  const a = { key: "a", code: "KeyA", windowsVirtualKeyCode: 65, modifiers: CONTROL };
  const backspace = { key: "Backspace", code: "Backspace", windowsVirtualKeyCode: 8, modifiers: 0 };
  await page.session.send("Input.dispatchKeyEvent", { type: "rawKeyDown", ...a, commands: ["selectAll"] });
  await page.session.send("Input.dispatchKeyEvent", { type: "keyUp", ...a });
  await page.session.send("Input.dispatchKeyEvent", { type: "rawKeyDown", ...backspace });
  await page.session.send("Input.dispatchKeyEvent", { type: "keyUp", ...backspace });
}

/**
 * A field in a frame of another origin than the token's (a third party's
 * iframe on the login page) is no field for this value:
 * credential_field_unfit, whose recovery (the ref of the login form's own
 * field) is the way on; the token's tab and origin still hold.
 */
function refuseOtherOrigin(p: ExtCredentialFillParams, frameUrl: string): void {
  const origin = originOf(frameUrl);
  if (origin !== "" && origin === p.origin) return;
  throw failure(CodeCredentialFieldUnfit, `${p.ref} is in a frame of ${origin || "an opaque origin"}, not of the page's origin ${p.origin}; nothing was filled`, OutcomeNotStarted);
}

function refuseUnfit(p: ExtCredentialFillParams, seen: CredentialTarget): void {
  if (seen.fit) return;
  const what = seen.description || p.ref;
  throw failure(CodeCredentialFieldUnfit, `${what} is not a field for a ${p.field.replaceAll("_", "-")}: ${seen.why ?? "unfit"}; nothing was filled`, OutcomeNotStarted);
}

// The message never says what the field holds (the value, or a part of it).
function notTaken(seen: CredentialTarget, outcome: typeof OutcomeDispatched | typeof OutcomeUnknown = OutcomeUnknown): Failure {
  return failure(CodeValueNotAccepted, `${seen.description || "the field"} does not hold the value written; the page may limit or reformat it`, outcome);
}

/** A failure as the agent hears it; none names the value (a page agent or Chrome error names the call, never its arguments). */
function fillFailure(e: unknown, dispatched: boolean): Failure {
  if (e instanceof Failure) return e;
  if (e instanceof DialogOpened) return dialogFailure(e.dialog, dispatched ? OutcomeDispatched : OutcomeNotStarted);
  return failure(CodeInternal, `the credential fill failed: ${errorText(e)}`, dispatched ? OutcomeUnknown : OutcomeNotStarted);
}
