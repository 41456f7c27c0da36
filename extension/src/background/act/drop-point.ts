// Where a drag step releases in its target (protocol.DropPosition).
// Source of truth: issue 11 item 7: sortable lists put the dragged item
// before or after the one it is released on by where the pointer is
// (jQuery UI: which half of the item, moving which way; a hand-written
// HTML5 list: which half the drop lands in), so before and after release
// in the target's half facing the item before it, or the one after it.
import { DropBefore, DropCenter } from "../../protocol/generated";
import type { DropPosition } from "../../protocol/generated";
import { fieldsOf } from "../cdp/read";
import type { Page } from "../pagework/page-tab";
import type { Point } from "./drop-guard";
import { withElement } from "./key-guard";
import type { Aim } from "./pointer";

/** A before/after release is this share of the target's length in from its edge: the middle of its half. */
const EDGE_SHARE = 0.25;

/** The axis a list runs along at an element, and whether the item before it lies at the far end (a right-to-left row, a reversed flex). */
interface ListAxis {
  horizontal: boolean;
  reversed: boolean;
}

/** A list of one, or an element without neighbours: a column, top to bottom. */
const COLUMN: ListAxis = { horizontal: false, reversed: false };

/** The point in the top frame's viewport where a drag onto to releases. */
export async function dropPoint(page: Page, to: Aim, toRef: string, position: DropPosition | undefined): Promise<Point> {
  if (position === undefined || position === DropCenter) return { x: to.x, y: to.y };
  const axis = await listAxis(page, to, toRef);
  const toward = (position === DropBefore) !== axis.reversed ? -1 : 1;
  const shift = toward * (0.5 - EDGE_SHARE) * (axis.horizontal ? to.info.width : to.info.height);
  return axis.horizontal ? { x: to.x + shift, y: to.y } : { x: to.x, y: to.y + shift };
}

/**
 * The target's list axis, read where the page is: from the nearest
 * neighbour (the element before it, else the one after it) that shares
 * its row or its column. Neighbours say what order a person sees, where
 * comparing the dragged item with the target would not (a card dragged
 * from one column of a board onto a card of the next lies beside it, but
 * the cards it goes between are above and below).
 */
async function listAxis(page: Page, to: Aim, toRef: string): Promise<ListAxis> {
  const read = await withElement(page, to.frame, (elements) => elements.element(toRef), (objectId) =>
    page.session.send("Runtime.callFunctionOn", { functionDeclaration: axisAt.toString(), objectId, returnByValue: true }, { sessionId: to.frame.sessionId }),
  );
  if (read === undefined) return COLUMN;
  const v = fieldsOf(fieldsOf(read["result"], "the list axis")["value"], "the list axis's value");
  return typeof v["horizontal"] === "boolean" && typeof v["reversed"] === "boolean" ? { horizontal: v["horizontal"], reversed: v["reversed"] } : COLUMN;
}

/**
 * Runs in the page agent's world on the target (Runtime.callFunctionOn,
 * serialized: it uses nothing outside itself). Neighbours without a box
 * (a template, a hidden item) are passed over.
 */
function axisAt(this: Element): ListAxis {
  const box = this.getBoundingClientRect();
  const neighbours: [Element | null, (e: Element) => Element | null, number][] = [
    [this.previousElementSibling, (e) => e.previousElementSibling, -1],
    [this.nextElementSibling, (e) => e.nextElementSibling, 1],
  ];
  for (const [first, next, side] of neighbours) {
    let el = first;
    while (el !== null && el.getClientRects().length === 0) el = next(el);
    if (el === null) continue;
    const r = el.getBoundingClientRect();
    const sameRow = r.top < box.bottom && r.bottom > box.top;
    const sameColumn = r.left < box.right && r.right > box.left;
    if (sameRow === sameColumn) continue;
    const d = sameRow ? r.left + r.right - box.left - box.right : r.top + r.bottom - box.top - box.bottom;
    return { horizontal: sameRow, reversed: d * side < 0 };
  }
  return { horizontal: false, reversed: false };
}
