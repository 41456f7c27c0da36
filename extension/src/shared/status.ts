// What the popup asks the service worker and what it gets back. It holds
// counts and labels only, never page content (the popup is not a place to
// show what agents read).
import type { Effect, HandoffReason, LifecyclePaused, LifecyclePausing, LifecycleReady, PauseReason } from "../protocol/generated";

export const STATUS_REQUEST = "agenttab.status";

export interface StatusRequest {
  type: typeof STATUS_REQUEST;
}

/** The native host connection as the popup shows it. */
export type HostState =
  | { state: "connecting" }
  | { state: "connected"; hostVersion: string }
  | { state: "reconnecting"; reason: string; retryInMs: number }
  | { state: "rejected"; code: string; message: string; recovery: string };

export interface TaskSummary {
  /** The task's id (the popup sends it back with End task). */
  taskId: string;
  label: string;
  color: string;
  ownedTabs: number;
  /** An agent's connection holds the task now (from the host; false when the host is away). */
  connected: boolean;
  /** Milliseconds since the task's last request, when the host said. */
  idleMs?: number;
  /** The task used Developer mode (browser_developer): the popup marks it. */
  developer: boolean;
}

/**
 * The Pause as the popup shows it, in the host's lifecycle words
 * (protocol/pause.go): agents run (ready), a Pause has begun and
 * dispatched work is settling (pausing), or the Pause is in force (paused).
 */
export type PausePhase = typeof LifecycleReady | typeof LifecyclePausing | typeof LifecyclePaused;

export interface StatusReply {
  host: HostState;
  tasks: TaskSummary[];
  pause: PausePhase;
  /** Agent requests dispatched in this worker and not yet settled. */
  settling: number;
  /** Automation (the optional scripting permission) is granted. */
  automation: boolean;
  /** Adoption requests waiting for the user's Allow or Deny. */
  adoptions: AdoptionSummary[];
  /** Who paused, while paused or pausing (the debugging banner's Cancel is a Pause too). */
  pauseReason?: PauseReason;
  /** YOLO mode (on by default): recognised effects run without review. */
  yolo: boolean;
  /** Staged actions waiting for review or for the agent's commit. */
  stages: StageSummary[];
  /** Attention notices agents left (open, not hidden by Dismiss). */
  notices: NoticeSummary[];
}

/**
 * A staged action as the popup shows it for review: the effect, the
 * control's name, the origin Chrome reports for the tab, and the form's
 * visible field labels and values (a sensitive field's value is never
 * kept: sensitive is set and value is empty). All of it is page or agent
 * text: the popup sets it as text, never as markup.
 */
export interface StageSummary {
  /** The opaque review handle, the only thing the popup sends back. */
  handle: string;
  taskLabel: string;
  taskColor: string;
  effect: Effect;
  control: string;
  origin: string;
  fields: PreviewField[];
  /** pending: waits for Approve or Deny; approved: waits for the agent's browser_commit. */
  state: "pending" | "approved";
  expiresInMs: number;
}

export interface PreviewField {
  label: string;
  value: string;
  sensitive: boolean;
}

/** An attention notice as the popup shows it. */
export interface NoticeSummary {
  noticeId: string;
  taskLabel: string;
  taskColor: string;
  reason: HandoffReason;
  /** The agent's optional message (text only). */
  message: string;
  origin: string;
  ageMs: number;
}

export const STAGE_REVIEW = "agenttab.stage_review";

/** The popup's Approve or Deny of one stage; answered with a StatusReply. */
export interface StageReview {
  type: typeof STAGE_REVIEW;
  handle: string;
  approve: boolean;
}

export function isStageReview(v: unknown): v is StageReview {
  return typeof v === "object" && v !== null && "type" in v && v.type === STAGE_REVIEW && "handle" in v && typeof v.handle === "string" && "approve" in v && typeof v.approve === "boolean";
}

export const NOTICE_ACTION = "agenttab.notice";

/** The popup's Open tab (focuses exactly the noticed tab) or Dismiss (hides the reminder only); answered with a StatusReply. */
export interface NoticeAction {
  type: typeof NOTICE_ACTION;
  noticeId: string;
  action: "open_tab" | "dismiss";
}

export function isNoticeAction(v: unknown): v is NoticeAction {
  return typeof v === "object" && v !== null && "type" in v && v.type === NOTICE_ACTION && "noticeId" in v && typeof v.noticeId === "string" && "action" in v && (v.action === "open_tab" || v.action === "dismiss");
}

export const YOLO_SWITCH = "agenttab.yolo";

/** The popup's YOLO switch; answered with a StatusReply once the change is stored (and, turning on, stages discarded). */
export interface YoloSwitch {
  type: typeof YOLO_SWITCH;
  on: boolean;
}

export function isYoloSwitch(v: unknown): v is YoloSwitch {
  return typeof v === "object" && v !== null && "type" in v && v.type === YOLO_SWITCH && "on" in v && typeof v.on === "boolean";
}

export const END_TASK = "agenttab.end_task";

/** The popup's End task: release the task's tabs, keeping them open or closing them; answered with a StatusReply. */
export interface EndTask {
  type: typeof END_TASK;
  taskId: string;
  closeTabs: boolean;
}

export function isEndTask(v: unknown): v is EndTask {
  return typeof v === "object" && v !== null && "type" in v && v.type === END_TASK && "taskId" in v && typeof v.taskId === "string" && "closeTabs" in v && typeof v.closeTabs === "boolean";
}

/** A pending adoption as the popup shows it: who asks, and for which tab (title and origin only). */
export interface AdoptionSummary {
  id: string;
  taskLabel: string;
  taskColor: string;
  title: string;
  origin: string;
}

export const ADOPTION_ANSWER = "agenttab.adoption";

/** The popup's Allow or Deny on one adoption request; answered with a StatusReply. */
export interface AdoptionAnswer {
  type: typeof ADOPTION_ANSWER;
  id: string;
  allow: boolean;
}

export function isAdoptionAnswer(v: unknown): v is AdoptionAnswer {
  return typeof v === "object" && v !== null && "type" in v && v.type === ADOPTION_ANSWER && "id" in v && typeof v.id === "string" && "allow" in v && typeof v.allow === "boolean";
}

export const PAUSE_REQUEST = "agenttab.pause";

/** The popup's Pause (paused: true) or Resume (paused: false) button; answered with a StatusReply. */
export interface PauseRequest {
  type: typeof PAUSE_REQUEST;
  paused: boolean;
}

export function isPauseRequest(v: unknown): v is PauseRequest {
  return typeof v === "object" && v !== null && "type" in v && v.type === PAUSE_REQUEST && "paused" in v && typeof v.paused === "boolean";
}

export function isStatusRequest(v: unknown): v is StatusRequest {
  return typeof v === "object" && v !== null && "type" in v && v.type === STATUS_REQUEST;
}
