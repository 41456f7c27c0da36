// The host's decision on a local file (protocol/localfiles.go). Only the
// host can resolve the symlinks that say where a file: path leads, so the
// extension asks it (NativeLocalFile) about every file: URL it would let
// load: a navigate step's target, a history entry, and each file:
// request an owned tab's page makes (origin-guard.ts). No answer is a
// refusal: a file nobody checked never loads.
import { CodeLocalFileDenied, NativeLocalFile } from "../../protocol/generated";
import type { LocalFileParams } from "../../protocol/generated";
import type { HostAnswer } from "../native/host-connection";
import { isFields } from "../fields";
import { errorText } from "../log";
import type { Refusal } from "./origins";

/** Why the host refuses url, or undefined when it admits it. */
export type LocalFileCheck = (url: string) => Promise<Refusal | undefined>;

/**
 * How long a paused file: request waits for the host. The host answers
 * from the disk at once; the bound only keeps a page from hanging on a
 * host that is gone.
 */
export const LOCAL_FILE_MS = 10_000;

/** Asks the host through ask (HostConnection.ask). */
export function askHost(ask: (method: string, params: unknown, timeoutMs: number) => Promise<HostAnswer>): LocalFileCheck {
  return async (url) => {
    const params: LocalFileParams = { url };
    let answer: HostAnswer;
    try {
      answer = await ask(NativeLocalFile, params, LOCAL_FILE_MS);
    } catch (e) {
      return { code: CodeLocalFileDenied, reason: `AgentTab could not ask its host about the local file: ${errorText(e)}` };
    }
    if ("error" in answer) {
      const message = answer.error["message"];
      return { code: CodeLocalFileDenied, reason: typeof message === "string" ? message : "the host refused the local file" };
    }
    if (isFields(answer.result) && answer.result["admitted"] === true) return undefined;
    return { code: CodeLocalFileDenied, reason: "the host's answer about the local file cannot be read" };
  };
}
