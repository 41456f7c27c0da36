// The bot challenge each task-owned tab shows, as the worker tracks it
// between page agent scans. Source of truth: spec 000 (the challenge
// paragraphs) and protocol/challenge.go: the member snapshot, act, wait and
// commit results carry holds catalog ids, enums, a boolean, the origin
// Chrome reports for the tab and the time since the worker first saw it;
// no page text, URL path or query, sitekey or token.
import type { Challenge, ChallengeResolvedBy } from "../../protocol/generated";
import type { ChallengeSighting } from "../../shared/page-agent";
import type { Clock } from "../clock";
import { randomHex } from "../random";
import { shownOrigin } from "../tabs/shown-origin";

/** Where a scan happened: a wait that saw the challenge go resolved it by waiting. */
export type ScanContext = "snapshot" | "act" | "wait";

export interface HasChallenges {
  readonly challenges: Challenges;
}

interface Current {
  challengeId: string;
  sighting: ChallengeSighting;
  origin: string;
  firstSeen: number;
  /** The page revision it was last seen at: a later one means the page navigated away from it. */
  revision: number;
}

export class Challenges {
  private readonly tabs = new Map<number, Current>();

  constructor(private readonly clock: Clock) {}

  /**
   * Records a scan of the tab's top document (sightings: what the page
   * agent's challenges() found, most prominent first) and answers the
   * result's challenge member: the one shown (present, or solved when its
   * response field holds a token), or, once, the one that went (resolved,
   * with how); undefined when there is none.
   */
  observe(tabId: number, url: string, sightings: readonly ChallengeSighting[], context: ScanContext, revision: number, noticeOpen: boolean): Challenge | undefined {
    const seen = sightings[0];
    const was = this.tabs.get(tabId);
    const now = this.clock.now();
    if (seen === undefined) {
      if (was === undefined) return undefined;
      this.tabs.delete(tabId);
      return member(was, "resolved", now, resolvedBy(was, revision, noticeOpen, context));
    }
    // The same vendor's product stays the same challenge (an interstitial
    // reloads itself while it works); another one is a new challenge.
    const same = was !== undefined && was.sighting.vendor === seen.vendor && was.sighting.product === seen.product;
    const current: Current =
      same && was !== undefined
        ? { ...was, sighting: seen, origin: shownOrigin({ url }), revision }
        : { challengeId: randomHex(16), sighting: seen, origin: shownOrigin({ url }), firstSeen: now, revision };
    this.tabs.set(tabId, current);
    return member(current, seen.tokenPresent ? "solved" : "present", now);
  }

  /** Whether a challenge was last seen on the tab. */
  has(tabId: number): boolean {
    return this.tabs.has(tabId);
  }

  /** The tab closed or left its task: its record goes. */
  forget(tabId: number): void {
    this.tabs.delete(tabId);
  }
}

// Spec 000 lists the values (wait, handoff, navigation, observed), not
// an order; the order is ours. The human holding the tab comes first: a
// person who solves an interstitial always reloads the page (its form
// posts, or its script navigates), so the revision moves too, and
// "navigation" would hide that the handoff did it. Then the document
// changed, then a wait watched it go, else a later look found it gone.
function resolvedBy(was: Current, revision: number, noticeOpen: boolean, context: ScanContext): ChallengeResolvedBy {
  if (noticeOpen) return "handoff";
  if (revision !== was.revision) return "navigation";
  return context === "wait" ? "wait" : "observed";
}

function member(c: Current, state: Challenge["state"], now: number, resolvedBy?: ChallengeResolvedBy): Challenge {
  const s = c.sighting;
  return {
    challenge_id: c.challengeId,
    vendor: s.vendor,
    product: s.product,
    kind: s.kind,
    interaction: s.interaction,
    state,
    confidence: s.confidence,
    ...(resolvedBy === undefined ? {} : { resolved_by: resolvedBy }),
    origin: c.origin,
    elapsed_ms: Math.max(0, now - c.firstSeen),
    token_present: s.tokenPresent,
  };
}
