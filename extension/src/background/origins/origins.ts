// The managed origin policy's decision on a URL. Source of truth: DESIGN.md
// "Origin policy" (denied wins; a non-empty allow list admits only its
// entries) and spec 000 (browser-owned non-HTTP pages cannot match an
// origin allowlist). It is the twin of internal/policy/admit.go (Check),
// made on URLs as Chrome canonicalised them (WHATWG URL: lowercase,
// punycode, IPv4 in dotted-quad form), so it needs no unverifiable case
// beyond a URL that does not parse. The entries arrive canonical from the
// host (protocol/origins.go).
//
// A local file is no origin: origin lists never admit one. What this
// decides alone, without the host, refuses it (issue 9,
// protocol/localfiles.go); only the host, asked through local-files.ts,
// admits a plain file: URL, inside a folder the user's policy admits.
import { CodeLocalFileDenied, CodeOriginPolicyDenied, CodeOriginPolicyUnverifiable, LocalFileNoRoots, LocalFileViewSource } from "../../protocol/generated";
import type { OriginEntry, OriginPolicy } from "../../protocol/generated";

export interface Refusal {
  /**
   * origin_policy_unverifiable: the URL cannot be checked (it does not
   * parse); local_file_denied: it shows a local file; otherwise denied.
   */
  code: typeof CodeOriginPolicyDenied | typeof CodeOriginPolicyUnverifiable | typeof CodeLocalFileDenied;
  reason: string;
}

export const NO_POLICY: OriginPolicy = { allowed: [], denied: [] };

/** Whether the policy allows or denies anything at all. */
export function constrained(p: OriginPolicy): boolean {
  return p.allowed.length > 0 || p.denied.length > 0;
}

/** Why the policy does not admit url, or undefined when it does. */
export function refusal(p: OriginPolicy, url: string): Refusal | undefined {
  if (isLocalFile(url)) return { code: CodeLocalFileDenied, reason: isFile(url) ? LocalFileNoRoots : LocalFileViewSource };
  if (!constrained(p)) return undefined;
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return { code: CodeOriginPolicyUnverifiable, reason: `${JSON.stringify(url)} does not parse as a URL` };
  }
  const scheme = u.protocol.slice(0, -1);
  // view-source: loads the page it shows.
  if (scheme === "view-source") return refusal(p, url.slice(url.indexOf(":") + 1));
  if (scheme !== "http" && scheme !== "https") {
    if (p.allowed.length === 0) return undefined;
    return { code: CodeOriginPolicyDenied, reason: `a ${scheme}: page cannot match origins.allowed, which names only http and https origins` };
  }
  // "example.com." is example.com to DNS: a trailing dot must not walk around a deny.
  const host = u.hostname.replace(/\.$/, "");
  const port = u.port === "" ? defaultPort(scheme) : Number(u.port);
  const origin = `${scheme}://${host}${port === defaultPort(scheme) ? "" : `:${port}`}`;
  const denied = p.denied.find((e) => matches(e, scheme, host, port));
  if (denied !== undefined) return { code: CodeOriginPolicyDenied, reason: `${origin} is denied by the origins.denied entry ${entryText(denied)}` };
  if (p.allowed.length === 0 || p.allowed.some((e) => matches(e, scheme, host, port))) return undefined;
  return { code: CodeOriginPolicyDenied, reason: `${origin} is not in origins.allowed` };
}

/**
 * Whether url shows a local file as Chrome reads it: a file: URL (WHATWG
 * URL parsing drops the tabs, newlines and leading spaces Chrome drops,
 * and lowercases the scheme), or view-source: of one, which shows the
 * file too. A URL that does not parse is judged by the text before its
 * first colon.
 */
export function isLocalFile(url: string): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return /^[\s\u0000-\u001f]*file:/i.test(url);
  }
  if (u.protocol === "file:") return true;
  return u.protocol === "view-source:" && isLocalFile(u.href.slice(u.protocol.length));
}

/**
 * Whether url is a plain file: URL as Chrome reads it: what the host may
 * admit (never view-source: of one).
 */
export function isFile(url: string): boolean {
  try {
    return new URL(url).protocol === "file:";
  } catch {
    return false;
  }
}

/** url without its fragment, which names a place in the same document. */
export function withoutFragment(url: string): string {
  const i = url.indexOf("#");
  return i < 0 ? url : url.slice(0, i);
}

/** Whether url is a web page (http or https), the only pages an origin entry can name. */
export function isWeb(url: string): boolean {
  return /^https?:/i.test(url);
}

function matches(e: OriginEntry, scheme: string, host: string, port: number): boolean {
  if (e.scheme !== scheme || (e.port !== 0 && e.port !== port)) return false;
  return host === e.host || (e.subdomains && host.endsWith(`.${e.host}`));
}

function entryText(e: OriginEntry): string {
  return `${e.scheme}://${e.subdomains ? "*." : ""}${e.host}${e.port === 0 ? "" : `:${e.port}`}`;
}

function defaultPort(scheme: string): number {
  return scheme === "https" ? 443 : 80;
}
