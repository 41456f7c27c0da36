// Where the worker reports what it cannot answer to anyone (event handling
// failures, a rejected handshake). Page content never goes here.

export interface Log {
  info(message: string): void;
  warn(message: string): void;
}

export const consoleLog: Log = {
  info: (m) => console.info(`AgentTab: ${m}`),
  warn: (m) => console.warn(`AgentTab: ${m}`),
};

export function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
