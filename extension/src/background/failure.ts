// A Failure carries the protocol's one failure shape (protocol.Error) from a
// handler to the native response.
import type { Error as ProtocolError, ErrorCode, Outcome } from "../protocol/generated";

export class Failure extends Error {
  readonly detail: ProtocolError;

  constructor(code: ErrorCode, outcome: Outcome, message: string, recovery: string) {
    super(`${code}: ${message}`);
    this.name = "Failure";
    this.detail = { code, message, recovery, outcome };
  }
}
