// The TypeScript side of e2e's BenchmarkAdapterRoundTrip: one AgentTab
// (adapter "bench") on the state directory argv[2] for the agent session
// argv[3]. Each stdin line {tool, args, n} runs the tool n times in a row
// in this process, each call timed with performance.now(), and answers one
// stdout line {samples (ms), rss and maxRSS (bytes, after the loop), last
// (the last result)}, or {error} with the failing result. Times are taken
// here so that the pipe to Go is not in them.
import { createInterface } from "node:readline";

import { AgentTab } from "../src/index";
import type { ToolResult } from "../src/index";

interface Request {
  tool: string;
  args: unknown;
  n: number;
}

const [stateDir, session] = process.argv.slice(2);
if (stateDir === undefined || session === undefined) {
  throw new Error("usage: bench_driver STATE_DIR SESSION");
}
const at = AgentTab.open({ adapter: "bench", adapterVersion: "0", stateDir, session });
for await (const line of createInterface({ input: process.stdin })) {
  const { tool, args, n } = JSON.parse(line) as Request;
  const samples: number[] = [];
  let last: ToolResult | undefined;
  let failed: ToolResult | undefined;
  for (let i = 0; i < n && failed === undefined; i++) {
    const start = performance.now();
    last = await at.call(tool, args);
    samples.push(performance.now() - start);
    if (last.isError) {
      failed = last;
    }
  }
  const answer =
    failed !== undefined
      ? { error: failed }
      : {
          samples,
          rss: process.memoryUsage().rss,
          // resourceUsage().maxRSS is in kilobytes.
          maxRSS: process.resourceUsage().maxRSS * 1024,
          last,
        };
  process.stdout.write(JSON.stringify(answer) + "\n");
}
await at.close();
