// Failures as the Go adapter makes them (protocol.Error and its
// catalogue; mcpserver's hostUnreachable; corerpc's ErrClosed/ErrLost).
import { adapterConstants } from "./tools.generated";
import { CodeHostUnavailable, ErrorCatalogue } from "./protocol";
import type { ErrorCode, Outcome, ProtocolErrorData } from "./protocol";

/** ProtocolError carries a protocol.Error: the host's, or one made here. */
export class ProtocolError extends Error {
  constructor(readonly data: ProtocolErrorData) {
    super(`${data.code}: ${data.message}`);
  }
}

/**
 * ClosedError is corerpc.ErrClosed: the connection had ended before the
 * request went out, or the host said farewell (connection_idle) without
 * reading it. Nothing ran; it may be sent again on a new connection.
 */
export class ClosedError extends Error {
  constructor(detail: string) {
    super("core rpc: connection closed: " + detail);
  }
}

/** LostError is corerpc.ErrLost: the request may have gone out and run; its outcome is unknown. */
export class LostError extends Error {
  constructor(detail: string) {
    super("core rpc: " + detail);
  }
}

/** failAs is protocol.FailAs: the catalogue's recovery, the site's outcome. */
export function failAs(code: ErrorCode, outcome: Outcome, message: string): ProtocolErrorData {
  return { code, message, recovery: ErrorCatalogue[code].recovery, outcome };
}

/** hostUnreachable is mcpserver's: the same message and recovery. */
export function hostUnreachable(outcome: Outcome): ProtocolErrorData {
  return { code: CodeHostUnavailable, message: adapterConstants.hostUnreachableMessage, recovery: adapterConstants.hostUnreachableRecovery, outcome };
}
