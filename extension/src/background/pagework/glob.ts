// URL conditions of waits: exactly the URL, or a glob where * matches any
// run of characters (WaitCondition.url). Both sides are compared without
// their user info (userinfo.ts): the agent is shown every URL without it,
// while Chrome's tab URL keeps it.
import { withoutUserinfo } from "../origins/userinfo";

export function matchUrl(rawPattern: string, rawUrl: string): boolean {
  const pattern = withoutUserinfo(rawPattern);
  const url = withoutUserinfo(rawUrl);
  if (!pattern.includes("*")) return pattern === url;
  const re = pattern
    .split("*")
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  return new RegExp(`^${re}$`, "s").test(url);
}
