// The upload_file step (issue 13; spec 000's upload paragraphs): sets the
// host's staged copy of a local file on an <input type=file> through the
// debugger (DOM.setFileInputFiles), as a person's file chooser would. The
// host admitted and copied the file (internal/upload); step.path names the
// copy, STATE/uploads/<random>/<the file's own name>, so the page sees the
// user's file name. No note or error here quotes the path: receipts reach
// the agent and the audit; the file's name is what the person chose.
import { CodeInvalidParams, CodeTargetNotActionable, OutcomeConfirmed, OutcomeDispatched, OutcomeNotStarted } from "../../protocol/generated";
import type { Step } from "../../protocol/generated";
import { fieldsOf } from "../cdp/read";
import { Failure } from "../native/failure";
import type { Page } from "../pagework/page-tab";
import { withElement } from "./key-guard";
import type { Progress } from "./receipts";
import type { Done } from "./typing";

/** The name a staged copy keeps: the last part of its path (the host keeps the user's file name). */
export function fileName(path: string): string {
  const parts = path.split(/[\\/]/);
  return parts[parts.length - 1] ?? "";
}

/** What the element is, read in its document before and after. */
interface FileInput {
  file: boolean;
  disabled: boolean;
  count: number;
  names: string[];
}

/**
 * Runs in the page agent's world on the target (Runtime.callFunctionOn,
 * serialized: it uses nothing outside itself).
 */
function readInput(this: Element): FileInput {
  const file = this instanceof HTMLInputElement && this.type === "file";
  const files = file && this instanceof HTMLInputElement ? this.files : null;
  const names: string[] = [];
  for (let i = 0; files !== null && i < files.length; i++) names.push(files[i]?.name ?? "");
  return { file, disabled: this instanceof HTMLInputElement && this.disabled, count: names.length, names };
}

function asFileInput(v: unknown): FileInput {
  const f = fieldsOf(fieldsOf(v, "the file input")["value"], "the file input's value");
  const names = Array.isArray(f["names"]) ? f["names"].filter((n): n is string => typeof n === "string") : [];
  return { file: f["file"] === true, disabled: f["disabled"] === true, count: typeof f["count"] === "number" ? f["count"] : 0, names };
}

/**
 * Sets the staged copy on ref's file input. A file input is often drawn
 * invisible behind a styled label (a person clicks the label and picks in
 * the chooser), so it is not required to be shown, only to be a file
 * input that is not disabled. Chrome fires input and change on the
 * element itself (DOM.setFileInputFiles; observed in Chromium 156).
 */
export async function uploadFile(page: Page, progress: Progress, step: Step): Promise<Done> {
  const ref = step.ref ?? "";
  const path = step.path ?? "";
  const name = fileName(path);
  if (path === "" || name === "") throw new Failure(CodeInvalidParams, OutcomeNotStarted, "the upload_file step has no staged file", "Pass path, the absolute path of the file to upload.");
  const { frame } = await page.locate(ref);
  const { sessionId } = frame;
  const read = (objectId: string): Promise<FileInput> =>
    page.session.send("Runtime.callFunctionOn", { functionDeclaration: readInput.toString(), objectId, returnByValue: true }, { sessionId }).then((r) => asFileInput(r["result"]));
  const done = await withElement(page, frame, (elements) => elements.element(ref), async (objectId): Promise<Done> => {
    const before = await read(objectId);
    if (!before.file) throw new Failure(CodeTargetNotActionable, OutcomeNotStarted, `${ref} is not a file input (<input type=file>)`, "Take a fresh snapshot and pass the ref of the page's file input (often labelled Choose file, Browse or Upload).");
    if (before.disabled) throw new Failure(CodeTargetNotActionable, OutcomeNotStarted, `${ref} is a disabled file input`, "Wait until the page enables it, then retry.");
    progress.dispatched = true;
    try {
      await page.session.send("DOM.setFileInputFiles", { files: [path], objectId }, { sessionId });
    } catch {
      // Chrome's message may quote the path; the step's own words instead.
      throw new Failure(CodeTargetNotActionable, OutcomeNotStarted, `Chrome did not set the file on ${ref}`, "Take a fresh snapshot and retry; if it fails again, hand the upload to the user with browser_handoff.");
    }
    const after = await read(objectId).catch(() => undefined);
    const confirmed = after !== undefined && after.count === 1 && after.names[0] === name;
    return { outcome: confirmed ? OutcomeConfirmed : OutcomeDispatched, note: confirmed ? `set ${JSON.stringify(name)} on the file input` : `asked Chrome to set ${JSON.stringify(name)} on the file input; it does not read back` };
  });
  if (done === undefined) throw new Failure(CodeTargetNotActionable, OutcomeNotStarted, `${ref} is gone from the page`, "Take a fresh snapshot and retry.");
  return done;
}
