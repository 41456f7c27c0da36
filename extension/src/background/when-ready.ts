// Chrome events can wake a stopped worker before its ownership map is read
// back from storage.session. MV3 delivers such events only to listeners
// added synchronously at start-up, so the listeners are added at once and
// their work waits here for the map.
import type { Log } from "./log";
import { errorText } from "./log";

export function whenReady(ready: Promise<void>, log: Log, what: string, work: () => Promise<void>): void {
  void ready.then(work).catch((e: unknown) => log.warn(`${what}: ${errorText(e)}`));
}
