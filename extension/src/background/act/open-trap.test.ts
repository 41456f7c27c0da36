import { test } from "node:test";
import assert from "node:assert/strict";
import vm from "node:vm";
import { collectOpenTrap, installOpenTrap } from "./open-trap";

// The trap crosses into the page as text (Runtime.callFunctionOn's
// functionDeclaration, chrome.scripting's func): it must run with nothing
// but the page's own globals. A fresh context stands in for the page.
function page(): { context: vm.Context; opened: string[]; listeners: Map<string, unknown>; timers: (() => void)[]; isNative: () => boolean } {
  const opened: string[] = [];
  const listeners = new Map<string, unknown>();
  const timers: (() => void)[] = [];
  // Bound, so that it reads as the browser's own ("[native code]"), as
  // window.open does in a page.
  const browserOpen = ((url: string) => {
    opened.push(url);
    return null;
  }).bind(null);
  const win = {
    open: browserOpen,
    addEventListener: (type: string, f: unknown) => listeners.set(type, f),
    removeEventListener: (type: string) => listeners.delete(type),
  };
  const native = win.open;
  const context = vm.createContext({
    window: win,
    document: { baseURI: "https://a.test/dir/" },
    setTimeout: (f: () => void) => timers.push(f),
    clearTimeout: () => undefined,
    URL,
    HTMLAnchorElement: class {},
    HTMLAreaElement: class {},
  });
  return { context, opened, listeners, timers, isNative: () => win.open === native };
}

test("the window.open trap is self-contained: serialized into a bare page it takes the gesture's popups and leaves nothing behind", () => {
  const p = page();
  const run = (f: (...args: never[]) => unknown, args: unknown[]) => vm.runInContext(`(${f.toString()})(...${JSON.stringify(args)})`, p.context);
  assert.equal(run(installOpenTrap, [15_000, "__agenttab_trap_k"]), true);
  vm.runInContext(`window.open("next.html"); const w = window.open(); w.location = "/later"; window.open("/self", "_self")`, p.context);
  assert.deepEqual(p.opened, ["/self"], "a same-tab open goes to the page's own window.open");
  assert.deepEqual(JSON.parse(JSON.stringify(run(collectOpenTrap, ["__agenttab_trap_k"]))), [{ url: "https://a.test/dir/next.html" }, { url: "https://a.test/later" }]);
  assert.ok(p.isNative(), "the page's own window.open is back");
  assert.equal(vm.runInContext(`"__agenttab_trap_k" in window`, p.context), false);
  assert.equal(p.listeners.size, 0, "the click listener is gone");
});

test("a trap nobody collects removes itself, and its name, after its lifetime", () => {
  const p = page();
  vm.runInContext(`(${installOpenTrap.toString()})(15000, "__agenttab_trap_k")`, p.context);
  assert.ok(!p.isNative());
  assert.equal(p.timers.length, 1);
  p.timers[0]?.();
  assert.ok(p.isNative());
  assert.equal(vm.runInContext(`"__agenttab_trap_k" in window`, p.context), false);
  assert.equal(p.listeners.size, 0);
});

test("a kept controller arms the trap for one gesture at a time: unarmed, the page's own window.open is in place and requests go nowhere", () => {
  const p = page();
  vm.runInContext(`globalThis.c = (${installOpenTrap.toString()})(15000)`, p.context);
  assert.ok(p.isNative(), "made, not armed");
  assert.equal(p.listeners.size, 0);
  for (const url of ["first.html", "second.html"]) {
    assert.equal(vm.runInContext(`c.arm(15000)`, p.context), true);
    assert.ok(!p.isNative(), "armed for the gesture");
    vm.runInContext(`window.open(${JSON.stringify(url)})`, p.context);
    assert.deepEqual(JSON.parse(JSON.stringify(vm.runInContext(`c.collect()`, p.context))), [{ url: `https://a.test/dir/${url}` }], "each gesture answers only its own popups");
    assert.ok(p.isNative(), "collected: the page's own window.open is back");
    assert.equal(p.listeners.size, 0);
  }
  vm.runInContext(`window.open("later.html")`, p.context);
  assert.deepEqual(p.opened, ["later.html"], "between gestures window.open is the page's own");
});

test("a page's own global open() is not the browser's window.open: the trap leaves it to the page", () => {
  const p = page();
  vm.runInContext(`globalThis.c = (${installOpenTrap.toString()})(15000); globalThis.shown = []; window.open = function open(m) { shown.push(m); }`, p.context);
  assert.equal(vm.runInContext(`c.arm(15000)`, p.context), true);
  vm.runInContext(`window.open("message 7")`, p.context);
  assert.deepEqual(JSON.parse(JSON.stringify(vm.runInContext(`c.collect()`, p.context))), [], "nothing to open");
  assert.deepEqual(JSON.parse(JSON.stringify(vm.runInContext(`shown`, p.context))), ["message 7"], "the page's function ran");
  assert.deepEqual(p.opened, []);
});
