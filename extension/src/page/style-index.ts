// What each tree scope's style sheets can do, read once per snapshot.
// Per-element style reads are the walker's largest cost (a computed-style
// or layout read costs 1–2 µs per element in the isolated world, measured
// on the gen pages of notes/peers.md), so the walker pays for them only in
// tree scopes whose CSS can make them matter:
// - generated text (::before/::after) for names (notes/chromium.md),
// - the visibility property (checkVisibility with visibilityProperty
//   costs about three times the plain call),
// - clipping overflow (a zero-size box that clips hides its content),
// - the cursor (a pointer cursor is evidence of a click target, clickable.ts).
// A style sheet that cannot be read (cross-origin) may do anything.

export interface ScopeStyle {
  pseudo: boolean;
  visibility: boolean;
  overflow: boolean;
  cursor: boolean;
}

const ALL: ScopeStyle = { pseudo: true, visibility: true, overflow: true, cursor: true };
const PSEUDO_SELECTOR = /::?(before|after)\b/i;

export class StyleIndex {
  private readonly scopes = new Map<Node, ScopeStyle>();

  /** The scope of a document or shadow root (other nodes: everything possible). */
  of(root: Node): ScopeStyle {
    let s = this.scopes.get(root);
    if (s === undefined) {
      s = root instanceof Document || root instanceof ShadowRoot ? scan(root) : ALL;
      this.scopes.set(root, s);
    }
    return s;
  }

  /** Whether el may have generated text. */
  pseudo(el: Element): boolean {
    return this.of(el.getRootNode()).pseudo;
  }
}

function scan(root: Document | ShadowRoot): ScopeStyle {
  const s: ScopeStyle = {
    pseudo: false,
    // Inline styles count too; scripts that set el.style.x write the attribute.
    visibility: root.querySelector('[style*="visibility" i]') !== null,
    overflow: root.querySelector('[style*="overflow" i], [style*="contain" i]') !== null,
    cursor: root.querySelector('[style*="cursor" i]') !== null,
  };
  for (const sheet of [...root.styleSheets, ...root.adoptedStyleSheets]) {
    let rules: CSSRuleList;
    try {
      rules = sheet.cssRules;
    } catch {
      return ALL;
    }
    scanRules(rules, s);
    if (s.pseudo && s.visibility && s.overflow && s.cursor) break;
  }
  return s;
}

function scanRules(rules: CSSRuleList, s: ScopeStyle): void {
  for (const rule of rules) {
    if (rule instanceof CSSStyleRule) {
      if (PSEUDO_SELECTOR.test(rule.selectorText)) s.pseudo = true;
      scanStyle(rule.style, s);
      // CSS nesting: a style rule can hold "&::after" rules.
      if (rule.cssRules.length > 0) scanRules(rule.cssRules, s);
    } else if (rule instanceof CSSGroupingRule) {
      scanRules(rule.cssRules, s);
    } else if (rule instanceof CSSImportRule) {
      if (rule.styleSheet) {
        try {
          scanRules(rule.styleSheet.cssRules, s);
        } catch {
          Object.assign(s, ALL);
        }
      }
    } else if (rule instanceof CSSKeyframesRule) {
      // An animation can change visibility or overflow.
      for (const frame of rule.cssRules) if (frame instanceof CSSKeyframeRule) scanStyle(frame.style, s);
    }
  }
}

function scanStyle(style: CSSStyleDeclaration, s: ScopeStyle): void {
  if (style.visibility !== "") s.visibility = true;
  // contain:paint/strict/content clips like overflow:hidden.
  if (style.overflowX !== "" || style.overflowY !== "" || style.contain !== "") s.overflow = true;
  if (style.cursor !== "") s.cursor = true;
}
