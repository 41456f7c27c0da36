// The toolbar badge: the one place that writes it. Source of truth: issue
// 12 and DESIGN.md "Adoption request": the badge counts what waits for the
// user in the popup, which is open visible notices + pending stages +
// adoption requests. Each of those stores reports its own count here;
// none writes the badge itself.
import type { ChromeApi } from "../../chrome/api";
import type { Log } from "../log";
import { errorText } from "../log";

/** What the badge counts, one count per store. */
export type BadgePart = "adoptions" | "notices" | "stages";

export class Badge {
  private readonly counts = new Map<BadgePart, number>();
  /** Unknown at first: a badge an earlier worker set stays in Chrome until written. */
  private shown: string | undefined;

  constructor(
    private readonly action: ChromeApi["action"],
    private readonly log: Log,
  ) {}

  /** The part's count now; the badge shows the sum (nothing when zero). */
  count(part: BadgePart, n: number): void {
    this.counts.set(part, n);
    let total = 0;
    for (const v of this.counts.values()) total += v;
    const text = total === 0 ? "" : String(total);
    if (text === this.shown) return;
    this.shown = text;
    this.action.setBadgeText(text).catch((e: unknown) => this.log.warn(`badge: ${errorText(e)}`));
  }
}
