// Feeds the badge (badge.ts) the count of stages waiting for the user's
// Approve or Deny. The review store (review/reviews.ts) writes its whole
// list to storage.local on every change, wherever the change comes from
// (a staged step, a review, the YOLO switch, a commit, a finish), so the
// count is taken from each write rather than from every caller.
import type { ChromeApi } from "../../chrome/api";
import type { Clock } from "../clock";
import { isFields } from "../fields";
import { STAGES_KEY } from "../review/reviews";
import type { Badge } from "./badge";

export function countingStages(storage: ChromeApi["storageLocal"], badge: Pick<Badge, "count">, clock: Clock): ChromeApi["storageLocal"] {
  return {
    get: (key) => storage.get(key),
    set: async (key, value) => {
      await storage.set(key, value);
      if (key !== STAGES_KEY || !Array.isArray(value)) return;
      const now = clock.now();
      badge.count("stages", value.filter((e) => isFields(e) && e["state"] === "pending" && typeof e["expiresAt"] === "number" && e["expiresAt"] > now).length);
    },
  };
}
