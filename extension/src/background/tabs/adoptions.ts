// Adoption requests waiting for the user. Source of truth: DESIGN.md
// "Adoption request" (a badge on the extension icon and a pending entry in
// the popup with the task label, the tab's title and origin, Allow/Deny;
// nothing is focused or opened). Requests live in the worker's memory: a
// worker that stops loses them, and the waiting call then times out as
// needs_user, which is the safe answer. A Pause ends them at once
// (pause.ts): waiting for the user is not dispatched work.
import type { Badge } from "../popup/badge";
import type { Clock } from "../clock";

/** What the popup shows of a request. Titles and origins stay in the popup. */
export interface AdoptionRequest {
  id: string;
  taskLabel: string;
  taskColor: string;
  tabId: number;
  title: string;
  origin: string;
}

export type AdoptionAnswer = "allow" | "deny" | "timeout" | "cancelled";

interface Pending {
  request: AdoptionRequest;
  settle: (a: AdoptionAnswer) => void;
}

export class Adoptions {
  private readonly pending = new Map<string, Pending>();
  private next = 1;

  constructor(
    /** Shows how many requests wait (popup/badge.ts sums it with notices and stages). */
    private readonly badge: Pick<Badge, "count">,
    private readonly clock: Clock,
  ) {}

  /** Puts a request before the user and resolves with their answer, or timeout. */
  ask(request: Omit<AdoptionRequest, "id">, timeoutMs: number): Promise<AdoptionAnswer> {
    const id = `adopt_${this.next++}`;
    return new Promise((resolve) => {
      const cancelTimer = this.clock.after(timeoutMs, () => settle("timeout"));
      const settle = (a: AdoptionAnswer): void => {
        if (!this.pending.delete(id)) return;
        cancelTimer();
        this.showBadge();
        resolve(a);
      };
      this.pending.set(id, { request: { id, ...request }, settle });
      this.showBadge();
    });
  }

  /** The user's Allow or Deny; false when the request is no longer pending. */
  answer(id: string, allow: boolean): boolean {
    const p = this.pending.get(id);
    if (p === undefined) return false;
    p.settle(allow ? "allow" : "deny");
    return true;
  }

  /** Ends every pending request as "cancelled" (a Pause began). */
  cancelAll(): void {
    for (const p of [...this.pending.values()]) p.settle("cancelled");
  }

  list(): AdoptionRequest[] {
    return [...this.pending.values()].map((p) => p.request);
  }

  private showBadge(): void {
    this.badge.count("adoptions", this.pending.size);
  }
}
