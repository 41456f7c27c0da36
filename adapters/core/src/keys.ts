// Idempotency keys, exactly as internal/mcpserver/agentkeys.go maps them
// (read its comment for why): an agent's key that is a UUIDv7 goes as it
// is; any other key maps to the task's UUIDv7 for it through the task's
// seed (its time in the 48-bit timestamp, HMAC-SHA256(secret, key) in the
// random bits, RFC 9562 §5.7); no key → a fresh UUIDv7. The seed is kept
// beside the capability (.keys) and dropped with it.
import { createHmac, randomBytes } from "node:crypto";

import { adapterConstants } from "./tools.generated";
import { readPrivate, removeIfThere, writeDurably } from "./private";
import { CodeInternal, CodeInvalidParams, OutcomeNotStarted } from "./protocol";
import { ProtocolError } from "./errors";

const { maxAgentKey, exampleAgentKey } = adapterConstants;

interface KeySeed {
  secret: Buffer; // 32 bytes
  unixMs: number;
}

/** keysFileFor is agentkeys.go's keysFileFor: the seed beside the capability. */
export function keysFileFor(capabilityPath: string): string {
  return capabilityPath.replace(/\.capability$/, "") + ".keys";
}

export class AgentKeys {
  private seed: KeySeed | undefined;

  /** path is the seed's file; undefined keeps it in memory only. */
  constructor(private readonly path: string | undefined) {}

  /** load reads the seed an earlier run left; without a kept task it is removed. */
  load(taskKept: boolean): void {
    if (this.path === undefined) {
      return;
    }
    if (!taskKept) {
      removeIfThere(this.path);
      return;
    }
    const b = readPrivate(this.path);
    if (b === undefined) {
      return;
    }
    const seed = parseSeed(b.toString("utf8"));
    if (seed === undefined) {
      throw new Error(`${this.path} is not a key seed AgentTab wrote; remove it (retries of this task's earlier calls then run again)`);
    }
    this.seed = seed;
  }

  /** coreKey is the key to send for the agent's key (agentkeys.go coreKey). */
  coreKey(agentKey: string | undefined): string {
    if (agentKey === undefined || agentKey === "") {
      return newUUIDv7();
    }
    if (isUUIDv7(agentKey)) {
      return agentKey;
    }
    checkAgentKey(agentKey);
    if (this.seed === undefined) {
      const s: KeySeed = { secret: randomBytes(32), unixMs: Date.now() };
      try {
        if (this.path !== undefined) {
          writeDurably(this.path, JSON.stringify({ secret: s.secret.toString("base64"), unix_ms: s.unixMs }) + "\n");
        }
      } catch (e) {
        throw new ProtocolError({
          code: CodeInternal,
          outcome: OutcomeNotStarted,
          message: "the adapter could not keep its record of idempotency keys: " + (e instanceof Error ? e.message : String(e)),
          recovery: "Retry the call; if this repeats, omit idempotency_key (a retry may then run the call again).",
        });
      }
      this.seed = s;
    }
    return uuidFor(this.seed, agentKey);
  }

  /** forget drops the task's seed once the task is over. */
  forget(): void {
    this.seed = undefined;
    if (this.path !== undefined) {
      removeIfThere(this.path);
    }
  }
}

function parseSeed(text: string): KeySeed | undefined {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof v !== "object" || v === null || Array.isArray(v)) {
    return undefined;
  }
  const o = v as Record<string, unknown>;
  if (Object.keys(o).some((k) => k !== "secret" && k !== "unix_ms")) {
    return undefined; // DisallowUnknownFields
  }
  const secret = typeof o["secret"] === "string" ? Buffer.from(o["secret"], "base64") : undefined;
  const unixMs = o["unix_ms"];
  if (secret === undefined || secret.length !== 32 || typeof unixMs !== "number" || !Number.isInteger(unixMs) || unixMs < 0 || unixMs >= 2 ** 48) {
    return undefined;
  }
  return { secret, unixMs };
}

/** uuidFor is keySeed.uuidFor: unix_ts_ms, ver 7, rand_a, var 10, rand_b. */
export function uuidFor(seed: { secret: Buffer; unixMs: number }, agentKey: string): string {
  const sum = createHmac("sha256", seed.secret).update(agentKey, "utf8").digest();
  const id = Buffer.alloc(16);
  id.writeUIntBE(seed.unixMs, 0, 6);
  sum.copy(id, 6, 0, 10);
  return format(id);
}

/** newUUIDv7 is a fresh UUIDv7 (uuid.NewV7): the time, then random bits. */
export function newUUIDv7(): string {
  const id = randomBytes(16);
  id.writeUIntBE(Date.now(), 0, 6);
  return format(id);
}

function format(id: Buffer): string {
  id[6] = 0x70 | ((id[6] ?? 0) & 0x0f); // version 7
  id[8] = 0x80 | ((id[8] ?? 0) & 0x3f); // variant 10 (RFC 9562)
  const h = id.toString("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** isUUIDv7 is protocol.IsUUIDv7: lower-case, version 7, variant 10. */
export function isUUIDv7(key: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(key);
}

// checkAgentKey refuses a key no agent means: too long (in UTF-8 bytes),
// or holding control characters (Go's unicode.IsControl: C0, DEL, C1).
function checkAgentKey(key: string): void {
  const bytes = Buffer.byteLength(key, "utf8");
  // eslint-disable-next-line no-control-regex
  if (bytes <= maxAgentKey && !/[\u0000-\u001f\u007f-\u009f]/.test(key)) {
    return;
  }
  throw new ProtocolError({
    code: CodeInvalidParams,
    outcome: OutcomeNotStarted,
    message: `idempotency_key must be at most ${maxAgentKey} bytes with no control characters (got ${bytes} bytes)`,
    recovery: `Pass a short key of your own, such as ${JSON.stringify(exampleAgentKey)}, and repeat it only to retry the same call; or omit idempotency_key.`,
  });
}
