// The TypeScript side of internal/mcpserver's TestCoreClientConformance:
// one AgentTab on the state directory argv[2]; each stdin line is a call
// {tool, args}, each stdout line its result.
import { createInterface } from "node:readline";

import { AgentTab } from "../src/index";

const stateDir = process.argv[2];
if (stateDir === undefined) {
  throw new Error("usage: conformance_driver STATE_DIR");
}
const at = AgentTab.open({ adapter: "conf", adapterVersion: "0", stateDir });
for await (const line of createInterface({ input: process.stdin })) {
  const { tool, args } = JSON.parse(line) as { tool: string; args: unknown };
  const result = await at.call(tool, args);
  process.stdout.write(JSON.stringify(result) + "\n");
}
await at.close();
