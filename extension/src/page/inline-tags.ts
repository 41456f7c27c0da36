// Tags laid out inline by default. The walkers use the tag, not the
// computed display, to decide where one text line ends: reading every
// element's style would cost more than the rest of the walk. Names (small
// subtrees) use the computed display instead (name.ts).

const INLINE = new Set(
  (
    "a abbr b bdi bdo br cite code data del dfn em font i img input ins kbd label mark q s samp select small " +
    "span strong sub sup textarea time u var wbr button meter output progress"
  ).split(" "),
);

export function isInlineTag(tag: string): boolean {
  return INLINE.has(tag);
}
