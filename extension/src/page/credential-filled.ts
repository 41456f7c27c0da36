// The fields browser_credentials filled in this document (credential.ts).
// Their values are the broker's, which the agent never gets back: they are
// left out wherever a sensitive field's is (sensitive.ts hidesValue). The
// record is this isolated world's: the debugger route's and the scripting
// route's worlds are apart, so a field filled on one route and read on the
// other shows its value there (a username only: a password field never
// shows one).

const filled = new WeakSet<Element>();

/** Records that browser_credentials filled f. */
export function markFilled(f: Element): void {
  filled.add(f);
}

/** Whether browser_credentials filled el in this document. */
export function credentialFilled(el: Element): boolean {
  return filled.has(el);
}
