// The shapes the adapters code against (README.md). ToolSpec's fields are
// the ones internal/mcpserver.ToolSpec writes into tools.generated.ts.

export interface ToolSpec {
  name: string;
  title: string;
  description: string;
  inputSchema: Record<string, unknown>;
  developerOnly: boolean;
  readOnly: boolean;
}

export type TextContent = { type: "text"; text: string };
export type ImageContent = { type: "image"; data: string; mimeType: string };
export type ResourceLink = { type: "resource_link"; uri: string; name: string; mimeType?: string; size?: number };
export type Content = TextContent | ImageContent | ResourceLink;

/** What agenttab mcp's tools/call answers, in the same shape. */
export interface ToolResult {
  isError: boolean;
  content: Content[];
  structuredContent: Record<string, unknown> | undefined;
}

export interface OpenOptions {
  /** "pi" | "omp": names the private files under STATE/adapters/. */
  adapter: string;
  adapterVersion: string;
  /**
   * The agent's session (conversation) id. The task's private files are
   * bound to it (STATE/adapters/<adapter>-<first 16 hex of its SHA-256>),
   * so only the same session resumes the task; it is also the hello's
   * conversation_id. Open AgentTab once the agent knows it.
   */
  session: string;
  stateDir?: string;
}
