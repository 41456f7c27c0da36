// Shared set-up for the service worker's unit tests: a Context over the
// fake Chrome that records what would be sent to the host, and a clock
// that moves only when told.
import assert from "node:assert/strict";
import { FakeChrome } from "./fake-chrome";
import type { TaskLook } from "../protocol/generated";
import { realClock, type Clock } from "../background/clock";
import type { Context } from "../background/context";
import { Failure } from "../background/native/failure";
import type { LocalFileCheck } from "../background/origins/local-files";
import type { Log } from "../background/log";
import { OriginGuard } from "../background/origins/origin-guard";
import { Ownership } from "../background/tabs/ownership";
import { Adoptions } from "../background/tabs/adoptions";
import { PauseState } from "../background/pause/pause-state";
import { Children } from "../background/tabs/children";
import { Pages } from "../background/pagework/page-tab";
import { Reviews } from "../background/review/reviews";
import { Challenges } from "../background/challenges/challenges";
import { Badge } from "../background/popup/badge";
import { Notices } from "../background/notices/notices";

export interface Sent {
  event: string;
  params: unknown;
}

export interface Kit {
  fake: FakeChrome;
  ctx: Context;
  /** Events the extension sent to the host. */
  events: Sent[];
  warnings: string[];
}

/** Timers at least this long are never awaited by a test. */
const UNAWAITED_MS = 10_000;

/** localFiles is the host's decision on local files, when a test has one. */
export function kit(fake = new FakeChrome(), localFiles?: LocalFileCheck): Kit {
  const events: Sent[] = [];
  const warnings: string[] = [];
  const log: Log = { info: () => undefined, warn: (m) => warnings.push(m) };
  // Real timers. Long ones (the debugger's 60 s idle detach) no test
  // awaits, and they must not keep node's test process alive after the
  // tests end; short ones stay referenced, as tests await them.
  const clock: Clock = {
    now: realClock.now,
    after: (ms, f) => {
      const t = setTimeout(f, ms) as unknown as { unref?: () => void };
      if (ms >= UNAWAITED_MS) t.unref?.();
      return () => clearTimeout(t as unknown as number);
    },
  };
  // With the storage.local mirror, as main.ts makes it (a test of an
  // extension reload loads it).
  const ownership = new Ownership(fake.storageSession, log, fake.storageLocal);
  const pages = new Pages(fake, clock, log, ownership, PAGE_AGENT_SOURCE);
  // The one badge writer, as main.ts wires it.
  const badge = new Badge(fake.action, log);
  const ctx: Context = {
    chrome: fake,
    ownership,
    pages,
    children: new Children(log),
    origins: new OriginGuard(fake, pages.debuggers, ownership, log, localFiles),
    pause: new PauseState(fake.storageLocal, log),
    adoptions: new Adoptions(badge, clock),
    notices: new Notices(fake.storageLocal, clock, log, (taskId, tabId) => ownership.owner(tabId)?.taskId === taskId, (n) => badge.count("notices", n)),
    notify: (event, params) => events.push({ event, params }),
    reviews: new Reviews(fake.storageLocal, clock, log, (n) => badge.count("stages", n)),
    challenges: new Challenges(clock),
    clock,
    log,
  };
  return { fake, ctx, events, warnings };
}

/** The page agent's source as the tests' worlds receive it. */
export const PAGE_AGENT_SOURCE = "/* page agent */";

export const LOOK: TaskLook = { task_id: "t1", label: "Research", color: "blue" };
export const OTHER: TaskLook = { task_id: "t2", label: "Shopping", color: "green" };

/** A clock for tests that must not wait: timers run when advance passes them. */
export class ManualClock implements Clock {
  private at = 0;
  private timers: { at: number; f: () => void; live: boolean }[] = [];

  after(ms: number, f: () => void): () => void {
    const timer = { at: this.at + ms, f, live: true };
    this.timers.push(timer);
    return () => {
      timer.live = false;
    };
  }

  now(): number {
    return this.at;
  }

  /** The delays of the timers still waiting, from now. */
  waiting(): number[] {
    return this.timers.filter((t) => t.live).map((t) => t.at - this.at);
  }

  advance(ms: number): void {
    this.at += ms;
    const due = this.timers.filter((t) => t.live && t.at <= this.at);
    this.timers = this.timers.filter((t) => t.live && t.at > this.at);
    for (const t of due) t.f();
  }
}

/** The Failure p rejects with; fails the test when p fulfils or throws anything else. */
export async function failure(p: Promise<unknown>): Promise<Failure> {
  try {
    await p;
  } catch (e) {
    if (e instanceof Failure) return e;
    throw e;
  }
  assert.fail("expected a Failure");
}
