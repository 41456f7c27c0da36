// Time behind an interface so tests can run backoff without waiting and
// age things (download starts) without reading the wall clock.

export interface Clock {
  /** Runs f after ms milliseconds; the returned function cancels it. */
  after(ms: number, f: () => void): () => void;
  /** Milliseconds on the worker's clock. */
  now(): number;
}

export const realClock: Clock = {
  now: () => Date.now(),
  after(ms, f) {
    const timer = setTimeout(f, ms);
    return () => clearTimeout(timer);
  },
};
