// Whether an element is being moved by an animation. Source of truth:
// issue 3 (a moving target is refused). The two looks at the box in
// act/pointer.ts miss motion on a background tab: observed in Chromium
// 156, a hidden tab draws about one frame a second and the animation
// clock only advances with a frame, so two looks 20 ms apart usually see
// the same box. Running animations are asked for directly instead.

import { composedParent } from "./dom";

/**
 * Properties whose animation repaints without moving or resizing the box
 * (or hiding it from hit-testing). Anything else counts as motion.
 */
const PAINT_ONLY = new Set([
  "opacity",
  "color",
  "backgroundColor",
  "borderColor",
  "borderTopColor",
  "borderRightColor",
  "borderBottomColor",
  "borderLeftColor",
  "outlineColor",
  "boxShadow",
  "textShadow",
  "filter",
  "fill",
  "stroke",
  "caretColor",
  "textDecorationColor",
  "backgroundPosition",
]);

/** Keyframe members that are not properties. */
const NOT_PROPERTIES = new Set(["offset", "computedOffset", "easing", "composite"]);

function moves(a: Animation): boolean {
  if (a.playState !== "running") return false;
  const effect = a.effect;
  if (!(effect instanceof KeyframeEffect)) return false;
  for (const frame of effect.getKeyframes()) {
    for (const key of Object.keys(frame)) {
      if (!NOT_PROPERTIES.has(key) && !PAINT_ONLY.has(key)) return true;
    }
  }
  return false;
}

/** Whether a running animation on el or a composed ancestor changes layout or transform. */
export function animated(el: Element): boolean {
  for (let n: Node | null = el; n !== null; n = composedParent(n)) {
    if (n instanceof Element && n.getAnimations().some(moves)) return true;
  }
  return false;
}
