// How a call into the page agent fails, on either route (the debugger's
// worlds, cdp/agent.ts; chrome.scripting, pagework/scripting-agent.ts).

/** The frame's document went away (navigation, removal) while AgentTab used it. */
export class FrameGone extends Error {
  constructor(what: string) {
    super(`the frame's document is gone: ${what}`);
    this.name = "FrameGone";
  }
}

/** The page agent threw, or answered off its contract (a bug in it, or a page that breaks an assumption). */
export class AgentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "AgentError";
  }
}

/** An answer without the contract's shape (answers.ts), naming the function that gave it. */
export class AgentAnswerError extends AgentError {
  constructor(method: string, what: string) {
    super(`the page agent's ${method} answered off its contract: ${what}`);
    this.name = "AgentAnswerError";
  }
}
