// Screenshots of an owned tab, which is normally in the background.
//
// notes/chromium.md Trap 2, and measured again in Chromium 156 with focus
// emulation on (which page work needs for pointer input): the first
// Page.captureScreenshot of a background tab waits for a frame that Chrome
// produces only when asked again, and with focus emulation a lone request
// can wait forever. A new request every 100 ms gets the first answer in
// about 1.2 s after attaching and in 80–200 ms afterwards; the answers to
// the extra requests are dropped.
import type { ScreenshotKind } from "../../protocol/generated";
import type { Clock } from "../clock";
import { fieldsOf, numField, strField } from "../cdp/read";
import type { TabSession } from "../cdp/session";
import { CommandTimeout, DebuggerDetached, DialogOpened } from "../cdp/session";

const NUDGE_MS = 100;
const MAX_REQUESTS = 20;
const SHOT_MS = 8000;
/** Chrome's largest texture side; a longer page is cut there. */
const MAX_FULL_PAGE_PX = 16384;

/** A base64 PNG of the viewport or the whole page. */
export async function screenshot(session: TabSession, clock: Clock, kind: Exclude<ScreenshotKind, "none">): Promise<string> {
  let params: object = { format: "png" };
  if (kind === "full_page") {
    const metrics = await session.send("Page.getLayoutMetrics");
    const size = fieldsOf(metrics["cssContentSize"], "Page.getLayoutMetrics.cssContentSize");
    const width = Math.ceil(numField(size, "width", "cssContentSize"));
    const height = Math.min(Math.ceil(numField(size, "height", "cssContentSize")), MAX_FULL_PAGE_PX);
    params = { format: "png", captureBeyondViewport: true, clip: { x: 0, y: 0, width, height, scale: 1 } };
  }
  return new Promise<string>((resolve, reject) => {
    const stops: (() => void)[] = [];
    let settled = false;
    let sent = 0;
    let failed = 0;
    const settle = (f: () => void): void => {
      if (settled) return;
      settled = true;
      for (const stop of stops) stop();
      f();
    };
    const request = (): void => {
      if (settled) return;
      sent++;
      session.send("Page.captureScreenshot", params, { timeoutMs: SHOT_MS }).then(
        (r) => settle(() => resolve(strField(r, "data", "Page.captureScreenshot"))),
        (e: unknown) => {
          failed++;
          const final = e instanceof DialogOpened || e instanceof DebuggerDetached || (failed === sent && sent >= MAX_REQUESTS);
          if (final) settle(() => reject(e));
        },
      );
      if (sent < MAX_REQUESTS) stops.push(clock.after(NUDGE_MS, request));
    };
    stops.push(clock.after(SHOT_MS, () => settle(() => reject(new CommandTimeout("Page.captureScreenshot", SHOT_MS)))));
    request();
  });
}
