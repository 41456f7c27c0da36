// AgentTab: the one object an adapter holds (README.md). It owns the Core
// connection, the claimed private files and the key mapping of its task.
import { CapabilityKeeper } from "./capability";
import { claimAdapterFile } from "./claim";
import type { Claim } from "./claim";
import { Core } from "./core";
import { failAs } from "./errors";
import { AgentKeys, keysFileFor } from "./keys";
import { CodeInternal, CodeInvalidParams, OutcomeNotStarted, OutcomeUnknown, StandardTools } from "./protocol";
import { toolResult } from "./results";
import { endpoint, resolveStateDir } from "./statedir";
import { handlers } from "./tools";
import { tools } from "./tools.generated";
import type { ProtocolErrorData } from "./protocol";
import type { OpenOptions, ToolResult, ToolSpec } from "./types";
import { fault } from "./validate";

// standardSpecs: every Standard tool has a spec (TestToolsTSIsFresh and
// the unit tests hold the generated list to the registry).
const standardSpecs: readonly ToolSpec[] = StandardTools.map((name) => {
  const spec = tools.find((t) => t.name === name);
  if (spec === undefined) {
    throw new Error(`tools.generated.ts lacks the Standard tool ${name}: run go generate ./adapters/core`);
  }
  return spec;
});

export class AgentTab {
  private state: { core: Core; claim: Claim } | undefined;

  private constructor(private readonly opts: OpenOptions) {}

  /**
   * open makes the client; no I/O happens until the first call. The
   * session is required: the task's private files are bound to it
   * (claim.ts), so a new session never resumes another's task.
   */
  static open(opts: OpenOptions): AgentTab {
    if (typeof opts.session !== "string" || opts.session === "") {
      throw new Error("AgentTab.open: session must be the agent's session id (open AgentTab once the agent knows it)");
    }
    return new AgentTab(opts);
  }

  /** standardTools are protocol.StandardTools' specs, in spec 000's order (browser_developer is not one). */
  standardTools(): readonly ToolSpec[] {
    return standardSpecs;
  }

  /**
   * developerEnabled: true when the host's hello said Developer mode is on.
   * It dials if needed, for at most developerProbe, and never waits for a
   * host that went away (Core.probe).
   */
  async developerEnabled(): Promise<boolean> {
    return this.init().probe();
  }

  /**
   * call runs one tool as agenttab mcp's tools/call does and answers the
   * same result. Tool failures are isError results, never exceptions.
   */
  async call(name: string, args: unknown, signal?: AbortSignal): Promise<ToolResult> {
    const spec = tools.find((t) => t.name === name);
    const handler = handlers[name];
    if (spec === undefined || handler === undefined) {
      return toolResult(undefined, {
        code: CodeInvalidParams,
        outcome: OutcomeNotStarted,
        message: `no tool is named ${JSON.stringify(name)}`,
        recovery: "Call one of the tools AgentTab lists: " + this.standardTools().map((t) => t.name).join(", ") + ".",
      });
    }
    let in_: unknown = {};
    if (args !== undefined && args !== null) {
      try {
        in_ = JSON.parse(JSON.stringify(args)) as unknown;
      } catch (e) {
        return toolResult(undefined, invalidArgs(name, "", "the arguments are not JSON: " + (e instanceof Error ? e.message : String(e))));
      }
    }
    const f = fault(spec.inputSchema, in_);
    if (f !== undefined) {
      return toolResult(undefined, invalidArgs(name, f.field, f.detail));
    }
    let core: Core;
    try {
      core = this.init();
    } catch (e) {
      return toolResult(undefined, failAs(CodeInternal, OutcomeNotStarted, "AgentTab's adapter state: " + (e instanceof Error ? e.message : String(e))));
    }
    try {
      return await handler(core, in_ as Record<string, unknown>, signal);
    } catch (e) {
      return toolResult(undefined, failAs(CodeInternal, OutcomeUnknown, e instanceof Error ? e.message : String(e)));
    }
  }

  /** capabilityPath is the claimed capability file (for tests); the value itself is never exposed. */
  capabilityPath(): string | undefined {
    return this.state?.claim.capabilityPath;
  }

  /** close ends the connection and releases the claim on the private files. */
  async close(): Promise<void> {
    const s = this.state;
    this.state = undefined;
    s?.core.close();
    s?.claim.release();
  }

  // init claims the private files and loads what an earlier run kept.
  private init(): Core {
    if (this.state !== undefined) {
      return this.state.core;
    }
    const stateDir = this.opts.stateDir ?? resolveStateDir();
    const claim = claimAdapterFile(stateDir, this.opts.adapter, this.opts.session);
    try {
      const caps = new CapabilityKeeper(claim.capabilityPath);
      caps.load();
      const keys = new AgentKeys(keysFileFor(claim.capabilityPath));
      keys.load(caps.current() !== undefined);
      // The session is also the hello's conversation label (metadata only).
      const conversation = this.opts.session;
      const hello = () => {
        const p: { client_name: string; client_version?: string; conversation_id: string } = { client_name: "agenttab-" + this.opts.adapter, conversation_id: conversation };
        if (this.opts.adapterVersion !== "") {
          p.client_version = this.opts.adapterVersion;
        }
        return p;
      };
      const core = new Core(endpoint(stateDir), hello, caps, keys);
      this.state = { core, claim };
      return core;
    } catch (e) {
      claim.release();
      throw e;
    }
  }
}

// invalidArgs is args.go's: the arguments the schema refuses; nothing was sent.
function invalidArgs(tool: string, field: string, detail: string): ProtocolErrorData {
  if (field === "") {
    return {
      code: CodeInvalidParams,
      outcome: OutcomeNotStarted,
      message: "the arguments: " + detail,
      recovery: "Pass the arguments as one JSON object with the fields in " + tool + "'s input schema, then call it again.",
    };
  }
  return {
    code: CodeInvalidParams,
    outcome: OutcomeNotStarted,
    message: field + ": " + detail,
    recovery: "Fix " + field + " as " + tool + "'s input schema says (its type, allowed values and required fields), then call it again; nothing was done.",
  };
}
