// A Failure carries the protocol's one failure shape (protocol.Error) from a
// handler to the native response. Recovery texts and default outcomes come
// from the error catalogue (protocol/errors.go, generated): `failure` takes
// both from there; the constructor is for a site whose recovery says
// something more specific than the catalogue's.
import { ErrorCatalogue } from "../../protocol/generated";
import type { Error as ProtocolError, ErrorCode, Outcome } from "../../protocol/generated";

export class Failure extends Error {
  readonly detail: ProtocolError;

  constructor(code: ErrorCode, outcome: Outcome, message: string, recovery: string) {
    super(`${code}: ${message}`);
    this.name = "Failure";
    this.detail = { code, message, recovery, outcome };
  }
}

/** The failure of code with the catalogue's recovery, and its outcome unless the site knows better (dispatched, unknown). */
export function failure(code: ErrorCode, message: string, outcome?: Outcome): Failure {
  const entry = ErrorCatalogue[code];
  return new Failure(code, outcome ?? entry.outcome, message, entry.recovery);
}
