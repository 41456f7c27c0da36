import { test } from "node:test";
import assert from "node:assert/strict";
import type { ValueMethod } from "./answers";
import type { AgentClient } from "./client";
import { agentClient, elementClient } from "./client";
import { AgentAnswerError, AgentError } from "./errors";

/** A client whose transport answers what the test gives for each function, recording the calls. */
function clientAnswering(answers: Partial<Record<ValueMethod, unknown>>) {
  const sent: [string, readonly unknown[]][] = [];
  const agent = agentClient(async (name, args) => {
    sent.push([name, args]);
    return answers[name];
  });
  return { agent, sent };
}

const TARGET = { ok: true, x: 1, y: 2, width: 3, height: 4, sensitive: false, description: 'button "Go"', editable: false };

test("the client sends each function's name and arguments and answers the contract's types", async () => {
  const { agent, sent } = clientAnswering({ target: TARGET, knows: true, checked: null, keyValue: { length: 7 }, navigationTarget: null, state: "hidden", scrollBy: { x: 0, y: 9 } });
  assert.deepEqual(await agent.target("e1"), TARGET);
  assert.equal(await agent.knows("e2"), true);
  assert.equal(await agent.checked("e3"), undefined, "JSON's null is an absent answer");
  assert.deepEqual(await agent.keyValue("e3"), { length: 7 }, "a sensitive field's value is left out");
  assert.equal(await agent.navigationTarget("e1"), null);
  assert.equal(await agent.state("e1"), "hidden");
  assert.deepEqual(await agent.scrollBy(null, 0, 9), { x: 0, y: 9 });
  assert.deepEqual(sent, [
    ["target", ["e1"]],
    ["knows", ["e2"]],
    ["checked", ["e3"]],
    ["keyValue", ["e3"]],
    ["navigationTarget", ["e1"]],
    ["state", ["e1"]],
    ["scrollBy", [null, 0, 9]],
  ]);
});

test("an answer off the contract is a clear AgentError naming the function, never a value", async () => {
  for (const [call, name, why] of [
    [(a) => a.target("e1"), "target", /target\.x is not a number/],
    [(a) => a.knows("e1"), "knows", /not true or false/],
    [(a) => a.state("e1"), "state", /"shown" is not an element state/],
    [(a) => a.snapshot({ mode: "interactive", nextId: 1, maxChars: 10, indent: "" }), "snapshot", /frames are not a list/],
    [(a) => a.scrollBy(null, 0, 1), "scrollBy", /scroll position is not an object/],
    [(a) => a.checked("e1"), "checked", /not true or false/],
    [(a) => a.aim("e1", { frame: false, ms: 10 }), "aim", /target is not an object/],
    [(a) => a.pickValue("e1", "2010-05-20"), "pickValue", /done is not set, refused or not_accepted/],
    [(a) => a.keysSeen(1, false), "keysSeen", /the field is not an object/],
  ] satisfies [(a: AgentClient) => Promise<unknown>, ValueMethod, RegExp][]) {
    const { agent } = clientAnswering({ target: { ...TARGET, x: "left" }, knows: "yes", state: "shown", snapshot: { text: "", truncated: false }, scrollBy: 3, checked: "on", aim: { first: null }, pickValue: { done: "maybe", held: { length: 0 } }, keysSeen: { seen: true, focused: "pw" } });
    await assert.rejects(call(agent), (e: unknown) => {
      assert.ok(e instanceof AgentAnswerError && e instanceof AgentError, name);
      assert.match(e.message, new RegExp(`^the page agent's ${name} answered off its contract: `), name);
      assert.match(e.message, why, name);
      return true;
    });
  }
});

test("a transport's failure reaches the caller as it was thrown", async () => {
  const agent = agentClient(async () => {
    throw new Error("Cannot find context with specified id");
  });
  await assert.rejects(agent.hasText("x"), /Cannot find context/);
});

test("the element client asks for each element function by name and answers the remote object id", async () => {
  const sent: string[] = [];
  const elements = elementClient(async (name, args) => {
    sent.push(`${name}(${args.join(",")})`);
    return name === "focusedElement" ? undefined : `obj-${name}`;
  });
  assert.equal(await elements.element("e4"), "obj-element");
  assert.equal(await elements.focusedElement(), undefined);
  assert.equal(await elements.elementAt(3, 4), "obj-elementAt");
  assert.deepEqual(sent, ["element(e4)", "focusedElement()", "elementAt(3,4)"]);
});
