// The one place the adapters reach package protocol: its generated
// TypeScript twin (internal/tsgen writes it for the extension). Codes,
// outcomes, lifecycles, method names and the error catalogue come from
// there, never from a copy.
export * from "../../../extension/src/protocol/generated";
export type { Error as ProtocolErrorData } from "../../../extension/src/protocol/generated";
