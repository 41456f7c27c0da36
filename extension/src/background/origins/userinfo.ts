// URLs as an agent sees them: without the user info ("user:password@").
// The host cuts it from every message the extension sends
// (internal/host/userinfo.go: the rule this follows, character for
// character, so that a URL cut here equals the one the agent was shown);
// Chrome keeps it: observed in Chromium 156, chrome.tabs reports a tab
// opened at http://user:pass@host/ with that URL, and the page a link
// there leads to with it too.

// Where an authority ends, as the host reads it: a path, query, fragment,
// white space, a quote or a backslash.
const AUTHORITY_END = /[/?#"\\ \t\r\n]/;

// Web schemes, whose user info is always cut (a bare user there is often a
// token); elsewhere only user info with a password is (ssh://git@host keeps
// its account name).
const CREDENTIAL_SCHEMES = new Set(["http", "https", "ws", "wss", "ftp"]);

/** The scheme that ends text (just before its "://"). */
function trailingScheme(text: string): string {
  const m = /[A-Za-z0-9+.-]*$/.exec(text);
  return (m?.[0] ?? "").toLowerCase();
}

/** s with the user info of every URL in it dropped. */
export function withoutUserinfo(s: string): string {
  let out = "";
  let rest = s;
  for (let i = rest.indexOf("://"); i >= 0; i = rest.indexOf("://")) {
    out += rest.slice(0, i + 3);
    rest = rest.slice(i + 3);
    const end = rest.search(AUTHORITY_END);
    const authority = end < 0 ? rest : rest.slice(0, end);
    const at = authority.lastIndexOf("@");
    const credential = authority.slice(0, at).includes(":") || CREDENTIAL_SCHEMES.has(trailingScheme(out.slice(0, -3)));
    if (at >= 0 && credential) rest = rest.slice(at + 1);
  }
  return out + rest;
}
