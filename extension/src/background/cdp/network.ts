// The requests a tab has in flight, counted from the debugger's Network
// events for as long as AgentTab is attached (issue 5: network idle "from
// the debugger's network events"). Counting starts at attach, so a wait
// right after the click that started the requests sees them; requests that
// began before the attach are not known.
import type { Clock } from "../clock";
import type { Fields } from "./read";

/**
 * Network.enable without body buffers: AgentTab never reads response
 * bodies, and the renderer then keeps none for it.
 */
export const NETWORK_ENABLE = { maxTotalBufferSize: 0, maxResourceBufferSize: 0 };

/**
 * The event subscription of a TabSession (session.ts), all the tracker
 * needs of it: session.ts holds the tracker, so naming TabSession here
 * would tie the two modules in a circle (issue 10).
 */
export interface NetworkEvents {
  on(method: string, listener: (sessionId: string | undefined, params: Fields) => void): () => void;
}

export class NetworkTracker {
  private readonly inflight = new Set<string>();
  private quietSince: number;

  constructor(private readonly clock: Clock) {
    this.quietSince = clock.now();
  }

  /** Follows the session's Network events (the top frame's and its iframes' sessions). */
  follow(session: NetworkEvents): void {
    const key = (sessionId: string | undefined, p: Record<string, unknown>) => `${sessionId ?? ""}|${String(p["requestId"])}`;
    const done = (sessionId: string | undefined, p: Record<string, unknown>) => {
      if (this.inflight.delete(key(sessionId, p)) && this.inflight.size === 0) this.quietSince = this.clock.now();
    };
    session.on("Network.requestWillBeSent", (sessionId, p) => {
      this.inflight.add(key(sessionId, p));
    });
    session.on("Network.loadingFinished", done);
    session.on("Network.loadingFailed", done);
  }

  /** Requests in flight now, and for how long none has been (0 while some are). */
  state(): { inflight: number; quietMs: number } {
    return { inflight: this.inflight.size, quietMs: this.inflight.size > 0 ? 0 : this.clock.now() - this.quietSince };
  }
}
