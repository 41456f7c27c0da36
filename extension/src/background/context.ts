// What the service worker works with: Context, the whole that main.ts builds
// (and the unit tests' kit), made of one small interface per part. Each
// handler and watcher takes only the parts it uses, as an intersection of
// these and those of capabilities.ts; a full Context satisfies any of them.
import type { HasAdoptions, HasChrome, HasClock, HasLog, HasNotices, HasOwnership, HasPause, Notifies } from "./capabilities";
import type { HasChallenges } from "./challenges/challenges";
import type { OriginGuard } from "./origins/origin-guard";
import type { Pages } from "./pagework/page-tab";
import type { HasReviews } from "./review/reviews";
import type { Children } from "./tabs/children";

/** Debugger sessions and page state of owned tabs (page work). */
export interface HasPages {
  readonly pages: Pages;
}

/** The managed origin policy: checks, and the guard on owned tabs' navigations. */
export interface HasOrigins {
  readonly origins: OriginGuard;
}

/** Which steps are watching for the children of which tab. */
export interface HasChildren {
  readonly children: Children;
}

export type Context = HasChrome &
  HasOwnership &
  HasPages &
  HasAdoptions &
  HasPause &
  HasChildren &
  HasOrigins &
  HasNotices &
  HasReviews &
  HasChallenges &
  Notifies &
  HasClock &
  HasLog;
