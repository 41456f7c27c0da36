// The typed client of the page agent (contract: src/shared/page-agent.ts).
// Both routes make one from their transport: the debugger calls a frame's
// isolated world with Runtime.callFunctionOn (cdp/agent.ts), the scripting
// route the top document's with chrome.scripting
// (pagework/scripting-agent.ts). Callers write agent.target(ref) and get a
// TargetInfo: no function names as strings, and every answer is checked
// once, in answers.ts.
import type { PageAgent } from "../../shared/page-agent";
import type { AgentArgs, Answer, ElementMethod, ValueMethod } from "./answers";
import { ANSWERS, AnswerShape } from "./answers";
import { AgentAnswerError } from "./errors";

/** The page agent's JSON-answering functions, asynchronous, their answers checked. */
export type AgentClient = { readonly [K in ValueMethod]: (...args: AgentArgs<K>) => Promise<Answer<K>> };

/**
 * The functions that hand out an element, answered with its remote
 * object id (undefined: none). Only the debugger holds remote objects
 * (DOM.describeNode, Runtime.callFunctionOn on the element).
 */
export type ElementClient = { readonly [K in ElementMethod]: (...args: AgentArgs<K>) => Promise<string | undefined> };

/** Calls one function of the page agent and answers its raw JSON answer. */
export type AgentTransport = (name: ValueMethod, args: readonly unknown[]) => Promise<unknown>;

/** Calls one element function of the page agent and answers the element's remote object id. */
export type ElementTransport = (name: ElementMethod, args: readonly unknown[]) => Promise<string | undefined>;

function isValueMethod(k: string): k is ValueMethod {
  return Object.hasOwn(ANSWERS, k);
}

const VALUE_METHODS: readonly ValueMethod[] = Object.keys(ANSWERS).filter(isValueMethod);

// Keyed by the contract's element functions: one added to PageAgent fails tsc here.
const ELEMENT_METHODS: Readonly<Record<ElementMethod, true>> = { element: true, focusedElement: true, elementAt: true };

function isElementMethod(k: string): k is ElementMethod {
  return Object.hasOwn(ELEMENT_METHODS, k);
}

/** The answer of name, checked; an answer off the contract is an AgentAnswerError naming name. */
export function answer<K extends ValueMethod>(name: K, value: unknown): Answer<K> {
  try {
    return ANSWERS[name](value);
  } catch (e) {
    if (e instanceof AnswerShape) throw new AgentAnswerError(name, e.message);
    throw e;
  }
}

type Functions<K extends keyof PageAgent> = Partial<Record<K, (...args: never[]) => Promise<unknown>>>;

export function agentClient(send: AgentTransport): AgentClient {
  const client: Functions<ValueMethod> = {};
  for (const name of VALUE_METHODS) client[name] = async (...args: unknown[]) => answer(name, await send(name, args));
  // Every ValueMethod has its function now: VALUE_METHODS are ANSWERS' keys, which tsc holds to ValueMethod.
  return client as AgentClient;
}

export function elementClient(send: ElementTransport): ElementClient {
  const client: Functions<ElementMethod> = {};
  for (const name of Object.keys(ELEMENT_METHODS).filter(isElementMethod)) client[name] = (...args: unknown[]) => send(name, args);
  return client as ElementClient;
}
