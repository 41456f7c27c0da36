// A tab's automation route. Source of truth: DESIGN.md "Restricted
// surfaces" and spec 000: browser-owned surfaces are "tab_only" because
// Chrome refuses page scripting and the debugger there.
import { RouteFull, RouteTabOnly } from "../../protocol/generated";
import type { Route } from "../../protocol/generated";

const RESTRICTED_SCHEMES = new Set(["chrome:", "chrome-untrusted:", "chrome-extension:", "devtools:", "view-source:"]);

export function routeOf(url: string): Route {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    // No parsable URL yet (or ever): nothing proves page work is possible,
    // so fail closed.
    return RouteTabOnly;
  }
  if (RESTRICTED_SCHEMES.has(u.protocol)) return RouteTabOnly;
  // about:blank (with any query or fragment) is an ordinary empty document;
  // every other about: page belongs to the browser.
  if (u.protocol === "about:") return u.pathname === "blank" ? RouteFull : RouteTabOnly;
  if (isWebStore(u)) return RouteTabOnly;
  return RouteFull;
}

// The Chrome Web Store, old and new. Chrome blocks extensions there by
// origin (new store) and by the /webstore path prefix (old store); the
// prefix is matched without a slash to stay on the restricted side.
function isWebStore(u: URL): boolean {
  if (u.protocol !== "https:" && u.protocol !== "http:") return false;
  if (u.hostname === "chromewebstore.google.com") return true;
  return u.hostname === "chrome.google.com" && u.pathname.startsWith("/webstore");
}
