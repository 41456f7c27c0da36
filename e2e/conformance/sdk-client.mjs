// The official MCP TypeScript SDK's Client against AgentTab, for
// e2e/mcp_conformance_test.go: tools/list, then browser_open on the page,
// browser_snapshot of the opened tab and browser_finish, in one MCP
// session. The SDK client checks each result's structuredContent against
// the tool's outputSchema (Client.callTool throws when it does not fit);
// the Go test asserts the rest on what this prints: one JSON object.
//
// Usage: node sdk-client.mjs stdio PAGE_URL AGENTTAB_BIN
//        node sdk-client.mjs http PAGE_URL MCP_URL   (bearer token in AGENTTAB_MCP_TOKEN)
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [mode, pageURL, target] = process.argv.slice(2);

function transport() {
  switch (mode) {
    case "stdio":
      // The SDK passes only a few variables by default; the adapter needs
      // AGENTTAB_STATE_DIR.
      return new StdioClientTransport({ command: target, args: ["mcp"], env: { ...process.env }, stderr: "inherit" });
    case "http":
      return new StreamableHTTPClientTransport(new URL(target), {
        requestInit: { headers: { Authorization: `Bearer ${process.env.AGENTTAB_MCP_TOKEN ?? ""}` } },
      });
    default:
      throw new Error(`mode ${mode}: want stdio or http`);
  }
}

const client = new Client({ name: "agenttab-conformance", version: "0" });
await client.connect(transport());
const { tools } = await client.listTools();
const open = await client.callTool({ name: "browser_open", arguments: { url: pageURL } });
const handle = open.structuredContent?.tab?.tab;
if (typeof handle !== "string") throw new Error(`browser_open gave no tab handle: ${JSON.stringify(open)}`);
const snapshot = await client.callTool({ name: "browser_snapshot", arguments: { tab: handle } });
const finish = await client.callTool({ name: "browser_finish", arguments: { close_tabs: true } });
await client.close();
process.stdout.write(
  JSON.stringify({
    server: client.getServerVersion(),
    tools: tools.map((t) => ({ name: t.name, hasOutputSchema: t.outputSchema !== undefined })),
    calls: { browser_open: open, browser_snapshot: snapshot, browser_finish: finish },
  }),
);
