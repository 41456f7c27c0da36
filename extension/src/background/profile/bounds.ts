// Shared checks of browser_profile's operations: how many items a read
// answers, and the URLs a bookmark may hold. Source of truth:
// protocol/profile.go (DefaultProfileResults, MaxProfileResults).
import { CodeInvalidParams, CodeInvalidURL, DefaultProfileResults, MaxProfileResults, WebSchemes } from "../../protocol/generated";
import type { ProfileItem, ProfileRead } from "./items";
import { failure } from "../native/failure";

/** max_results, defaulted and checked (the host checks too). */
export function resultBound(maxResults: number | undefined): number {
  const n = maxResults ?? DefaultProfileResults;
  if (!Number.isInteger(n) || n < 1 || n > MaxProfileResults) throw failure(CodeInvalidParams, `max_results must be between 1 and ${MaxProfileResults}`);
  return n;
}

/** The first n items, and whether there were more. */
export function bounded(items: ProfileItem[], n: number): ProfileRead {
  return items.length > n ? { items: items.slice(0, n), truncated: true } : { items, truncated: false };
}

/** Whether url is an http(s) URL (what a restore reopens, and a bookmark may hold). */
export function isWebURL(url: string | undefined): boolean {
  if (url === undefined) return false;
  try {
    return WebSchemes.includes(new URL(url).protocol.slice(0, -1));
  } catch {
    return false;
  }
}

/**
 * A bookmark's URL: http(s) only. A javascript: bookmarklet is a script
 * the user might run later, and AgentTab writes no scripts (spec 000).
 * The URL itself is never echoed (it is the caller's private data).
 */
export function checkBookmarkURL(url: string | undefined): void {
  if (url !== undefined && !isWebURL(url)) throw failure(CodeInvalidURL, "a bookmark's url must be an absolute http(s) URL");
}
