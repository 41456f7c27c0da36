// Short human descriptions of elements ("button \"Send\"", "div#overlay")
// for refusals: what an action's target is and what covers it. Built
// from the role and name, never from a field's value.

import { LabelMap } from "./labels";
import { Namer } from "./name";
import { StyleIndex } from "./style-index";
import { roleOf } from "./roles";
import { clip, quote } from "./text";

const DESCRIPTION_NAME_MAX = 60;

export function describe(el: Element): string {
  const role = roleOf(el, { presentationalTable: false, listItems: true, sectioning: true, grid: false });
  const name = new Namer(new LabelMap(), new StyleIndex()).name(el, role).name;
  const what = role === "generic" || role === "none" ? selectorOf(el) : role;
  return name === "" ? what : what + " " + quote(clip(name, DESCRIPTION_NAME_MAX));
}

/** tag#id.class, enough to recognise an overlay or wrapper. */
function selectorOf(el: Element): string {
  let s = el.localName;
  if (el.id !== "") s += "#" + el.id;
  const cls = el.classList[0];
  if (cls !== undefined) s += "." + cls;
  return s;
}
