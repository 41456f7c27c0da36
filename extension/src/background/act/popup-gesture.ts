// A gesture with the window.open trap around it (popup-trap.ts): what the
// page asked to open becomes background tabs of the task (popups.ts),
// reported to the steps watching the tab. The trap is installed by the
// route that serves the gesture: through the debugger, or through
// chrome.scripting on the scripting route.
import type { Context } from "../context";
import { notOwned, openPopup } from "../popups";
import { MAX_POPUPS, trapError } from "./popup-trap";
import type { Trap } from "./popup-trap";

export async function trapped<T>(ctx: Context, tabId: number, install: () => Promise<Trap>, gesture: () => Promise<T>): Promise<T> {
  let trap: Trap | undefined;
  try {
    trap = await install();
  } catch (e) {
    // Without the trap Chrome opens the popup itself and popups.ts still
    // takes it into the task; the gesture is not refused for it.
    ctx.log.warn(trapError(e));
  }
  try {
    return await gesture();
  } finally {
    // A gesture that navigated the frame or opened a dialog leaves nothing
    // to collect (the trap went with the document, or removes itself).
    const requests = (await trap?.collect().catch(() => [])) ?? [];
    requests.forEach((r, i) => {
      const work = i < MAX_POPUPS ? openPopup(ctx, tabId, r.url) : Promise.resolve(notOwned(-1, r.url, `one gesture opens at most ${MAX_POPUPS} popups`));
      ctx.popups.track(tabId, work);
    });
  }
}
