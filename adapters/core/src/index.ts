// The Core client's API (README.md): what the Pi and OMP adapters import.
export { tools, instructions } from "./tools.generated";
export type { ToolSpec, ToolResult, OpenOptions, Content } from "./types";
export { agentContent } from "./agentcontent";
export type { AgentContent } from "./agentcontent";
export { AgentTab } from "./agenttab";
export { card } from "./card";
