// The TypeScript side of internal/mcpserver's TestCoreClientConformance:
// one AgentTab (adapter "conf") on the state directory argv[2] for the
// agent session argv[3]; each stdin line is a call {tool, args}, each
// stdout line its result.
import { createInterface } from "node:readline";

import { AgentTab } from "../src/index";

const [stateDir, session] = process.argv.slice(2);
if (stateDir === undefined || session === undefined) {
  throw new Error("usage: conformance_driver STATE_DIR SESSION");
}
const at = AgentTab.open({ adapter: "conf", adapterVersion: "0", stateDir, session });
for await (const line of createInterface({ input: process.stdin })) {
  const { tool, args } = JSON.parse(line) as { tool: string; args: unknown };
  const result = await at.call(tool, args);
  process.stdout.write(JSON.stringify(result) + "\n");
}
await at.close();
