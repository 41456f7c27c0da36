import { test } from "node:test";
import assert from "node:assert/strict";
import { routeOf } from "./route";

test("routeOf", () => {
  const cases: [string, string][] = [
    ["https://example.com/", "full"],
    ["http://127.0.0.1:8080/a?b#c", "full"],
    ["file:///tmp/x.html", "full"],
    ["data:text/html,hi", "full"],
    ["about:blank", "full"],
    ["about:blank#top", "full"],
    ["about:srcdoc", "tab_only"],
    ["about:version", "tab_only"],
    ["chrome://settings/", "tab_only"],
    ["chrome://newtab/", "tab_only"],
    ["chrome-untrusted://print/", "tab_only"],
    ["chrome-extension://hphgnnfihafpjicgfjofofoocpghacnd/popup.html", "tab_only"],
    ["devtools://devtools/bundled/inspector.html", "tab_only"],
    ["view-source:https://example.com/", "tab_only"],
    ["https://chromewebstore.google.com/", "tab_only"],
    ["https://chromewebstore.google.com/detail/x/abc", "tab_only"],
    ["https://chrome.google.com/webstore/category/extensions", "tab_only"],
    ["https://chrome.google.com/webstore", "tab_only"],
    ["https://chrome.google.com/intl/en/chrome/", "full"],
    ["https://webstore.example.com/chromewebstore.google.com", "full"],
    ["", "tab_only"],
    ["not a url", "tab_only"],
  ];
  for (const [url, want] of cases) {
    assert.equal(routeOf(url), want, url);
  }
});
