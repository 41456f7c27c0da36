// Random handles and digests from the Web Crypto global the service worker
// has (crypto, not chrome.*): the review handles and fingerprints of Commit
// stages (review/stage.ts) and the ids of challenges (challenges/). Source
// of truth: protocol/commit.go ExtStage (32 random bytes; fingerprint and
// preview digest hex HMAC-SHA-256 keyed by the review handle).

/** bytes random bytes from crypto.getRandomValues, as lower-case hex. */
export function randomHex(bytes: number): string {
  return hex(crypto.getRandomValues(new Uint8Array(bytes)));
}

/** The hex SHA-256 of text's UTF-8 bytes. */
export async function sha256Hex(text: string): Promise<string> {
  return hex(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text))));
}

/** The hex HMAC-SHA-256 of text's UTF-8 bytes, keyed by key's UTF-8 bytes. */
export async function hmacHex(key: string, text: string): Promise<string> {
  const enc = new TextEncoder();
  const k = await crypto.subtle.importKey("raw", enc.encode(key), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return hex(new Uint8Array(await crypto.subtle.sign("HMAC", k, enc.encode(text))));
}

function hex(b: Uint8Array): string {
  return Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
}
