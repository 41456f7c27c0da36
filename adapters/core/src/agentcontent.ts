// What an agent's model receives from one AgentTab call, for an agent
// whose tool results hold only text and images (Pi, OMP). Spec 000: cards
// are collapsed, the agent still receives everything: every text block as
// it is, every image as an image, and a resource link (a screenshot's
// agenttab://blob URI) as one text line naming it, the line an agent reads
// in place of MCP's resource_link. One mapping, so Pi and OMP agree.
import type { ImageContent, TextContent, ToolResult } from "./types";

export type AgentContent = TextContent | ImageContent;

export function agentContent(result: ToolResult): AgentContent[] {
  return result.content.map((block): AgentContent => {
    switch (block.type) {
      case "text":
        return { type: "text", text: block.text };
      case "image":
        return { type: "image", data: block.data, mimeType: block.mimeType };
      case "resource_link":
        return { type: "text", text: resourceLinkLine(block.name, block.uri, block.mimeType, block.size) };
    }
  });
}

// resourceLinkLine: "resource_link screenshot: agenttab://blob/1 (image/png, 3 bytes)".
function resourceLinkLine(name: string, uri: string, mimeType: string | undefined, size: number | undefined): string {
  const about = [mimeType ?? "", size === undefined ? "" : `${size} bytes`].filter((s) => s !== "");
  return `resource_link ${name}: ${uri}` + (about.length > 0 ? ` (${about.join(", ")})` : "");
}
