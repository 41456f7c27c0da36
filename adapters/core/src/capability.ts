// The resume capability, kept as internal/mcpserver/capability.go keeps
// it: in memory and in the adapter's own owner-only file, written durably
// before it is confirmed. The value never reaches a tool result, a log
// line, an error message or the console.
import { readPrivate, removeIfThere, writeDurably } from "./private";

export class CapabilityKeeper {
  private value: string | undefined;

  /** path is the adapter's own file; undefined keeps it in memory only. */
  constructor(readonly path: string | undefined) {}

  /** load reads what an earlier run kept; a file others could read is refused. */
  load(): void {
    if (this.path === undefined) {
      return;
    }
    const b = readPrivate(this.path);
    const v = b?.toString("utf8").trim();
    this.value = v === "" ? undefined : v;
  }

  current(): string | undefined {
    return this.value;
  }

  /** keep stores a newly issued capability durably, then in memory. */
  keep(capability: string): void {
    if (this.path !== undefined) {
      writeDurably(this.path, capability + "\n");
    }
    this.value = capability;
  }

  forget(): void {
    this.value = undefined;
    if (this.path !== undefined) {
      removeIfThere(this.path);
    }
  }
}
