// No drag carries text into or out of a password, one-time-code or
// payment-card field. Source of truth: issue 9 (review of finding 2: a
// drag is input too, and the keys' refusal must not have a way around it);
// which fields are sensitive is decided by one rule (src/shared/sensitive.ts).
//
// Observed in Chromium 156 (e2e TestDragsNeverCarryTextIntoOrOutOfSensitiveFields):
// an intercepted HTML5 drop (Input.dispatchDragEvent) puts a dragged
// link's URL into the password field under the drop point, whatever ref
// the drag was aimed at (a region around the field); and a press on a
// one-time-code field's selected text (a plain text input; a double click
// selects it) drags the code out, into the field it is dropped on. So the
// element that receives the pointer where a drag presses and where it
// drops is checked before anything is dispatched, the drop point again
// right before the drop; through frames (the point's frame owner hands the
// pointer on to its document) and closed shadow roots (key-guard.ts).
import type { Outcome } from "../../protocol/generated";
import type { FrameEntry, FrameIndex } from "../cdp/frames";
import type { Page } from "../pagework/page-tab";
import type { Found } from "./key-guard";
import { childFrameOf, refusal, sealedSensitive, withElement } from "./key-guard";

/** A point in the top frame's viewport (where pointer input goes). */
export interface Point {
  x: number;
  y: number;
}

/** Where the drag's text would go: "into" at the drop point, "out of" at the press point. */
export type Way = "into" | "out of";

/**
 * Throws sensitive_field when the element receiving the pointer at the
 * point is (or hides) a sensitive field, or is in a frame AgentTab cannot
 * look into (the safe side).
 */
export async function refuseSensitivePoint(page: Page, index: FrameIndex, at: Point, way: Way, outcome: Outcome): Promise<void> {
  const found = await sensitiveAt(page, index, index.top, at);
  if (found !== undefined) throw refusal(found, outcome, way === "into" ? "drops no text into it" : "drags no text out of it", " under the pointer");
}

/** The sensitive field receiving the pointer at the point in frame's document or below, if any. */
async function sensitiveAt(page: Page, index: FrameIndex, frame: FrameEntry, at: Point): Promise<Found | undefined> {
  const offset = await page.offset(frame, index);
  const x = at.x - offset.x;
  const y = at.y - offset.y;
  const f = await page.agent(frame).fieldAt(x, y);
  if (f.sensitive) return { what: f.description || "the field under the pointer", unseen: false };
  if (!f.sealed && !f.frame) return undefined;
  return withElement(page, frame, (elements) => elements.elementAt(x, y), async (objectId): Promise<Found | undefined> => {
    if (f.sealed) return sealedSensitive(page, index, frame, objectId, f.description);
    const childId = await childFrameOf(page, frame, objectId);
    if (childId === undefined) return undefined;
    const child = index.frames.get(childId);
    if (child === undefined) return { what: f.description || "the frame", unseen: true };
    return sensitiveAt(page, index, child, at);
  });
}
