// What a profile read answers per item (protocol ExtProfileResult.Items is
// untyped there): one bookmark, folder, history entry, session entry,
// device or download. A tree or a session list is flat, depth first, each
// item naming its parent_id, so an answer stays bounded by max_results.
// time_ms is when it was added (bookmark), last visited (history), closed
// or last changed (session) or started (download).
export type ProfileItemKind = "bookmark" | "folder" | "history" | "tab" | "window" | "device" | "download";

export interface ProfileItem {
  kind: ProfileItemKind;
  id: string;
  parent_id?: string;
  index?: number;
  title?: string;
  url?: string;
  time_ms?: number;
  /** A bookmark the administrator manages (it cannot be changed). */
  managed?: boolean;
  visit_count?: number;
  filename?: string;
  /** Download: in_progress, interrupted or complete. */
  state?: string;
  paused?: boolean;
  bytes_received?: number;
  total_bytes?: number;
  error?: string;
}

/** A read's answer: at most the bound, and whether there were more. */
export interface ProfileRead {
  items: ProfileItem[];
  truncated: boolean;
}
