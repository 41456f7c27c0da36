// Small DOM builders for the popup. Every string they take is set as text
// (textContent), never as markup: task labels, control names, field values
// and notice messages come from agents and pages.
import type { AdoptionAnswer, EndTask, NoticeAction, PauseRequest, StageReview, YoloSwitch } from "../shared/status";

/** Everything the popup sends the worker; each is answered with a StatusReply. */
export type PopupMessage = PauseRequest | AdoptionAnswer | StageReview | NoticeAction | YoloSwitch | EndTask;

export type Send = (message: PopupMessage) => void;

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, className: string, text?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (className !== "") e.className = className;
  if (text !== undefined) e.textContent = text;
  return e;
}

/** A button of the given class; data (data-* attributes) names what it acts on, so tests click it as a user would. */
export function button(text: string, className: string, data: Record<string, string>, onClick: () => void): HTMLButtonElement {
  const b = el("button", className, text);
  b.type = "button";
  for (const [k, v] of Object.entries(data)) b.setAttribute(`data-${k}`, v);
  b.addEventListener("click", onClick);
  return b;
}

/** The task's colour dot. The colour is one of Chrome's tab group colour names, set as a style value, never markup. */
export function swatch(color: string): HTMLSpanElement {
  const s = el("span", "swatch");
  s.style.background = color;
  return s;
}
