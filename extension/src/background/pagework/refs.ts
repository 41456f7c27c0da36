// Which document handed out which element ref. Source of truth: DESIGN.md
// "Page revision and refs" and issue 3: a ref names one element of one
// document. Ids come from one counter per tab (the page agent's registry
// starts each snapshot at the tab's next id), so they are unique across
// documents and frames; the book remembers, for every ref a snapshot
// showed, the document (frame id + loader id, Chrome's document identity)
// that showed it. A ref the book does not know, or whose document is gone,
// is stale.
//
// The refs are read back from the snapshot text rather than taken as the
// id range of the call: the page agent keeps an element's id for the life
// of its document (src/page/registry.ts), so a snapshot also shows ids
// handed out before, possibly by an earlier service worker whose book is
// lost. A page can put "[ref=e5]" into an element's name; the book then
// files e5 under this document, whose agent does not know it, and using it
// fails stale_ref instead of reaching another document's element.

import { RefPattern } from "../../protocol/generated";

/** One frame's document. */
export interface FrameDoc {
  frameId: string;
  loaderId: string;
}

export function sameDoc(a: FrameDoc, b: FrameDoc): boolean {
  return a.frameId === b.frameId && a.loaderId === b.loaderId;
}

// What a ref looks like: protocol.RefPattern, which the host checks steps with too.
const REF = new RegExp(RefPattern);

/** The number in a ref ("e12" → 12), or undefined when it is not a ref. */
export function refNumber(ref: string): number | undefined {
  return REF.test(ref) ? Number(ref.slice(1)) : undefined;
}

const SHOWN_REF = /\[ref=e([1-9][0-9]{0,14})\]/g;

/** The ids of the refs a snapshot text shows. */
export function refsIn(text: string): number[] {
  return Array.from(text.matchAll(SHOWN_REF), (m) => Number(m[1]));
}

export class RefBook {
  private readonly owners = new Map<number, FrameDoc>();

  /** Files the refs that doc's snapshot showed under doc. */
  record(doc: FrameDoc, ids: number[]): void {
    for (const id of ids) this.owners.set(id, doc);
  }

  /** The document that showed ref, if any did. */
  locate(ref: string): FrameDoc | undefined {
    const n = refNumber(ref);
    return n === undefined ? undefined : this.owners.get(n);
  }

  /** Forgets the refs of documents for which keep is false (they are gone). */
  prune(keep: (doc: FrameDoc) => boolean): void {
    const verdicts = new Map<FrameDoc, boolean>();
    for (const [id, doc] of this.owners) {
      let keepIt = verdicts.get(doc);
      if (keepIt === undefined) {
        keepIt = keep(doc);
        verdicts.set(doc, keepIt);
      }
      if (!keepIt) this.owners.delete(id);
    }
  }

  clear(): void {
    this.owners.clear();
  }
}
