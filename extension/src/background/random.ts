// Random handles and digests from the Web Crypto global the service worker
// has (crypto, not chrome.*): the review handles and fingerprints of Commit
// stages (review/stage.ts) and the ids of challenges (challenges/). Source
// of truth: protocol/commit.go ExtStage (32 random bytes, hex SHA-256).

/** bytes random bytes from crypto.getRandomValues, as lower-case hex. */
export function randomHex(bytes: number): string {
  return hex(crypto.getRandomValues(new Uint8Array(bytes)));
}

/** The hex SHA-256 of text's UTF-8 bytes. */
export async function sha256Hex(text: string): Promise<string> {
  return hex(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text))));
}

function hex(b: Uint8Array): string {
  return Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
}
