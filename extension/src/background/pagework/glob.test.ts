import { test } from "node:test";
import assert from "node:assert/strict";
import { matchUrl } from "./glob";

test("a URL without * matches only itself", () => {
  assert.ok(matchUrl("https://a.test/x?y=1", "https://a.test/x?y=1"));
  assert.ok(!matchUrl("https://a.test/x", "https://a.test/x/"));
  assert.ok(!matchUrl("https://a.test/x", "https://a.test/x?y"));
});

test("* matches any run of characters, the rest literally", () => {
  assert.ok(matchUrl("https://a.test/*", "https://a.test/"));
  assert.ok(matchUrl("https://a.test/*", "https://a.test/deep/path?q=1#h"));
  assert.ok(matchUrl("*/done", "http://127.0.0.1:8080/form/done"));
  assert.ok(matchUrl("https://*.test/*/end", "https://b.c.test/x/y/end"));
  assert.ok(!matchUrl("https://a.test/*", "http://a.test/"));
  assert.ok(!matchUrl("https://a.test/x.html*", "https://a.test/xzhtml"), ". is literal");
  assert.ok(!matchUrl("https://a.test/?q=(1)*", "https://a.test/q=1"), "? and () are literal");
  assert.ok(matchUrl("https://a.test/?q=(1)*", "https://a.test/?q=(1)&r"));
});

test("URLs are compared without their user info, as the agent is shown them (issue 9)", () => {
  assert.ok(matchUrl("http://127.0.0.1:8080/a", "http://u:p@127.0.0.1:8080/a"), "Chrome's URL keeps it");
  assert.ok(matchUrl("http://u:p@127.0.0.1:8080/a", "http://127.0.0.1:8080/a"), "the pattern may have it");
  assert.ok(matchUrl("http://127.0.0.1:8080/*", "http://u:p@127.0.0.1:8080/b?q=1"));
  assert.ok(!matchUrl("http://127.0.0.1:8080/a", "http://u:p@127.0.0.1:8080/b"));
  assert.ok(!matchUrl("http://127.0.0.1:8080/a", "http://u:p@other.test/a"));
});
