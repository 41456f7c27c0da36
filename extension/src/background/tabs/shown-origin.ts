// The origin AgentTab shows the user for a tab (adoption requests, notices,
// stage previews): always the one Chrome reports for the tab, never one an
// agent or a page gives, and never a path or query.
import type { Tab } from "../../chrome/api";

/**
 * The tab's origin. Surfaces with an opaque origin (about:blank, data:,
 * file:, and non-special schemes, whose URL origin is "null") keep their
 * scheme, with the host when they have one, so the user still sees what
 * kind of page it is.
 */
export function shownOrigin(tab: Pick<Tab, "url" | "pendingUrl">): string {
  let u: URL;
  try {
    u = new URL(tab.url || tab.pendingUrl || "");
  } catch {
    return "";
  }
  if (u.origin !== "null") return u.origin;
  return u.host === "" ? u.protocol : `${u.protocol}//${u.host}`;
}
