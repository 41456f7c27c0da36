// The page agent's entry point. internal/extbuild.PageAgentBundle bundles
// this file as an IIFE; the service worker evaluates it in AgentTab's
// isolated world of each frame (Page.createIsolatedWorld), where it shares
// the DOM with the page but none of its JavaScript globals, and installs
// globalThis.__agenttab (src/shared/page-agent.ts).

import { PAGE_AGENT_GLOBAL, type PageAgent } from "../shared/page-agent";
import { domClick, domSetValue, navigationTarget } from "./dom-input";
import { challenges, inChallenge } from "./challenges";
import { effect } from "./effect";
import { focusedElement, focusedField } from "./focus";
import { armKeys, disarmKeys, keysSeen } from "./key-gate";
import { keyReady, keyTarget, keyValue, pickValue } from "./key-target";
import { checked, focus, select } from "./fields";
import { credentialHolds, credentialTarget } from "./credential";
import { elementAt, fieldAt } from "./point";
import { countMutations, mutations } from "./mutations";
import { Registry } from "./registry";
import { snapshot } from "./snapshot";
import { aim, hitTest, target } from "./target";
import { hasText, scrollBy, state } from "./waits";

function install(): void {
  // Evaluating the bundle again in the same world (createIsolatedWorld
  // with the same name returns the same context, notes/chromium.md) must
  // keep the registry, so that refs stay the same.
  if (Reflect.has(globalThis, PAGE_AGENT_GLOBAL)) return;
  const registry = new Registry();
  countMutations();
  const el = (ref: string): Element | null => registry.resolve(ref);
  const agent: PageAgent = {
    snapshot: (request) => snapshot(registry, request),
    effect: (ref, press) => {
      const key = typeof press === "string" ? press : null;
      // JSON callers pass null for "the focused element" (a press without a ref).
      return typeof ref === "string" ? effect(ref, el(ref), key) : effect(null, focusedElement(), key);
    },
    challenges: () => challenges(),
    inChallenge: (ref) => inChallenge(el(ref)),
    target: (ref) => target(el(ref)),
    hitTest: (ref, x, y) => hitTest(el(ref), x, y),
    aim: (ref, apart) => aim(() => el(ref), apart),
    focus: (ref) => focus(el(ref)),
    select: (ref, values) => select(el(ref), values),
    checked: (ref) => checked(el(ref)),
    scrollBy: (ref, dx, dy) => {
      // JSON callers pass null for "no ref".
      if (typeof ref !== "string") return scrollBy(null, dx, dy);
      const e = el(ref);
      if (e === null || !e.isConnected) throw new Error(`ref ${ref} does not resolve in this document`);
      return scrollBy(e, dx, dy);
    },
    hasText: (text) => hasText(text),
    state: (ref) => state(el(ref)),
    domClick: (ref, navigation) => domClick(el(ref), navigation),
    domSetValue: (ref, text, append) => domSetValue(el(ref), text, append),
    navigationTarget: (ref) => navigationTarget(el(ref)),
    keyTarget: (ref, mode) => keyTarget(el(ref), mode),
    keyReady: (ref, mode, focus) => keyReady(el(ref), mode, focus),
    keyValue: (ref) => keyValue(el(ref)),
    pickValue: (ref, value) => pickValue(el(ref), value),
    armKeys: (ref) => armKeys(typeof ref === "string" ? el(ref) : null),
    keysSeen: (count, read) => keysSeen(count, read),
    disarmKeys: () => disarmKeys(),
    focusedField: () => focusedField(),
    focusedElement: () => focusedElement(),
    fieldAt: (x, y) => fieldAt(x, y),
    elementAt: (x, y) => elementAt(x, y),
    credentialTarget: (ref, field, value) => credentialTarget(el(ref), field, value),
    credentialHolds: (ref, value) => credentialHolds(el(ref), value),
    knows: (ref) => registry.knows(ref),
    mutations,
    element: (ref) => el(ref),
  };
  Object.defineProperty(globalThis, PAGE_AGENT_GLOBAL, { value: Object.freeze(agent), enumerable: false });
}

install();
