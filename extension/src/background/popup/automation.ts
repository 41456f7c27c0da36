// The automation switch. Source of truth: spec 000 (scripting is optional:
// "the popup requests it when automation is enabled and removes it when
// turned off") and DESIGN.md "Automation switch" (it governs only the
// optional scripting permission and the scripting route; turning it off
// also detaches debugger sessions).
import type { HasChrome, HasLog } from "../capabilities";
import type { HasPages } from "../context";
import { errorText } from "../log";

export function watchAutomation(ctx: HasChrome & HasPages & HasLog): void {
  ctx.chrome.permissions.onRemoved((removed) => {
    if (!removed.includes("scripting")) return;
    ctx.log.info("automation turned off: detaching every debugger session");
    ctx.pages.releaseAll().catch((e: unknown) => ctx.log.warn(`detaching after automation off: ${errorText(e)}`));
  });
}
