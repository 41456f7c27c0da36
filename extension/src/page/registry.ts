// Element ids for refs. Ids come from the tab's counter (the service
// worker passes the first free one as nextId), so a ref names one element
// of one document of one frame; this registry lives in the isolated world,
// which dies with the document, so refs of an earlier document resolve
// nowhere. The same element keeps its id across snapshots (WeakMap).

const REF = /^e(\d+)$/;

/** Detached elements are let go once the registry holds this many (and then twice as many as remain). */
const PRUNE_FLOOR = 1000;

export class Registry {
  private readonly ids = new WeakMap<Element, number>();
  // Strong references to the elements of live refs: they keep each
  // element's wrapper in this world alive, and with it its WeakMap entry
  // (a wrapper V8 dropped and made again would be a new key, and the
  // element would get a new ref). Removed elements are let go in prune().
  private readonly elements = new Map<number, Element>();
  // Every id handed out here, so that a ref of a removed element still
  // reads as this document's (detached), not as another's (stale).
  private readonly issued = new Set<number>();
  private next = 0;
  private pruneAt = PRUNE_FLOOR;

  /** Starts a snapshot: ids handed out from now on are at least nextId. */
  begin(nextId: number): void {
    if (nextId > this.next) this.next = nextId;
    if (this.elements.size >= this.pruneAt) this.prune();
  }

  private prune(): void {
    for (const [id, el] of this.elements) {
      if (!el.isConnected) this.elements.delete(id);
    }
    this.pruneAt = Math.max(PRUNE_FLOOR, 2 * this.elements.size);
  }

  /** The next id this frame would hand out. */
  get nextId(): number {
    return this.next;
  }

  /** The element's ref if it has one. */
  known(el: Element): string | undefined {
    const id = this.ids.get(el);
    return id === undefined ? undefined : "e" + id;
  }

  /** The element's ref ("e12"), giving it the next id if it has none. */
  take(el: Element): string {
    let id = this.ids.get(el);
    if (id === undefined) {
      id = this.next++;
      this.ids.set(el, id);
      this.issued.add(id);
    }
    // A pruned element that came back into the document is held again.
    this.elements.set(id, el);
    return "e" + id;
  }

  /** The element of a ref handed out here, or null (unknown, or let go after removal). */
  resolve(ref: string): Element | null {
    const m = REF.exec(ref);
    if (!m?.[1]) return null;
    return this.elements.get(Number(m[1])) ?? null;
  }

  /** Whether this frame handed out the ref (it may since have been removed from the document). */
  knows(ref: string): boolean {
    const m = REF.exec(ref);
    return m?.[1] !== undefined && this.issued.has(Number(m[1]));
  }
}
