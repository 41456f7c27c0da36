import { test } from "node:test";
import assert from "node:assert/strict";
import type { OriginEntry, OriginPolicy, OriginScheme } from "../../protocol/generated";
import { constrained, isLocalFile, isWeb, NO_POLICY, refusal } from "./origins";

// Entries as the host sends them (canonical; internal/policy parses the file).
const e = (scheme: OriginScheme, host: string, port = 0, subdomains = false): OriginEntry => ({ scheme, host, port, subdomains });

const allowOnly: OriginPolicy = {
  allowed: [e("https", "example.com", 0, true), e("http", "localhost", 3000), e("http", "127.0.0.1"), e("http", "[::1]")],
  denied: [],
};
const denyOnly: OriginPolicy = { allowed: [], denied: [e("https", "evil.com"), e("https", "bad.org", 0, true), e("http", "localhost", 8080)] };
const both: OriginPolicy = { allowed: [e("https", "example.com", 0, true)], denied: [e("https", "pay.example.com")] };

// The twin of internal/policy's TestCheck, on URLs as Chrome writes them.
test("the policy decides each URL as the host does", () => {
  const cases: [string, OriginPolicy, string, "" | "denied" | "unverifiable", string][] = [
    ["no policy admits everything", NO_POLICY, "chrome://settings/", "", ""],
    ["allowed apex", allowOnly, "https://example.com/a?b#c", "", ""],
    ["allowed subdomain", allowOnly, "https://deep.www.example.com/", "", ""],
    ["allowed, any port", allowOnly, "https://example.com:8443/", "", ""],
    ["scheme must match", allowOnly, "http://example.com/", "denied", "http://example.com is not in origins.allowed"],
    ["suffix is not a subdomain", allowOnly, "https://notexample.com/", "denied", "not in origins.allowed"],
    ["port must match", allowOnly, "http://localhost:3001/", "denied", "http://localhost:3001 is not in origins.allowed"],
    ["port matches", allowOnly, "http://localhost:3000/x", "", ""],
    ["no port in the entry, any port", allowOnly, "http://127.0.0.1:9/", "", ""],
    ["ipv6", allowOnly, "http://[0::1]:5/", "", ""],
    ["Chrome canonicalises the host", allowOnly, "https://WWW.Example.COM/", "", ""],
    ["numeric IPv4 as Chrome reads it", allowOnly, "http://0x7f.1/", "", ""],
    ["trailing dot is the same host", allowOnly, "https://www.example.com./", "", ""],
    ["browser page cannot match an allow list", allowOnly, "chrome://settings/", "denied", "a chrome: page cannot match origins.allowed"],
    ["about:blank cannot match an allow list", allowOnly, "about:blank", "denied", "cannot match"],
    ["view-source checks the page it loads", allowOnly, "view-source:https://other.test/", "denied", "https://other.test is not in origins.allowed"],
    ["denied host", denyOnly, "https://evil.com/x", "denied", "https://evil.com is denied by the origins.denied entry https://evil.com"],
    ["deny is per scheme", denyOnly, "http://evil.com/", "", ""],
    ["denied wildcard apex", denyOnly, "https://bad.org/", "denied", "entry https://*.bad.org"],
    ["denied wildcard subdomain", denyOnly, "https://x.y.bad.org/", "denied", "entry https://*.bad.org"],
    ["denied exact host keeps subdomains", denyOnly, "https://www.evil.com/", "", ""],
    ["denied port only", denyOnly, "http://localhost:8080/", "denied", "http://localhost:8080 is denied"],
    ["deny-only admits browser pages", denyOnly, "chrome://settings/", "", ""],
    ["trailing dot does not escape a deny", denyOnly, "https://evil.com./", "denied", "denied by"],
    ["punycode does not escape a deny", { allowed: [], denied: [e("https", "xn--bcher-kva.de")] }, "https://bücher.de/", "denied", "denied by"],
    ["denied wins over allowed", both, "https://pay.example.com/", "denied", "denied by"],
    ["allowed beside the denied one", both, "https://www.example.com/", "", ""],
    ["an unparsable URL cannot be checked", denyOnly, "", "unverifiable", "does not parse"],
  ];
  for (const [name, policy, url, want, reason] of cases) {
    const r = refusal(policy, url);
    const got = r === undefined ? "" : r.code === "origin_policy_unverifiable" ? "unverifiable" : "denied";
    assert.equal(got, want, `${name}: ${url} → ${JSON.stringify(r)}`);
    if (r !== undefined) assert.ok(r.reason.includes(reason), `${name}: reason ${JSON.stringify(r.reason)} lacks ${JSON.stringify(reason)}`);
  }
});

test("only a policy with entries constrains, and only http(s) pages are web pages", () => {
  assert.equal(constrained(NO_POLICY), false);
  assert.equal(constrained(denyOnly), true);
  assert.equal(constrained(allowOnly), true);
  assert.deepEqual(["https://a.test/", "HTTP://a.test/", "about:blank", "chrome://settings/", "view-source:https://a.test/"].map(isWeb), [true, true, false, false, false]);
});

// Issue 9: a local file is refused with or without a policy, in every
// spelling Chrome reads as one.
test("a local file is local_file_denied whatever the policy", () => {
  const local = [
    "file:///etc/passwd",
    "FILE:///etc/passwd",
    "file:/etc/passwd",
    "file://localhost/etc/passwd",
    "file://server/share/x",
    "file:///%65tc/passwd",
    " \tfile:///etc/passwd",
    "fi\tle:///etc/passwd",
    "fi\nle:///etc/passwd",
    "file://[bad/etc/passwd",
    "view-source:file:///etc/passwd",
    "VIEW-SOURCE:File:/etc/passwd",
    "view-source:view-source:file:///x",
  ];
  for (const url of local) {
    assert.equal(isLocalFile(url), true, url);
    for (const p of [NO_POLICY, denyOnly, allowOnly]) assert.equal(refusal(p, url)?.code, "local_file_denied", `${url} under ${JSON.stringify(p)}`);
  }
  for (const url of ["https://a.test/file:///x", "view-source:https://a.test/", "filesystem:file:///x", "about:blank", "data:,file:", "files:///x", ""]) {
    assert.equal(isLocalFile(url), false, url);
  }
});
