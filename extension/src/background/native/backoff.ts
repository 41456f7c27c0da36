// Reconnect delays for the native port: 0.5 s doubling to 30 s, reset after
// a successful welcome.

const FIRST_DELAY_MS = 500;
const MAX_DELAY_MS = 30_000;

export class Backoff {
  private next = FIRST_DELAY_MS;

  /** The delay before the next attempt; each call doubles the following one. */
  delay(): number {
    const d = this.next;
    this.next = Math.min(this.next * 2, MAX_DELAY_MS);
    return d;
  }

  reset(): void {
    this.next = FIRST_DELAY_MS;
  }
}
