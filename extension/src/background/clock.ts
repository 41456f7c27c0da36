// Timers behind an interface so tests can run backoff without waiting.

export interface Clock {
  /** Runs f after ms milliseconds; the returned function cancels it. */
  after(ms: number, f: () => void): () => void;
}

export const realClock: Clock = {
  after(ms, f) {
    const timer = setTimeout(f, ms);
    return () => clearTimeout(timer);
  },
};
