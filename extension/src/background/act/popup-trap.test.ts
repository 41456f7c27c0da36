import { test } from "node:test";
import assert from "node:assert/strict";
import vm from "node:vm";
import { collectPopupTrap, installPopupTrap } from "./popup-trap";

// The trap crosses into the page as text (Runtime.callFunctionOn's
// functionDeclaration, chrome.scripting's func): it must run with nothing
// but the page's own globals. A fresh context stands in for the page.
function page(): { context: vm.Context; opened: string[]; listeners: Map<string, unknown> } {
  const opened: string[] = [];
  const listeners = new Map<string, unknown>();
  const win = {
    open(url: string) {
      opened.push(url);
      return null;
    },
    addEventListener: (type: string, f: unknown) => listeners.set(type, f),
    removeEventListener: (type: string) => listeners.delete(type),
  };
  const context = vm.createContext({ window: win, document: { baseURI: "https://a.test/dir/" }, setTimeout: () => 0, URL, HTMLAnchorElement: class {}, HTMLAreaElement: class {} });
  return { context, opened, listeners };
}

test("the window.open trap is self-contained: serialized into a bare page it takes the gesture's popups and leaves nothing behind", () => {
  const p = page();
  const run = (f: (...args: never[]) => unknown, args: unknown[]) => vm.runInContext(`(${f.toString()})(...${JSON.stringify(args)})`, p.context);
  assert.equal(run(installPopupTrap, [15_000, "__agenttab_trap_k"]), true);
  vm.runInContext(`window.open("next.html"); const w = window.open(); w.location = "/later"; window.open("/self", "_self")`, p.context);
  assert.deepEqual(p.opened, ["/self"], "a same-tab open goes to the page's own window.open");
  assert.deepEqual(JSON.parse(JSON.stringify(run(collectPopupTrap, ["__agenttab_trap_k"]))), [{ url: "https://a.test/dir/next.html" }, { url: "https://a.test/later" }]);
  assert.equal(vm.runInContext(`window.open.name === "open" && !("__agenttab_trap_k" in window)`, p.context), true);
  assert.equal(p.listeners.size, 0, "the click listener is gone");
});
