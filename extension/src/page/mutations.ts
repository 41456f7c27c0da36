// How often the document changed since the page agent came: the worker
// scans the document's press listeners again (background/pagework/
// listeners.ts) only when this count moved since its last scan. Elements
// and attributes changing is when listeners come and go on a page (a
// widget made, a list rendered); a listener added to an element that
// stays as it was is seen at the next change, and until then the element
// keeps its ref and only lacks its [clickable] mark.

let count = 0;
let observing = false;

/** Starts counting (once per world). */
export function countMutations(): void {
  if (observing) return;
  observing = true;
  new MutationObserver((records) => {
    count += records.length;
  }).observe(document, { subtree: true, childList: true, attributes: true });
}

/** The number of changes seen so far. */
export function mutations(): number {
  return count;
}
