// URL conditions of waits: exactly the URL, or a glob where * matches any
// run of characters (WaitCondition.url).

export function matchUrl(pattern: string, url: string): boolean {
  if (!pattern.includes("*")) return pattern === url;
  const re = pattern
    .split("*")
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  return new RegExp(`^${re}$`, "s").test(url);
}
