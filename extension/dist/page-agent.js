"use strict";
(() => {
  // src/shared/page-agent.ts
  var PAGE_AGENT_GLOBAL = "__agenttab";
  var LISTENED_GLOBAL = "__agenttabListened";
  var NO_EFFECT = Object.freeze({ effect: null, rule: null, descriptor: "", preview: Object.freeze({ control: "", fields: [] }) });

  // src/page/labels.ts
  var LabelMap = class {
    byControl = /* @__PURE__ */ new Map();
    indexed = /* @__PURE__ */ new Set();
    labelsOf(control) {
      const root = control.getRootNode();
      if (!this.indexed.has(root)) this.index(root);
      return this.byControl.get(control) ?? [];
    }
    index(root) {
      this.indexed.add(root);
      if (!(root instanceof Document || root instanceof ShadowRoot)) return;
      for (const label of root.querySelectorAll("label")) {
        const control = label.control;
        if (!control) continue;
        const list = this.byControl.get(control);
        if (list) list.push(label);
        else this.byControl.set(control, [label]);
      }
    }
  };
  function labelledBySources(doc) {
    const out = /* @__PURE__ */ new Set();
    for (const el of doc.querySelectorAll("[aria-labelledby]")) {
      for (const id of (el.getAttribute("aria-labelledby") ?? "").trim().split(/\s+/)) {
        const target2 = id === "" ? null : doc.getElementById(id);
        if (target2) out.add(target2);
      }
    }
    return out;
  }

  // src/page/css-content.ts
  function parseContent(value, attr) {
    if (value === "none" || value === "normal" || value === "") return "";
    const parts = splitAlt(value);
    const source = parts.alt ?? parts.main;
    let out = "";
    let i = 0;
    while (i < source.length) {
      const c = source[i];
      if (c === '"' || c === "'") {
        const [text, end] = readString(source, i);
        out += text;
        i = end;
        continue;
      }
      const fn = /^[a-z-]+\(/i.exec(source.slice(i, i + 24));
      if (fn) {
        const close = closingParen(source, i + fn[0].length);
        if (fn[0].toLowerCase() === "attr(") out += attr(source.slice(i + 5, close).trim().split(/\s+/)[0] ?? "");
        i = close + 1;
        continue;
      }
      i++;
    }
    return out;
  }
  function splitAlt(value) {
    let i = 0;
    while (i < value.length) {
      const c = value[i];
      if (c === '"' || c === "'") {
        i = readString(value, i)[1];
        continue;
      }
      if (c === "/") return { main: value.slice(0, i), alt: value.slice(i + 1) };
      i++;
    }
    return { main: value, alt: void 0 };
  }
  function closingParen(s, start) {
    let depth = 1;
    let i = start;
    while (i < s.length) {
      const c = s[i];
      if (c === '"' || c === "'") {
        i = readString(s, i)[1];
        continue;
      }
      if (c === "(") depth++;
      if (c === ")" && --depth === 0) return i;
      i++;
    }
    return s.length;
  }
  function readString(s, start) {
    const q = s[start];
    let out = "";
    let i = start + 1;
    while (i < s.length) {
      const c = s[i];
      if (c === q) return [out, i + 1];
      if (c === "\\") {
        const hex = /^[0-9a-fA-F]{1,6}/.exec(s.slice(i + 1, i + 7));
        if (hex) {
          out += String.fromCodePoint(parseInt(hex[0], 16));
          i += 1 + hex[0].length;
          if (s[i] === " ") i++;
          continue;
        }
        out += s[i + 1] ?? "";
        i += 2;
        continue;
      }
      out += c;
      i++;
    }
    return [out, i];
  }
  function pseudoText(el, which) {
    const style = getComputedStyle(el, which);
    const value = style.content;
    if (value === "none" || value === "normal" || value === "") return "";
    if (style.display === "none") return "";
    return parseContent(value, (name) => el.getAttribute(name) ?? "");
  }

  // src/page/roles.ts
  var ARIA_ROLES = new Set(
    "alert alertdialog application article banner blockquote button caption cell checkbox code columnheader combobox complementary contentinfo definition deletion dialog directory document emphasis feed figure form generic grid gridcell group heading img image insertion link list listbox listitem log main mark marquee math menu menubar menuitem menuitemcheckbox menuitemradio meter navigation none note option paragraph presentation progressbar radio radiogroup region row rowgroup rowheader scrollbar search searchbox separator slider spinbutton status strong subscript superscript switch tab table tablist tabpanel term textbox time timer toolbar tooltip tree treegrid treeitem graphics-document graphics-object graphics-symbol".split(" ")
  );
  function roleOf(el, ctx) {
    const explicit = explicitRole(el);
    if (explicit !== void 0) {
      if ((explicit === "none" || explicit === "presentation") && !focusable(el)) return "none";
      if (explicit !== "none" && explicit !== "presentation") return explicit === "img" ? "image" : explicit;
    }
    return implicitRole(el, ctx);
  }
  function explicitRole(el) {
    const attr = el.getAttribute("role");
    if (attr === null) return void 0;
    for (const token of attr.trim().toLowerCase().split(/\s+/)) {
      if (ARIA_ROLES.has(token)) return token;
    }
    return void 0;
  }
  function focusable(el) {
    if (el.hasAttribute("tabindex")) return true;
    switch (el.localName) {
      case "a":
      case "area":
        return el.hasAttribute("href");
      case "button":
      case "input":
      case "select":
      case "textarea":
      case "iframe":
      case "summary":
        return true;
      default:
        return el instanceof HTMLElement && el.isContentEditable;
    }
  }
  var INPUT_ROLES = {
    button: "button",
    submit: "button",
    reset: "button",
    image: "button",
    file: "button",
    color: "button",
    checkbox: "checkbox",
    radio: "radio",
    range: "slider",
    number: "spinbutton",
    search: "searchbox"
  };
  var FIXED_ROLES = {
    article: "article",
    blockquote: "blockquote",
    button: "button",
    caption: "caption",
    code: "code",
    datalist: "listbox",
    dd: "definition",
    del: "deletion",
    details: "group",
    dfn: "term",
    dialog: "dialog",
    dt: "term",
    em: "emphasis",
    fieldset: "group",
    figure: "figure",
    hr: "separator",
    iframe: "iframe",
    frame: "iframe",
    ins: "insertion",
    main: "main",
    mark: "mark",
    math: "math",
    menu: "list",
    meter: "meter",
    nav: "navigation",
    ol: "list",
    optgroup: "group",
    option: "option",
    output: "status",
    p: "paragraph",
    progress: "progressbar",
    search: "search",
    strong: "strong",
    sub: "subscript",
    summary: "button",
    sup: "superscript",
    table: "table",
    textarea: "textbox",
    time: "time",
    ul: "list",
    dl: "list",
    aside: "complementary",
    h1: "heading",
    h2: "heading",
    h3: "heading",
    h4: "heading",
    h5: "heading",
    h6: "heading"
  };
  function implicitRole(el, ctx) {
    const tag = el.localName;
    const fixed = FIXED_ROLES[tag];
    if (fixed !== void 0) return fixed;
    switch (tag) {
      case "a":
      case "area":
        return el.hasAttribute("href") ? "link" : "generic";
      case "input":
        return el instanceof HTMLInputElement ? inputRole(el) : "generic";
      case "select":
        return el instanceof HTMLSelectElement && (el.multiple || el.size > 1) ? "listbox" : "combobox";
      case "img":
        return el.getAttribute("alt") === "" && !el.hasAttribute("aria-label") && !el.hasAttribute("title") ? "none" : "image";
      case "svg":
        return "image";
      case "section":
        return hasOwnName(el) ? "region" : "generic";
      case "form":
        return "form";
      case "header":
        return ctx.sectioning ? "generic" : "banner";
      case "footer":
        return ctx.sectioning ? "generic" : "contentinfo";
      case "li":
        return ctx.listItems ? "listitem" : "none";
      // role=presentation on a table makes its rows and cells generic
      // (Chrome 156, notes/chromium.md).
      case "tr":
        return ctx.presentationalTable ? "generic" : "row";
      case "thead":
      case "tbody":
      case "tfoot":
        return ctx.presentationalTable ? "generic" : "rowgroup";
      case "td":
        return ctx.presentationalTable ? "generic" : ctx.grid ? "gridcell" : "cell";
      case "th":
        return ctx.presentationalTable ? "generic" : headerCellRole(el);
      default:
        if (el instanceof HTMLElement && el.isContentEditable && !editableParent(el)) return "textbox";
        return "generic";
    }
  }
  function inputRole(el) {
    const type = el.type;
    if (type === "hidden") return "none";
    const fixed = INPUT_ROLES[type];
    if (fixed !== void 0) return type === "search" && el.hasAttribute("list") ? "combobox" : fixed;
    return el.hasAttribute("list") ? "combobox" : "textbox";
  }
  function headerCellRole(th) {
    const scope = th.getAttribute("scope");
    if (scope === "row" || scope === "rowgroup") return "rowheader";
    if (scope === "col" || scope === "colgroup") return "columnheader";
    const row = th.parentElement;
    if (row?.parentElement?.localName === "thead") return "columnheader";
    if (row) {
      for (const cell of row.children) if (cell.localName === "td") return "rowheader";
    }
    return "columnheader";
  }
  function hasOwnName(el) {
    return (el.getAttribute("aria-label") ?? "").trim() !== "" || (el.getAttribute("aria-labelledby") ?? "").trim() !== "" || (el.getAttribute("title") ?? "").trim() !== "";
  }
  function editableParent(el) {
    const p = el.parentElement;
    return p !== null && p.isContentEditable;
  }
  function headingLevel(el) {
    const aria = Number.parseInt(el.getAttribute("aria-level") ?? "", 10);
    if (aria >= 1) return aria;
    const m = /^h([1-6])$/.exec(el.localName);
    return m?.[1] !== void 0 ? Number(m[1]) : 2;
  }
  var NAME_FROM_CONTENT = new Set(
    "button cell checkbox columnheader gridcell heading link menuitem menuitemcheckbox menuitemradio option radio rowheader switch tab tooltip treeitem".split(" ")
  );

  // src/shared/sensitive.ts
  var FIELD_ELEMENTS = /* @__PURE__ */ new Set(["input", "select"]);
  function appliesTo(localName) {
    return FIELD_ELEMENTS.has(localName.toLowerCase());
  }
  var SECRET_AUTOCOMPLETE = /* @__PURE__ */ new Set([
    "current-password",
    "new-password",
    "one-time-code",
    "cc-number",
    "cc-csc",
    "cc-exp",
    "cc-exp-month",
    "cc-exp-year"
  ]);
  var SECRET_NAME = new RegExp(
    [
      "(^|-)(cc|card|credit-card|creditcard|debit-card)-?(num|number|no|nr)($|-)",
      "(^|-)(cardnumber|ccnumber|ccnum|cardnum|card-pan)($|-)",
      "(^|-)(cvc|cvv|csc|cvc2|cvv2|cvn)($|-)",
      "(^|-)(card|cc)-?(code|cvc|cvv|csc|security-code|verification)($|-)",
      "(^|-)security-code($|-)",
      "(^|-)(cc|card)-?exp",
      "(^|-)(otp|totp|one-time-code|onetimecode|one-time-password)($|-)",
      "(^|-)(password|passwd|pwd|passcode|pin)($|-)"
    ].join("|")
  );
  function words(s) {
    return s.replace(/([a-z0-9])([A-Z])/g, "$1-$2").toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
  }
  function isSensitiveField(a) {
    if (a.type.toLowerCase() === "password") return true;
    for (const token of a.autocomplete.toLowerCase().split(/\s+/)) {
      if (SECRET_AUTOCOMPLETE.has(token)) return true;
    }
    return secretName(a.name) || secretName(a.id);
  }
  function secretName(s) {
    return s !== "" && SECRET_NAME.test(words(s));
  }

  // src/page/credential-filled.ts
  var filled = /* @__PURE__ */ new WeakSet();
  function markFilled(f) {
    filled.add(f);
  }
  function credentialFilled(el) {
    return filled.has(el);
  }

  // src/page/sensitive.ts
  function isSensitiveElement(el) {
    if (!(el instanceof HTMLElement) || !appliesTo(el.localName)) return false;
    return isSensitiveField({
      // A page that flips type=password to text to "show" the password
      // usually keeps its autocomplete and name, which still classify it.
      type: el.getAttribute("type") ?? "",
      autocomplete: el.getAttribute("autocomplete") ?? "",
      name: el.getAttribute("name") ?? "",
      id: el.id
    });
  }
  function hidesValue(el) {
    return isSensitiveElement(el) || credentialFilled(el);
  }

  // src/page/text.ts
  function collapse(s) {
    return s.replace(/[ \t\n\r\f]+/g, " ");
  }
  function squash(s) {
    return collapse(s).trim();
  }
  function clip(s, max) {
    return s.length <= max ? s : s.slice(0, Math.max(0, max - 1)) + "…";
  }
  function quote(s) {
    return JSON.stringify(s);
  }
  function oneLine(s, max) {
    return clip(s.replace(/\r\n?|\n/g, "\\n"), max);
  }
  var Tally = class {
    /** Characters left out. */
    chars = 0;
    /** Texts cut. */
    texts = 0;
    /** clip() that counts what it leaves out. */
    clip(s, max) {
      if (s.length <= max) return s;
      this.chars += s.length - (max - 1);
      this.texts++;
      return clip(s, max);
    }
  };
  function clipRun(s, max, keep, tally) {
    if (s.length <= max) return s;
    let cut = keep;
    const space = s.lastIndexOf(" ", keep);
    if (space >= keep * 0.75) cut = space;
    const left = s.length - cut;
    tally.chars += left;
    tally.texts++;
    return `${s.slice(0, cut)}… (+${left} chars)`;
  }

  // src/page/visibility.ts
  var WITH_VISIBILITY = { visibilityProperty: true, checkVisibilityCSS: true };
  var WITH_OPACITY = {
    visibilityProperty: true,
    checkVisibilityCSS: true,
    opacityProperty: true,
    checkOpacity: true
  };
  function shown(el, checkVisibilityProperty) {
    if (checkVisibilityProperty) {
      if (el.checkVisibility(WITH_VISIBILITY)) return 0 /* Yes */;
      if (el.checkVisibility()) return 1 /* Invisible */;
    } else if (el.checkVisibility()) {
      return 0 /* Yes */;
    }
    if (getComputedStyle(el).display === "contents") return 2 /* Contents */;
    return 3 /* No */;
  }
  function ariaHidden(el) {
    return el.getAttribute("aria-hidden") === "true";
  }
  function clipsToNothing(el) {
    if (!(el instanceof HTMLElement) || el.firstChild === null) return false;
    const s = getComputedStyle(el);
    if (s.overflow === "visible" && (s.contain === "none" || s.contain === "")) return false;
    return el.offsetWidth === 0 || el.offsetHeight === 0;
  }
  function opaque(el) {
    return el.checkVisibility(WITH_OPACITY);
  }
  function visible(el) {
    return el.checkVisibility(WITH_VISIBILITY);
  }

  // src/page/name.ts
  var NONE = { name: "", fromContent: false };
  var BUTTON_INPUTS = /* @__PURE__ */ new Set(["button", "submit", "reset"]);
  var PLACEHOLDER_INPUTS = /* @__PURE__ */ new Set(["text", "search", "url", "tel", "email", "password", "number"]);
  var Namer = class {
    constructor(labels, styles) {
      this.labels = labels;
      this.styles = styles;
    }
    labels;
    styles;
    name(el, role) {
      const labelledBy = this.labelledBy(el);
      if (labelledBy !== "") return { name: labelledBy, fromContent: false };
      const ariaLabel = squash(el.getAttribute("aria-label") ?? "");
      if (ariaLabel !== "") return { name: ariaLabel, fromContent: false };
      const native = this.nativeName(el);
      if (native !== "") return { name: native, fromContent: false };
      if (NAME_FROM_CONTENT.has(role)) {
        const content = squash(this.content(el, el, true));
        if (content !== "") return { name: content, fromContent: true };
      }
      const title = squash(el.getAttribute("title") ?? "");
      if (title !== "") return { name: title, fromContent: false };
      return placeholderName(el);
    }
    labelledBy(el) {
      const ids = el.getAttribute("aria-labelledby");
      if (ids === null) return "";
      const root = el.getRootNode();
      if (!(root instanceof Document || root instanceof ShadowRoot)) return "";
      const parts = [];
      for (const id of ids.trim().split(/\s+/)) {
        const ref = id === "" ? null : root.getElementById(id);
        if (!ref) continue;
        const label = squash(ref.getAttribute("aria-label") ?? "");
        parts.push(label !== "" ? label : squash(this.content(ref, el, false)));
      }
      return squash(parts.join(" "));
    }
    /** Names from the element's own markup: labels, alt, legend, caption, value. */
    nativeName(el) {
      if (el instanceof HTMLInputElement) {
        const type = el.type;
        if (BUTTON_INPUTS.has(type)) {
          const value = el.getAttribute("value");
          if (value !== null && value !== "") return squash(value);
          return type === "submit" ? "Submit" : type === "reset" ? "Reset" : "";
        }
        if (type === "image") {
          return squash(el.getAttribute("alt") ?? el.getAttribute("value") ?? "") || "Submit";
        }
        return this.labelText(el);
      }
      if (el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement || el instanceof HTMLButtonElement) {
        return this.labelText(el);
      }
      if (el instanceof HTMLMeterElement || el instanceof HTMLProgressElement || el instanceof HTMLOutputElement) {
        return this.labelText(el);
      }
      switch (el.localName) {
        case "img":
        case "area":
          return squash(el.getAttribute("alt") ?? "");
        case "fieldset":
          return this.firstChildText(el, "legend");
        case "table":
          return this.firstChildText(el, "caption");
        case "figure":
          return this.firstChildText(el, "figcaption");
        case "svg":
          return this.firstChildText(el, "title");
        case "option":
          return squash((el instanceof HTMLOptionElement ? el.label : "") || this.content(el, el, true));
        default:
          return "";
      }
    }
    /** The control's labels (label[for] and wrapping labels), from the map built once per snapshot. */
    labelsOf(control) {
      return this.labels.labelsOf(control);
    }
    labelText(control) {
      const labels = this.labels.labelsOf(control);
      if (labels.length === 0) return "";
      return squash(labels.map((l) => this.content(l, control, true)).join(" "));
    }
    /** The text of el's first child element with this tag (legend, caption, figcaption, title). */
    firstChildText(el, tag) {
      for (const c of el.children) {
        if (c.localName === tag) return squash(this.content(c, el, true));
      }
      return "";
    }
    /**
     * The text of node's subtree for a name: text nodes, CSS-generated text,
     * alt text, the values of embedded controls (never of sensitive fields),
     * blocks separated by a space. `self` is the element being named (it
     * contributes no value to its own name); `checkHidden` is false for
     * aria-labelledby targets, whose hidden content counts.
     */
    content(node, self, checkHidden) {
      let out = this.pseudoBefore(node);
      const kids = renderedChildren(node);
      if (kids === null) {
        for (let c = node.firstChild; c !== null; c = c.nextSibling) out += this.childText(c, self, checkHidden);
      } else {
        for (const c of kids) out += this.childText(c, self, checkHidden);
      }
      return out + this.pseudoAfter(node);
    }
    childText(child, self, checkHidden) {
      if (child instanceof Text) return child.data;
      if (!(child instanceof Element)) return "";
      if (checkHidden) {
        if (ariaHidden(child)) return "";
        const s = shown(child, true);
        if (s === 3 /* No */ || s === 1 /* Invisible */) return "";
      }
      const text = this.childContent(child, self, checkHidden);
      return inlineDisplay(child) ? text : " " + text + " ";
    }
    childContent(el, self, checkHidden) {
      const tag = el.localName;
      if (tag === "br") return " ";
      if (embeddedControl(el)) return el === self ? "" : controlValue(el);
      if (tag === "img" || tag === "area") return el.getAttribute("alt") ?? el.getAttribute("title") ?? "";
      if (tag === "svg") return squash(el.getAttribute("aria-label") ?? "") || this.firstChildText(el, "title");
      if (tag === "script" || tag === "style" || tag === "template") return "";
      const label = squash(el.getAttribute("aria-label") ?? "");
      if (label !== "") return label;
      return this.content(el, self, checkHidden);
    }
    pseudoBefore(el) {
      return this.styles.pseudo(el) ? pseudoText(el, "::before") : "";
    }
    pseudoAfter(el) {
      return this.styles.pseudo(el) ? pseudoText(el, "::after") : "";
    }
  };
  function placeholderName(el) {
    const isText = el instanceof HTMLInputElement && PLACEHOLDER_INPUTS.has(el.type) || el instanceof HTMLTextAreaElement;
    const placeholder = isText ? el.getAttribute("placeholder") : el.getAttribute("aria-placeholder");
    const name = squash(placeholder ?? "");
    return name === "" ? NONE : { name, fromContent: false };
  }
  function renderedChildren(node) {
    if (node.shadowRoot) return node.shadowRoot.childNodes;
    if (node instanceof HTMLSlotElement) {
      const assigned = node.assignedNodes();
      if (assigned.length > 0) return assigned;
    }
    return null;
  }
  function inlineDisplay(el) {
    const d = getComputedStyle(el).display;
    return d === "inline" || d === "contents";
  }
  function embeddedControl(el) {
    return el instanceof HTMLInputElement && el.type !== "hidden" || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement;
  }
  function controlValue(el) {
    if (el instanceof HTMLSelectElement) {
      return isSensitiveElement(el) ? "" : [...el.selectedOptions].map((o) => o.label).join(" ");
    }
    if (el instanceof HTMLInputElement) {
      if (el.type === "checkbox" || el.type === "radio" || hidesValue(el)) return "";
      return BUTTON_INPUTS.has(el.type) ? el.value : " " + el.value + " ";
    }
    if (el instanceof HTMLTextAreaElement) return " " + el.value + " ";
    return "";
  }

  // src/page/style-index.ts
  var ALL = { pseudo: true, visibility: true, overflow: true, cursor: true };
  var PSEUDO_SELECTOR = /::?(before|after)\b/i;
  var StyleIndex = class {
    scopes = /* @__PURE__ */ new Map();
    /** The scope of a document or shadow root (other nodes: everything possible). */
    of(root) {
      let s = this.scopes.get(root);
      if (s === void 0) {
        s = root instanceof Document || root instanceof ShadowRoot ? scan(root) : ALL;
        this.scopes.set(root, s);
      }
      return s;
    }
    /** Whether el may have generated text. */
    pseudo(el) {
      return this.of(el.getRootNode()).pseudo;
    }
  };
  function scan(root) {
    const s = {
      pseudo: false,
      // Inline styles count too; scripts that set el.style.x write the attribute.
      visibility: root.querySelector('[style*="visibility" i]') !== null,
      overflow: root.querySelector('[style*="overflow" i], [style*="contain" i]') !== null,
      cursor: root.querySelector('[style*="cursor" i]') !== null
    };
    for (const sheet of [...root.styleSheets, ...root.adoptedStyleSheets]) {
      let rules;
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
  function scanRules(rules, s) {
    for (const rule of rules) {
      if (rule instanceof CSSStyleRule) {
        if (PSEUDO_SELECTOR.test(rule.selectorText)) s.pseudo = true;
        scanStyle(rule.style, s);
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
        for (const frame of rule.cssRules) if (frame instanceof CSSKeyframeRule) scanStyle(frame.style, s);
      }
    }
  }
  function scanStyle(style, s) {
    if (style.visibility !== "") s.visibility = true;
    if (style.overflowX !== "" || style.overflowY !== "" || style.contain !== "") s.overflow = true;
    if (style.cursor !== "") s.cursor = true;
  }

  // src/page/describe.ts
  var DESCRIPTION_NAME_MAX = 60;
  function describe(el) {
    const role = roleOf(el, { presentationalTable: false, listItems: true, sectioning: true, grid: false });
    const name = new Namer(new LabelMap(), new StyleIndex()).name(el, role).name;
    const what = role === "generic" || role === "none" ? selectorOf(el) : role;
    return name === "" ? what : what + " " + quote(clip(name, DESCRIPTION_NAME_MAX));
  }
  function selectorOf(el) {
    let s = el.localName;
    if (el.id !== "") s += "#" + el.id;
    const cls = el.classList[0];
    if (cls !== void 0) s += "." + cls;
    return s;
  }

  // src/page/states.ts
  var CHECKABLE = /* @__PURE__ */ new Set(["checkbox", "radio", "switch", "menuitemcheckbox", "menuitemradio", "treeitem"]);
  var SELECTABLE = /* @__PURE__ */ new Set(["option", "tab", "gridcell", "row", "treeitem", "cell", "columnheader", "rowheader"]);
  var VALUE_ROLES = /* @__PURE__ */ new Set(["textbox", "searchbox", "spinbutton", "combobox", "slider"]);
  function statesOf(el, role, disabled2) {
    let out = "";
    if (CHECKABLE.has(role)) {
      const c = checkedState(el);
      if (c === "true") out += " [checked]";
      else if (c === "mixed") out += " [checked=mixed]";
    }
    if (SELECTABLE.has(role) && selected(el)) out += " [selected]";
    const expanded = expandedState(el);
    if (expanded !== void 0) out += expanded ? " [expanded]" : " [expanded=false]";
    const pressed = el.getAttribute("aria-pressed");
    if (pressed === "true") out += " [pressed]";
    else if (pressed === "mixed") out += " [pressed=mixed]";
    if (disabled2) out += " [disabled]";
    if (required(el)) out += " [required]";
    out += invalidState(el);
    if (role === "heading") out += ` [level=${headingLevel(el)}]`;
    if (isSensitiveElement(el)) out += " [sensitive]";
    return out;
  }
  function checkedState(el) {
    if (el instanceof HTMLInputElement && (el.type === "checkbox" || el.type === "radio")) {
      if (el.type === "checkbox" && el.indeterminate) return "mixed";
      return el.checked ? "true" : "false";
    }
    const aria = el.getAttribute("aria-checked");
    if (aria === "true" || aria === "mixed") return aria;
    return aria === null ? void 0 : "false";
  }
  function selected(el) {
    if (el instanceof HTMLOptionElement) return el.selected;
    return el.getAttribute("aria-selected") === "true";
  }
  function expandedState(el) {
    const aria = el.getAttribute("aria-expanded");
    if (aria === "true") return true;
    if (aria === "false") return false;
    if (el.localName === "summary" && el.parentElement instanceof HTMLDetailsElement) return el.parentElement.open;
    return void 0;
  }
  function invalidState(el) {
    if ((el instanceof HTMLInputElement || el instanceof HTMLSelectElement || el instanceof HTMLTextAreaElement) && el.matches(":user-invalid")) {
      return el.validationMessage === "" || hidesValue(el) ? " [invalid]" : ` [invalid=${JSON.stringify(el.validationMessage)}]`;
    }
    return el.getAttribute("aria-invalid") === "true" ? " [invalid]" : "";
  }
  function required(el) {
    if (el instanceof HTMLInputElement || el instanceof HTMLSelectElement || el instanceof HTMLTextAreaElement) {
      if (el.required) return true;
    }
    return el.getAttribute("aria-required") === "true";
  }
  function nativelyDisabled(el) {
    return el.matches(":disabled");
  }
  function valueOf(el, role) {
    if (!VALUE_ROLES.has(role)) return void 0;
    if (hidesValue(el)) return void 0;
    if (el instanceof HTMLInputElement) {
      if (el.type === "file") return void 0;
      return el.value === "" ? void 0 : el.value;
    }
    if (el instanceof HTMLTextAreaElement) return el.value === "" ? void 0 : el.value;
    if (el instanceof HTMLSelectElement) {
      const o = el.selectedOptions[0];
      return o ? o.label : void 0;
    }
    const aria = el.getAttribute("aria-valuetext") ?? el.getAttribute("aria-valuenow");
    return aria === null || aria === "" ? void 0 : aria;
  }

  // src/page/dom.ts
  function composedParent(n) {
    const p = n.parentNode;
    return p instanceof ShadowRoot ? p.host : p;
  }
  function composedContains(el, inner) {
    for (let n = inner; n !== null; n = composedParent(n)) {
      if (n === el) return true;
    }
    return false;
  }
  function deepActiveElement() {
    let a = document.activeElement;
    while (a?.shadowRoot?.activeElement) a = a.shadowRoot.activeElement;
    return a;
  }
  function disabled(el) {
    if (nativelyDisabled(el)) return true;
    for (let n = el; n !== null; n = composedParent(n)) {
      if (n instanceof Element && n.getAttribute("aria-disabled") === "true") return true;
    }
    return false;
  }
  function controlOf(el) {
    return el instanceof HTMLLabelElement && el.control ? el.control : el;
  }
  function editable(el) {
    if (el instanceof HTMLInputElement) {
      return !NOT_TYPED.has(el.type) && !el.readOnly && !el.disabled;
    }
    if (el instanceof HTMLTextAreaElement) return !el.readOnly && !el.disabled;
    return el instanceof HTMLElement && el.isContentEditable;
  }
  var NOT_TYPED = /* @__PURE__ */ new Set(["button", "submit", "reset", "image", "checkbox", "radio", "range", "color", "file", "hidden"]);

  // src/page/motion.ts
  var PAINT_ONLY = /* @__PURE__ */ new Set([
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
    "backgroundPosition"
  ]);
  var NOT_PROPERTIES = /* @__PURE__ */ new Set(["offset", "computedOffset", "easing", "composite"]);
  function moves(a) {
    if (a.playState !== "running") return false;
    const effect2 = a.effect;
    if (!(effect2 instanceof KeyframeEffect)) return false;
    for (const frame of effect2.getKeyframes()) {
      for (const key of Object.keys(frame)) {
        if (!NOT_PROPERTIES.has(key) && !PAINT_ONLY.has(key)) return true;
      }
    }
    return false;
  }
  function animated(el) {
    for (let n = el; n !== null; n = composedParent(n)) {
      if (n instanceof Element && n.getAnimations().some(moves)) return true;
    }
    return false;
  }

  // src/page/clip.ts
  function viewport() {
    const d = document.documentElement;
    return { left: 0, top: 0, right: d.clientWidth || window.innerWidth, bottom: d.clientHeight || window.innerHeight };
  }
  function intersect(a, b) {
    return { left: Math.max(a.left, b.left), top: Math.max(a.top, b.top), right: Math.min(a.right, b.right), bottom: Math.min(a.bottom, b.bottom) };
  }
  function isEmpty(b) {
    return b.right <= b.left || b.bottom <= b.top;
  }
  function inside(r, c) {
    return r.left >= c.left - 1 && r.top >= c.top - 1 && r.right <= c.right + 1 && r.bottom <= c.bottom + 1;
  }
  function layoutParent(n) {
    return n instanceof Element && n.assignedSlot !== null ? n.assignedSlot : composedParent(n);
  }
  function containsAbsolute(s) {
    return s.position !== "static" || s.transform !== "none" || s.filter !== "none" || s.perspective !== "none" || /paint|layout|strict|content/.test(s.contain);
  }
  var SCROLLS = /* @__PURE__ */ new Set(["auto", "scroll"]);
  var ALL2 = { left: -Infinity, top: -Infinity, right: Infinity, bottom: Infinity };
  function along(b, x, y) {
    return { left: x ? b.left : ALL2.left, right: x ? b.right : ALL2.right, top: y ? b.top : ALL2.top, bottom: y ? b.bottom : ALL2.bottom };
  }
  function clipOf(el) {
    let shown2 = viewport();
    let reach = shown2;
    const root = document.documentElement;
    const body = document.body;
    let position = getComputedStyle(el).position;
    if (position === "fixed") return { shown: shown2, reach };
    let skipping = position === "absolute";
    for (let n = layoutParent(el); n instanceof Element && n !== root && n !== body; n = layoutParent(n)) {
      const s = getComputedStyle(n);
      if (skipping) {
        if (!containsAbsolute(s)) continue;
        skipping = false;
      }
      if (s.display !== "contents" && (s.overflowX !== "visible" || s.overflowY !== "visible")) {
        const r = n.getBoundingClientRect();
        const padding = { left: r.left + n.clientLeft, top: r.top + n.clientTop, right: r.left + n.clientLeft + n.clientWidth, bottom: r.top + n.clientTop + n.clientHeight };
        shown2 = intersect(shown2, along(padding, s.overflowX !== "visible", s.overflowY !== "visible"));
        reach = intersect(reach, along(padding, SCROLLS.has(s.overflowX), SCROLLS.has(s.overflowY)));
      }
      position = s.position;
      if (position === "fixed") break;
      skipping = position === "absolute";
    }
    return { shown: shown2, reach };
  }

  // src/page/point.ts
  var SHADOW_HOSTS = /* @__PURE__ */ new Set(["article", "aside", "blockquote", "body", "div", "footer", "h1", "h2", "h3", "h4", "h5", "h6", "header", "main", "nav", "p", "section", "span"]);
  function mayHideShadowRoot(el) {
    if (el.shadowRoot !== null || !(el instanceof HTMLElement)) return false;
    return el.localName.includes("-") || SHADOW_HOSTS.has(el.localName);
  }
  function elementAt(x, y) {
    let hit = document.elementFromPoint(x, y);
    while (hit?.shadowRoot) {
      const inner = hit.shadowRoot.elementFromPoint(x, y);
      if (inner === null || inner === hit) break;
      hit = inner;
    }
    return hit;
  }
  var FRAME_OWNERS = /* @__PURE__ */ new Set(["iframe", "frame", "object", "embed"]);
  function isFrameOwner(el) {
    return FRAME_OWNERS.has(el.localName);
  }
  function fieldAt(x, y) {
    const el = elementAt(x, y);
    if (el === null) return { sensitive: false, description: "", sealed: false, frame: false };
    return { sensitive: isSensitiveElement(el), description: describe(el), sealed: mayHideShadowRoot(el), frame: isFrameOwner(el) };
  }

  // src/page/target.ts
  function target(el) {
    const info = { ok: false, x: 0, y: 0, width: 0, height: 0, sensitive: false, description: "" };
    if (el === null || !el.isConnected) return { ...info, reason: "detached" };
    info.description = describe(el);
    info.sensitive = isSensitiveElement(el) || isSensitiveElement(controlOf(el));
    info.editable = editable(el);
    if (!visible(el) || !hasArea(el.getBoundingClientRect())) return { ...info, reason: "hidden" };
    if (!opaque(el)) return { ...info, reason: "transparent" };
    if (disabled(el)) return { ...info, reason: "disabled" };
    let clip2 = clipOf(el);
    if (!inside(el.getBoundingClientRect(), clip2.reach)) {
      el.scrollIntoView({ block: "center", inline: "center", behavior: "instant" });
      clip2 = clipOf(el);
    }
    const box = firstVisibleRect(el, clip2.shown);
    if (box === null) return { ...info, reason: "no_box" };
    return {
      ...info,
      ok: true,
      moving: animated(el),
      x: (box.left + box.right) / 2,
      y: (box.top + box.bottom) / 2,
      width: box.right - box.left,
      height: box.bottom - box.top
    };
  }
  function hasArea(r) {
    return r.width > 0 && r.height > 0;
  }
  function firstVisibleRect(el, shown2) {
    for (const r of el.getClientRects()) {
      const box = intersect(r, shown2);
      if (!isEmpty(box)) return box;
    }
    return null;
  }
  function hitTest(el, x, y) {
    if (el === null || !el.isConnected) return { ok: false, covering: "nothing: the element is detached" };
    const hit = elementAt(x, y);
    if (hit === null) return { ok: false, covering: "nothing: the point is outside the viewport" };
    if (composedContains(el, hit)) return { ok: true };
    const label = hit.closest("label");
    if (label?.control === el) return { ok: true };
    return { ok: false, covering: describe(hit) };
  }
  async function aim(el, gap) {
    const first = target(el());
    if (!first.ok) return { first };
    await (gap.frame ? nextFrame(gap.ms) : tasksFor(gap.ms));
    const second = target(el());
    if (!second.ok) return { first, second };
    return { first, second, hit: hitTest(el(), second.x, second.y) };
  }
  function nextFrame(ms) {
    return new Promise((resolve2) => {
      let done = false;
      const finish = () => {
        if (done) return;
        done = true;
        resolve2();
      };
      requestAnimationFrame(() => requestAnimationFrame(finish));
      void tasksFor(ms).then(finish);
    });
  }
  function tasksFor(ms) {
    const until = performance.now() + ms;
    return new Promise((resolve2) => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => {
        if (performance.now() < until) {
          channel.port2.postMessage(null);
          return;
        }
        channel.port1.close();
        resolve2();
      };
      channel.port2.postMessage(null);
    });
  }

  // src/page/key-target.ts
  var PICKED = /* @__PURE__ */ new Set(["date", "time", "datetime-local", "month", "week", "color", "range"]);
  var NO_TEXT = /* @__PURE__ */ new Set(["button", "submit", "reset", "image", "checkbox", "radio", "file", "hidden"]);
  function takesText(el) {
    if (el instanceof HTMLInputElement) return !NO_TEXT.has(el.type);
    if (el instanceof HTMLTextAreaElement) return true;
    return el instanceof HTMLElement && el.isContentEditable;
  }
  function seen(el) {
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && opaque(el);
  }
  function hiddenInput(container) {
    let found = null;
    for (const f of container.querySelectorAll("input, textarea, [contenteditable]")) {
      if (!takesText(f)) continue;
      if (seen(f) || found !== null) return null;
      if (visible(f)) found = f;
    }
    return found;
  }
  function keyField(el) {
    const c = controlOf(el);
    if (takesText(c)) return c;
    return hiddenInput(c) ?? c;
  }
  function fieldValue(f) {
    let value = "";
    if (f instanceof HTMLInputElement || f instanceof HTMLTextAreaElement) value = f.value;
    else if (f instanceof HTMLElement && f.isContentEditable) value = f.textContent ?? "";
    return hidesValue(f) ? { length: value.length } : { length: value.length, value };
  }
  function pickerOf(f) {
    return f instanceof HTMLInputElement && PICKED.has(f.type) ? f.type : void 0;
  }
  function writable(f) {
    if (f instanceof HTMLInputElement || f instanceof HTMLTextAreaElement) return takesText(f) && !f.readOnly && !f.disabled;
    return f instanceof HTMLElement && f.isContentEditable;
  }
  function hasFocus(f) {
    const active = deepActiveElement();
    return active !== null && composedContains(f, active);
  }
  function keyTarget(el, mode) {
    if (el === null || !el.isConnected) return target(el);
    const field = keyField(el);
    const sensitive = isSensitiveElement(el) || isSensitiveElement(field);
    const about = { sensitive, editable: writable(field), description: describe(field) };
    const picker = pickerOf(field);
    const shape = { ...picker === void 0 ? {} : { picker }, ...field instanceof HTMLTextAreaElement || field instanceof HTMLElement && field.isContentEditable ? { multiline: true } : {} };
    let info;
    if (field === controlOf(el) && seen(field)) {
      info = { ...target(el), ...about, ...shape };
    } else {
      info = { ok: true, x: 0, y: 0, width: 0, height: 0, ...about, ...shape, byFocus: true };
      if (!visible(field) || !visible(el)) info = { ...info, ok: false, reason: "hidden" };
      else if (disabled(field)) info = { ...info, ok: false, reason: "disabled" };
    }
    if (info.ok && !sensitive && mode !== "press" && hasFocus(field)) info.ready = ready(field, mode);
    return info;
  }
  function ready(f, mode) {
    if (f instanceof HTMLInputElement || f instanceof HTMLTextAreaElement) {
      if (mode === "fill") f.select();
      else {
        try {
          f.setSelectionRange(f.value.length, f.value.length);
        } catch {
        }
      }
    } else if (f instanceof HTMLElement && f.isContentEditable) {
      const s = f.ownerDocument.getSelection();
      if (s !== null) {
        s.selectAllChildren(f);
        if (mode === "type") s.collapseToEnd();
      }
    }
    return fieldValue(f);
  }
  function keyReady(el, mode, focus2) {
    if (el === null || !el.isConnected) return { focused: false };
    const field = keyField(el);
    if (isSensitiveElement(el) || isSensitiveElement(field)) return { focused: false };
    if (focus2 && !hasFocus(field) && (field instanceof HTMLElement || field instanceof SVGElement)) field.focus({ preventScroll: true });
    if (!hasFocus(field)) return { focused: false };
    return mode === "press" ? { focused: true } : { focused: true, held: ready(field, mode) };
  }
  function keyValue(el) {
    return el === null ? { length: 0 } : fieldValue(keyField(el));
  }
  function took(type, asked, now) {
    if (type === "range") return asked.trim() !== "" && Number(now) === Number(asked);
    if (type === "color") return now === asked.trim().toLowerCase();
    return now !== "" || asked === "";
  }
  function pickValue(el, value) {
    if (el === null || !el.isConnected) return { done: "not_accepted", held: { length: 0 } };
    const field = keyField(el);
    if (isSensitiveElement(el) || isSensitiveElement(field)) return { done: "refused", held: { length: 0 } };
    const type = pickerOf(field);
    if (!(field instanceof HTMLInputElement) || type === void 0 || !writable(field)) return { done: "not_accepted", held: fieldValue(field) };
    const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")?.set;
    const put2 = (v) => {
      if (setter === void 0) field.value = v;
      else setter.call(field, v);
    };
    const before = field.value;
    field.focus({ preventScroll: true });
    put2(value);
    const became = field.value;
    if (!took(type, value, became)) {
      put2(before);
      return { done: "not_accepted", held: fieldValue(field), became };
    }
    field.dispatchEvent(new Event("input", { bubbles: true, composed: true }));
    field.dispatchEvent(new Event("change", { bubbles: true }));
    return { done: "set", held: fieldValue(field) };
  }

  // src/page/dom-input.ts
  function domClick(el, navigation) {
    const info = target(el);
    if (info.ok && navigationTarget(el) !== navigation) return { ...info, ok: false, reason: "re_aimed" };
    if (info.ok && el instanceof HTMLElement) el.click();
    else if (info.ok && el !== null) el.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true, composed: true }));
    return info;
  }
  function domSetValue(el, text, append) {
    const info = keyTarget(el, "press");
    if (!info.ok || el === null || info.sensitive || info.editable !== true) return { ...info, ok: false };
    const c = keyField(el);
    if (c instanceof HTMLInputElement || c instanceof HTMLTextAreaElement) {
      c.focus();
      const proto = c instanceof HTMLInputElement ? HTMLInputElement.prototype : HTMLTextAreaElement.prototype;
      const set = Object.getOwnPropertyDescriptor(proto, "value")?.set;
      const value = append ? c.value + text : text;
      if (set) set.call(c, value);
      else c.value = value;
    } else if (c instanceof HTMLElement) {
      c.focus();
      c.textContent = append ? (c.textContent ?? "") + text : text;
    }
    c.dispatchEvent(new Event("input", { bubbles: true, composed: true }));
    c.dispatchEvent(new Event("change", { bubbles: true }));
    return info;
  }
  function navigationTarget(el) {
    if (el === null) return null;
    const link = el.closest("a[href], area[href]");
    if (link instanceof HTMLAnchorElement || link instanceof HTMLAreaElement) return link.href;
    const button = el.closest("button, input");
    if ((button instanceof HTMLButtonElement || button instanceof HTMLInputElement) && button.form !== null) {
      const submits2 = button instanceof HTMLButtonElement ? button.type === "submit" : button.type === "submit" || button.type === "image";
      if (submits2) return button.hasAttribute("formaction") ? button.formAction : formAction(button.form);
    }
    return null;
  }
  function formAction(form) {
    const raw = Element.prototype.getAttribute.call(form, "action") ?? "";
    try {
      return new URL(raw, document.baseURI).href;
    } catch {
      return document.baseURI;
    }
  }

  // src/shared/challenge-catalog.ts
  var COMMAND_CONTROL = 'button, input[type="submit" i], input[type="button" i], input[type="image" i], [role="button" i]';
  var google = (path) => [
    { host: "www.google.com", path },
    { host: "www.recaptcha.net", path }
  ];
  var CATALOG = [
    {
      // Cloudflare's "Just a moment..." page (managed, JS and interactive
      // challenges). Its script is /cdn-cgi/challenge-platform/h/<x>/orchestrate/…
      // on the site's own host. The same /cdn-cgi/challenge-platform/ prefix
      // also serves scripts/jsd/main.js on ordinary pages behind Cloudflare
      // (bot detection, no challenge), so only the orchestrate path counts.
      vendor: "cloudflare",
      product: "managed_challenge",
      kind: "interstitial",
      interaction: "unknown",
      containers: ["#challenge-form", 'form[action*="__cf_chl_"]', "#challenge-running", "#challenge-stage", "#cf-challenge-running", ".cf-browser-verification"],
      strongContainers: ["#challenge-form", 'form[action*="__cf_chl_"]'],
      bindings: [],
      frames: [],
      scripts: [
        { host: "", path: "/cdn-cgi/challenge-platform/h/b/orchestrate/" },
        { host: "", path: "/cdn-cgi/challenge-platform/h/g/orchestrate/" },
        { host: "", path: "/cdn-cgi/challenge-platform/orchestrate/" }
      ],
      responseFields: []
    },
    {
      vendor: "cloudflare",
      product: "turnstile",
      kind: "widget",
      interaction: "checkbox",
      containers: [".cf-turnstile"],
      strongContainers: [],
      bindings: [],
      frames: [{ host: "challenges.cloudflare.com", path: "" }],
      scripts: [{ host: "challenges.cloudflare.com", path: "/turnstile/" }],
      responseFields: ["cf-turnstile-response"]
    },
    {
      // The checkbox ("I'm not a robot"); its image puzzle may follow.
      vendor: "google",
      product: "recaptcha_v2",
      kind: "widget",
      interaction: "checkbox",
      containers: [`.g-recaptcha:not([data-size="invisible"], ${COMMAND_CONTROL})`],
      strongContainers: [],
      bindings: [],
      frames: google("/recaptcha/api2/anchor"),
      scripts: [...google("/recaptcha/api.js"), { host: "www.gstatic.com", path: "/recaptcha/releases/" }],
      responseFields: ["g-recaptcha-response"]
    },
    {
      // Invisible v2 and v3 show only the badge (.grecaptcha-badge, which
      // Google's script inserts) and ask nothing of a person; either may be
      // bound to the form's Submit button.
      vendor: "google",
      product: "recaptcha_v3",
      kind: "widget",
      interaction: "none",
      containers: [".grecaptcha-badge", `.g-recaptcha[data-size="invisible"]:not(${COMMAND_CONTROL})`],
      strongContainers: [],
      bindings: [`.g-recaptcha:is(${COMMAND_CONTROL})`],
      frames: google("/recaptcha/api2/anchor"),
      scripts: [...google("/recaptcha/api.js"), { host: "www.gstatic.com", path: "/recaptcha/releases/" }],
      responseFields: ["g-recaptcha-response"]
    },
    {
      vendor: "google",
      product: "recaptcha_enterprise",
      kind: "widget",
      interaction: "unknown",
      containers: [`.g-recaptcha:not(${COMMAND_CONTROL})`, ".grecaptcha-badge"],
      strongContainers: [],
      bindings: [`.g-recaptcha:is(${COMMAND_CONTROL})`],
      frames: google("/recaptcha/enterprise/anchor"),
      scripts: google("/recaptcha/enterprise.js"),
      responseFields: ["g-recaptcha-response"]
    },
    {
      vendor: "hcaptcha",
      product: "hcaptcha",
      kind: "widget",
      interaction: "checkbox",
      containers: [`.h-captcha:not([data-size="invisible"], ${COMMAND_CONTROL})`],
      strongContainers: [],
      bindings: [],
      frames: [
        { host: "newassets.hcaptcha.com", path: "" },
        { host: "assets.hcaptcha.com", path: "" }
      ],
      scripts: [
        { host: "js.hcaptcha.com", path: "" },
        { host: "hcaptcha.com", path: "/1/api.js" }
      ],
      responseFields: ["h-captcha-response"]
    },
    {
      vendor: "hcaptcha",
      product: "hcaptcha_invisible",
      kind: "widget",
      interaction: "none",
      containers: [`.h-captcha[data-size="invisible"]:not(${COMMAND_CONTROL})`],
      strongContainers: [],
      bindings: [`.h-captcha:is(${COMMAND_CONTROL})`],
      frames: [
        { host: "newassets.hcaptcha.com", path: "" },
        { host: "assets.hcaptcha.com", path: "" }
      ],
      scripts: [
        { host: "js.hcaptcha.com", path: "" },
        { host: "hcaptcha.com", path: "/1/api.js" }
      ],
      responseFields: ["h-captcha-response"]
    },
    {
      // Arkose Labs (FunCaptcha): sites get a subdomain of arkoselabs.com
      // ("client-api", "github-api").
      vendor: "arkose_labs",
      product: "funcaptcha",
      kind: "widget",
      interaction: "puzzle",
      containers: ["#FunCaptcha", "#arkose-enforcement", "[data-arkose-public-key]"],
      strongContainers: [],
      bindings: [],
      frames: [
        { host: ".arkoselabs.com", path: "" },
        { host: ".funcaptcha.com", path: "" }
      ],
      scripts: [
        { host: ".arkoselabs.com", path: "" },
        { host: ".funcaptcha.com", path: "" }
      ],
      responseFields: ["fc-token", "verification-token"]
    },
    {
      vendor: "geetest",
      product: "geetest",
      kind: "widget",
      interaction: "puzzle",
      containers: [".geetest_holder", ".geetest_panel", ".geetest_captcha", ".geetest_box_wrap"],
      strongContainers: [],
      bindings: [],
      frames: [],
      scripts: [
        { host: "static.geetest.com", path: "" },
        { host: "static.geevisit.com", path: "" },
        { host: "gcaptcha4.geetest.com", path: "" },
        { host: "api.geetest.com", path: "" }
      ],
      responseFields: ["geetest_validate", "geetest_seccode", "captcha_output"]
    },
    {
      // DataDome's block page embeds its captcha from captcha-delivery.com.
      // Its tag on ordinary pages (js.datadome.co/tags.js) is no challenge.
      vendor: "datadome",
      product: "captcha",
      kind: "interstitial",
      interaction: "puzzle",
      containers: [],
      strongContainers: [],
      bindings: [],
      frames: [
        { host: "geo.captcha-delivery.com", path: "" },
        { host: "interstitial.captcha-delivery.com", path: "" }
      ],
      scripts: [{ host: "ct.captcha-delivery.com", path: "" }],
      responseFields: []
    },
    {
      // PerimeterX (HUMAN)'s "Press & Hold" page. Its sensor on ordinary
      // pages (client.perimeterx.net, client.px-cloud.net) is no challenge.
      vendor: "perimeterx",
      product: "px_captcha",
      kind: "interstitial",
      interaction: "puzzle",
      containers: ["#px-captcha", "#px-captcha-wrapper"],
      strongContainers: ["#px-captcha"],
      bindings: [],
      frames: [],
      scripts: [
        { host: "captcha.px-cdn.net", path: "" },
        { host: "captcha.px-cloud.net", path: "" }
      ],
      responseFields: []
    },
    {
      // AWS WAF's CAPTCHA action: <region>.captcha.awswaf.com/<id>/jsapi.js.
      vendor: "aws",
      product: "waf_captcha",
      kind: "interstitial",
      interaction: "puzzle",
      containers: ["#captcha-container", "awswaf-captcha"],
      strongContainers: [],
      bindings: [],
      frames: [],
      scripts: [{ host: ".captcha.awswaf.com", path: "" }],
      responseFields: []
    },
    {
      vendor: "friendly_captcha",
      product: "friendly_captcha",
      kind: "widget",
      interaction: "none",
      containers: [".frc-captcha"],
      strongContainers: [],
      bindings: [],
      frames: [],
      scripts: [
        { host: "cdn.jsdelivr.net", path: "/npm/friendly-challenge" },
        { host: "cdn.jsdelivr.net", path: "/npm/@friendlycaptcha/" },
        { host: "unpkg.com", path: "/friendly-challenge" },
        { host: "unpkg.com", path: "/@friendlycaptcha/" }
      ],
      responseFields: ["frc-captcha-solution", "frc-captcha-response"]
    }
  ];
  function fromSource(url, sources, pageHost) {
    if (url.protocol !== "https:" && url.protocol !== "http:") return false;
    const host = url.hostname.toLowerCase();
    return sources.some((s) => hostMatches(host, s.host, pageHost) && url.pathname.startsWith(s.path));
  }
  function hostMatches(host, want, pageHost) {
    if (want === "") return host === pageHost.toLowerCase();
    if (want.startsWith(".")) return host.endsWith(want) && host.length > want.length;
    return host === want;
  }
  function confidence(e) {
    if ((e.frame || e.script) && e.container) return "high";
    if (e.frame || e.strongContainer) return "medium";
    if (e.container || e.script) return "low";
    return null;
  }
  var RANK = { high: 3, medium: 2, low: 1 };
  function rank(found) {
    const best = /* @__PURE__ */ new Map();
    for (const s of found) best.set(s.vendor, Math.max(best.get(s.vendor) ?? 0, RANK[s.confidence]));
    return found.filter((s) => RANK[s.confidence] === best.get(s.vendor)).sort((a, b) => kindRank(a) - kindRank(b) || RANK[b.confidence] - RANK[a.confidence]);
  }
  function kindRank(s) {
    return s.kind === "interstitial" ? 0 : 1;
  }

  // src/page/mutations.ts
  var count = 0;
  var observing = false;
  function countMutations() {
    if (observing) return;
    observing = true;
    new MutationObserver((records) => {
      count += records.length;
    }).observe(document, { subtree: true, childList: true, attributes: true });
  }
  function mutations() {
    return count;
  }

  // src/page/challenges.ts
  function challenges() {
    return scan2().map((f) => f.sighting);
  }
  function inChallenge(el) {
    if (el === null || !el.isConnected) return false;
    if (vendorFrameDocument()) return true;
    for (const { entry, sighting } of scan2()) {
      if (entry.kind === "interstitial" && sighting.confidence !== "low") return true;
      if (partOf(el, entry)) return true;
    }
    return false;
  }
  var kept;
  function scan2() {
    const now = mutations();
    if (kept === void 0 || kept.mutations !== now || kept.url !== location.href) kept = { mutations: now, url: location.href, matches: match() };
    const found = kept.matches.map(({ entry, confidence: confidence2 }) => ({
      entry,
      sighting: {
        vendor: entry.vendor,
        product: entry.product,
        kind: entry.kind,
        interaction: entry.interaction,
        confidence: confidence2,
        tokenPresent: tokenPresent(entry.responseFields)
      }
    }));
    const ranked = rank(found.map((f) => ({ ...f.sighting, found: f })));
    return ranked.map((r) => r.found);
  }
  var ANY_CONTAINER = CATALOG.flatMap((e) => [...e.containers, ...e.strongContainers, ...e.bindings]).join(",");
  function match() {
    const iframes = srcs("iframe[src], frame[src]");
    const scripts = srcs("script[src]");
    const host = location.hostname;
    const containers = document.querySelector(ANY_CONTAINER) !== null;
    const out = [];
    for (const entry of CATALOG) {
      const level = confidence({
        // A binding (the form's Submit bound to an invisible check) shows
        // the entry like a container does.
        container: containers && (anyMatches(entry.containers) || anyMatches(entry.bindings)),
        strongContainer: containers && anyMatches(entry.strongContainers),
        frame: iframes.some((u) => fromSource(u, entry.frames, host)),
        script: scripts.some((u) => fromSource(u, entry.scripts, host))
      });
      if (level !== null) out.push({ entry, confidence: level });
    }
    return out;
  }
  function anyMatches(selectors) {
    return selectors.length > 0 && document.querySelector(selectors.join(",")) !== null;
  }
  function srcs(selector) {
    const out = [];
    for (const el of document.querySelectorAll(selector)) {
      const url = resolve(el.getAttribute("src"));
      if (url !== null) out.push(url);
    }
    return out;
  }
  function resolve(src) {
    if (src === null || src === "") return null;
    try {
      return new URL(src, document.baseURI);
    } catch {
      return null;
    }
  }
  function tokenPresent(names) {
    for (const name of names) {
      for (const el of document.getElementsByName(name)) {
        if ((el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) && el.value.length > 0) return true;
      }
    }
    return false;
  }
  function partOf(el, entry) {
    if (entry.containers.length > 0 && el.closest(entry.containers.join(",")) !== null) return true;
    if (el instanceof HTMLIFrameElement || el instanceof HTMLFrameElement) {
      const url = resolve(el.getAttribute("src"));
      if (url !== null && fromSource(url, entry.frames, location.hostname)) return true;
    }
    const name = el.getAttribute("name");
    return name !== null && entry.responseFields.includes(name);
  }
  function vendorFrameDocument() {
    if (window === window.top) return false;
    const url = resolve(location.href);
    const frames = CATALOG.flatMap((e) => e.frames);
    return url !== null && fromSource(url, frames, "");
  }

  // src/shared/effects.ts
  function normalizeName(s) {
    return s.normalize("NFKD").replace(new RegExp("\\p{M}+", "gu"), "").toLowerCase().replace(/[\p{N}]+/gu, " ").replace(/[\p{P}\p{S}]+/gu, " ").replace(/\s+/g, " ").trim();
  }
  var CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
  function phrases(list) {
    return list.map((p) => {
      const closes = p.startsWith("~");
      const object = p.startsWith("+");
      const n = normalizeName(closes || object ? p.slice(1) : p);
      return CJK.test(n) ? { words: [], cjk: n.replace(/ /g, ""), closes: true, object } : { words: n.split(" "), cjk: "", closes, object: false };
    });
  }
  var MAX_EXTRA_WORDS = 3;
  var MAX_EXTRA_CJK = 6;
  var VERB_ENDINGS = ["する", "します"];
  var STATE_BEFORE = ["已", "未", "待", "被", "不", "正在"];
  var NOUN_AFTER = [
    "日",
    "者",
    "人",
    "数",
    "數",
    "量",
    "额",
    "額",
    "金额",
    "金額",
    "时",
    "時",
    "中",
    "了",
    "完成",
    "成功",
    "失败",
    "失敗",
    "状态",
    "狀態",
    "先",
    "元",
    "原因",
    "须知",
    "須知",
    "说明",
    "說明",
    "页",
    "頁",
    "画面"
  ];
  var KANA = /[\p{Script=Hiragana}\p{Script=Katakana}]/u;
  function nameForm(name) {
    return wordsForm(normalizeName(name).split(" ").filter((w) => w !== ""));
  }
  function wordsForm(words2) {
    return { words: words2, cjk: words2.join("") };
  }
  var CLAUSE_END = /[,;:!?.()[\]\u2013\u2014\u3001\u3002]/u;
  var LEADS = phrases([
    "yes",
    "ok",
    "okay",
    "confirm and",
    "confirm",
    "submit",
    "ja",
    "bestatigen und",
    "bestatigen",
    "oui",
    "confirmer et",
    "confirmer",
    "si",
    "confirmar y",
    "confirmar",
    "sim",
    "confirmar e",
    "conferma e",
    "conferma",
    "bevestigen en",
    "bevestigen"
  ]).sort((a, b) => b.words.length - a.words.length);
  function withoutLeads(n) {
    let ws = n.words;
    for (let lead = LEADS.find((p) => startsWith(ws, p.words)); lead !== void 0; lead = LEADS.find((p) => startsWith(ws, p.words))) {
      ws = ws.slice(lead.words.length);
    }
    return ws === n.words ? n : wordsForm(ws);
  }
  function commandForms(name) {
    const whole = nameForm(name);
    const forms = [whole, withoutLeads(whole)];
    const clause = name.normalize("NFKD").split(CLAUSE_END).map((c) => withoutLeads(nameForm(c))).find((c) => c.words.length > 0);
    if (clause !== void 0) forms.push(clause);
    return forms;
  }
  function startsWith(ws, p) {
    return p.length <= ws.length && p.every((w, i) => ws[i] === w);
  }
  function endsWith(ws, p) {
    const off = ws.length - p.length;
    return off >= 0 && p.every((w, i) => ws[off + i] === w);
  }
  function runAt(ws, i, p) {
    return i >= 0 && i + p.length <= ws.length && p.every((w, j) => ws[i + j] === w);
  }
  function containsRun(ws, p) {
    for (let i = 0; i + p.length <= ws.length; i++) {
      if (runAt(ws, i, p)) return true;
    }
    return false;
  }
  function cjkCommands(name, p) {
    if (name.length > p.cjk.length + MAX_EXTRA_CJK) return false;
    for (let i = name.indexOf(p.cjk); i >= 0; i = name.indexOf(p.cjk, i + 1)) {
      const before = name.slice(0, i);
      const after = name.slice(i + p.cjk.length);
      if (STATE_BEFORE.some((m) => before.endsWith(m))) continue;
      if (after === "" || VERB_ENDINGS.includes(after)) return true;
      if (p.object && !KANA.test(after) && !NOUN_AFTER.some((s) => after.startsWith(s))) return true;
    }
    return false;
  }
  function commands(n, list) {
    for (const p of list) {
      if (p.cjk !== "") {
        if (cjkCommands(n.cjk, p)) return true;
      } else if (n.words.length <= p.words.length + MAX_EXTRA_WORDS && (startsWith(n.words, p.words) || p.closes && endsWith(n.words, p.words))) {
        return true;
      }
    }
    return false;
  }
  function mentions(n, list) {
    return list.some((p) => p.cjk !== "" ? n.cjk.includes(p.cjk) : containsRun(n.words, p.words));
  }
  var STOP = phrases([
    // Cancel, undo, close without acting.
    "cancel",
    "undo",
    "unsend",
    "abort",
    "abbrechen",
    "ruckgangig",
    "annuler",
    "cancelar",
    "annulla",
    "annuleren",
    "キャンセル",
    "取り消",
    "取消",
    "撤销",
    "撤銷",
    "非公開",
    // Negations in CJK ("許可しない", "不允许"); the spaced languages' are NEGATIONS.
    "しない",
    "不允许",
    "不允許",
    "不同意",
    // Refusals.
    "deny",
    "decline",
    "block",
    "reject",
    "ablehnen",
    "blockieren",
    "refuser",
    "bloquer",
    "rechazar",
    "bloquear",
    "recusar",
    "rifiuta",
    "blocca",
    "weigeren",
    "blokkeren",
    "拒否",
    "ブロック",
    "拒绝",
    "拒絕",
    "阻止",
    // Drafts and previews: nothing leaves.
    "draft",
    "drafts",
    "preview",
    "entwurf",
    "vorschau",
    "brouillon",
    "apercu",
    "borrador",
    "rascunho",
    "bozza",
    "anteprima",
    "concept",
    "下書き",
    "プレビュー",
    "草稿",
    "预览",
    "預覽",
    // Carts and wish lists: putting something in a cart is not buying it.
    "cart",
    "basket",
    "bag",
    "wishlist",
    "warenkorb",
    "merkliste",
    "panier",
    "carrito",
    "cesta",
    "carrinho",
    "sacola",
    "carrello",
    "winkelwagen",
    "winkelmand",
    "カート",
    "買い物かご",
    "购物车",
    "購物車",
    // Cookie banners: "Allow all cookies" grants nothing the spec lists.
    "cookie",
    "cookies",
    // Settings and help about an effect, not the effect.
    "settings",
    "help",
    "learn more",
    "how to",
    "einstellungen",
    "parametres",
    "configuracion",
    "configuracoes",
    "impostazioni",
    "instellingen",
    "設定",
    "设置",
    "設置",
    "方法",
    "方式",
    // Filters, plural: "Eliminar filtros", "Supprimer les filtres", "Alle
    // Filter löschen" clear a search's filters. "Delete filter" deletes a
    // saved one. German's plural is its singular: "Filter" before the verb.
    "filters",
    "filtres",
    "filtros",
    "filtri",
    "filter loschen",
    // Lists of posts or orders: "投稿一覧", "订单列表".
    "一覧",
    "列表",
    // "Post code", "Post office": not publishing.
    "post code",
    "post office"
  ]);
  var NEGATIONS = phrases(["don t", "dont", "do not", "not", "never", "no", "ne", "nicht", "pas", "nao", "non", "niet"]);
  var HISTORY = phrases(["history", "履歴", "记录", "記錄"]);
  var PERMISSION_VERBS = phrases([
    "allow",
    "enable",
    "turn on",
    "grant",
    "share",
    "give",
    "zulassen",
    "erlauben",
    "aktivieren",
    "einschalten",
    "freigeben",
    "teilen",
    "autoriser",
    "activer",
    "partager",
    "permettre",
    "permitir",
    "activar",
    "compartir",
    "ativar",
    "compartilhar",
    "partilhar",
    "consenti",
    "consentire",
    "attiva",
    "abilita",
    "condividi",
    "toestaan",
    "inschakelen",
    "aanzetten",
    "delen",
    "許可",
    "有効",
    "オン",
    "允许",
    "允許",
    "开启",
    "開啟",
    "启用",
    "啟用",
    "打开"
  ]);
  var PERMISSION_OBJECTS = phrases([
    "notifications",
    "notification",
    "push notifications",
    "location",
    "camera",
    "microphone",
    "mic",
    "clipboard",
    "benachrichtigungen",
    "mitteilungen",
    "standort",
    "standortzugriff",
    "kamera",
    "mikrofon",
    "localisation",
    "position",
    "camera",
    "micro",
    "notificaciones",
    "ubicacion",
    "camara",
    "microfono",
    "notificacoes",
    "localizacao",
    "microfone",
    "notifiche",
    "posizione",
    "fotocamera",
    "microfono",
    "meldingen",
    "notificaties",
    "pushmeldingen",
    "locatie",
    "microfoon",
    "通知",
    "位置情報",
    "カメラ",
    "マイク",
    "位置",
    "定位",
    "摄像头",
    "相机",
    "相機",
    "麦克风",
    "麥克風"
  ]);
  var MAX_PERMISSION_WORDS = 5;
  var MAX_PERMISSION_CJK = 10;
  var BARE_ALLOW = phrases(["allow", "zulassen", "erlauben", "permitir", "consenti", "toestaan", "許可", "許可する", "允许", "允許"]);
  var AUTHORIZATION = phrases([
    "authorize",
    "authorise",
    "allow access",
    "grant access",
    "give access",
    "autorisieren",
    "zugriff erlauben",
    "zugriff gewahren",
    "zugriff zulassen",
    "autoriser",
    "autoriser l acces",
    "accorder l acces",
    "autorizar",
    "permitir acceso",
    "permitir el acceso",
    "conceder acceso",
    "permitir acesso",
    "conceder acesso",
    "autorizza",
    "consenti l accesso",
    "consenti accesso",
    "autoriseren",
    "toegang verlenen",
    "toegang toestaan",
    "承認",
    "認可",
    "アクセスを許可",
    "授权",
    "授權",
    "同意授权",
    "允许访问",
    "允許存取",
    "允許訪問"
  ]);
  var PURCHASE = phrases([
    "buy",
    "buy now",
    "buy it now",
    "purchase",
    "complete purchase",
    "confirm purchase",
    "place order",
    "place your order",
    "submit order",
    "complete order",
    "confirm order",
    "order now",
    "pay",
    "pay now",
    "donate",
    "submit payment",
    "confirm payment",
    "complete payment",
    "~kaufen",
    "jetzt kaufen",
    "zahlungspflichtig bestellen",
    "kostenpflichtig bestellen",
    "jetzt bestellen",
    "~bestellen",
    "~bezahlen",
    "jetzt bezahlen",
    "kauf abschliessen",
    "~spenden",
    "acheter",
    "acheter maintenant",
    "payer",
    "passer la commande",
    "passer commande",
    "commander",
    "valider la commande",
    "confirmer la commande",
    "confirmer l achat",
    "faire un don",
    "comprar",
    "comprar ahora",
    "pagar",
    "realizar pedido",
    "confirmar pedido",
    "confirmar compra",
    "hacer pedido",
    "donar",
    "comprar agora",
    "fazer pedido",
    "finalizar pedido",
    "doar",
    // Not "Ordina" alone: it is also "sort" ("Ordina per prezzo").
    "acquista",
    "acquista ora",
    "compra",
    "paga",
    "paga ora",
    "conferma ordine",
    "effettua ordine",
    "ordina ora",
    "conferma acquisto",
    "~kopen",
    "nu kopen",
    "koop",
    "~betalen",
    "nu betalen",
    "~bestelling plaatsen",
    "~doneren",
    "購入",
    "今すぐ購入",
    "注文を確定",
    "注文する",
    "支払う",
    "支払いを確定",
    "购买",
    "購買",
    "立即购买",
    "提交订单",
    "提交訂單",
    "支付",
    "立即支付",
    "付款",
    "确认付款",
    "確認付款",
    "捐款"
  ]);
  var DELETE = phrases([
    "delete",
    "delete forever",
    "delete permanently",
    "permanently delete",
    "erase",
    "destroy",
    "trash",
    "move to trash",
    "move to bin",
    "empty trash",
    "close account",
    "~loschen",
    "~endgultig loschen",
    "in den papierkorb",
    "supprimer",
    "supprimer definitivement",
    "mettre a la corbeille",
    "eliminar",
    "eliminar definitivamente",
    "mover a la papelera",
    "excluir",
    "mover para a lixeira",
    // Not "Cancella": as often "clear" ("Cancella filtri").
    "elimina",
    "elimina definitivamente",
    "sposta nel cestino",
    "~verwijderen",
    "verwijder",
    "~definitief verwijderen",
    "naar prullenbak",
    "削除",
    "ゴミ箱に移動",
    "+删除",
    "+刪除",
    "移至回收站"
  ]);
  var PUBLISH = phrases([
    "publish",
    "publish now",
    "post",
    "post now",
    "tweet",
    "post comment",
    "post reply",
    "~veroffentlichen",
    "jetzt veroffentlichen",
    "~posten",
    "publier",
    "publier maintenant",
    "publicar",
    "publicar ahora",
    "publicar agora",
    "pubblica",
    "pubblicare",
    "~publiceren",
    "~plaatsen",
    "公開",
    "公開する",
    "投稿",
    "投稿する",
    "+发布",
    "+發布",
    "+發佈",
    "+发表",
    "+發表"
  ]);
  var UPLOAD = phrases([
    "upload",
    "upload file",
    "upload files",
    "upload photo",
    "~hochladen",
    "televerser",
    "subir archivo",
    "subir archivos",
    "cargar archivo",
    "cargar archivos",
    "enviar arquivo",
    "enviar arquivos",
    "fazer upload",
    "carregar ficheiro",
    // Not "Carica" alone: "Carica altro" is "load more".
    "carica file",
    "carica foto",
    "~uploaden",
    "アップロード",
    "+上传",
    "+上傳"
  ]);
  var SEND = phrases([
    "send",
    "resend",
    "send now",
    "send message",
    "~senden",
    "~absenden",
    "~abschicken",
    "~versenden",
    "envoyer",
    "enviar",
    "invia",
    "inviare",
    "~verzenden",
    "~versturen",
    "verstuur",
    "verzend",
    // Not 送る: 見送る is "pass on it".
    "送信",
    "送信する",
    "+发送",
    "+發送",
    "寄出"
  ]);
  var NAME_RULES = [
    { effect: "authorization", rule: "name_authorization", list: AUTHORIZATION },
    { effect: "purchase", rule: "name_purchase", list: PURCHASE },
    { effect: "delete", rule: "name_delete", list: DELETE },
    { effect: "publish", rule: "name_publish", list: PUBLISH },
    { effect: "upload", rule: "name_upload", list: UPLOAD },
    { effect: "send", rule: "name_send", list: SEND }
  ];
  var COMMAND_ROLES = /* @__PURE__ */ new Set(["button", "link", "menuitem", "menuitemcheckbox", "menuitemradio", "generic", "none", "form"]);
  var HINT_RULES = [
    // rails-ujs and Turbo: <a data-method="delete"> sends a DELETE.
    { effect: "delete", rule: "hint_delete", words: [["delete"], ["destroy"], ["trash"]] },
    { effect: "purchase", rule: "hint_purchase", words: [["purchase"], ["place", "order"], ["placeorder"], ["buy", "now"], ["buynow"], ["pay", "now"], ["submit", "order"], ["complete", "order"]] },
    // X's composer: data-testid="tweetButton" / "tweetButtonInline".
    { effect: "publish", rule: "hint_publish", words: [["publish"], ["tweet"]] },
    { effect: "upload", rule: "hint_upload", words: [["upload"]] },
    { effect: "authorization", rule: "hint_authorization", words: [["authorize"], ["oauth", "approve"]] },
    { effect: "send", rule: "hint_send", words: [["send"]] }
  ];
  var HINT_STOP = ["cancel", "undo", "draft", "preview", "close", "dismiss", "search", "cart"];
  function hintWords(hints2) {
    return hints2.map((h) => words(h).split("-").filter((w) => w !== ""));
  }
  var FORM_METHOD_DELETE = "delete";
  var CONSENT_PATH = ["oauth", "oauth2", "authorize", "authorise", "consent"];
  var CARD_AUTOCOMPLETE = ["cc-number", "cc-csc", "cc-exp"];
  function pathWords(action2) {
    let path = action2;
    const scheme = action2.indexOf("://");
    if (scheme >= 0) {
      const slash = action2.indexOf("/", scheme + 3);
      path = slash >= 0 ? action2.slice(slash) : "/";
    }
    return words(path).split("-");
  }
  var GET_KEEPS = /* @__PURE__ */ new Set(["delete", "purchase", "authorization"]);
  function classifyEffect(t) {
    const name = nameForm(t.name);
    if (stopped(name)) return null;
    const m = classify(t);
    return m !== null && m.effect !== "delete" && mentions(name, HISTORY) ? null : m;
  }
  function stopped(n) {
    for (const p of STOP) {
      if (p.cjk !== "") {
        if (n.cjk.includes(p.cjk)) return true;
        continue;
      }
      for (let i = 0; i + p.words.length <= n.words.length; i++) {
        if (runAt(n.words, i, p.words) && !NEGATIONS.some((q) => runAt(n.words, i - q.words.length, q.words))) return true;
      }
    }
    for (const q of NEGATIONS) {
      for (let i = 0; i + q.words.length <= n.words.length; i++) {
        if (runAt(n.words, i, q.words) && (i === 0 || verbAt(n.words.slice(i + q.words.length)))) return true;
      }
    }
    return false;
  }
  var VERBS = [...NAME_RULES.flatMap((r) => r.list), ...BARE_ALLOW, ...PERMISSION_VERBS].filter((p) => p.cjk === "");
  function verbAt(ws) {
    return VERBS.some((p) => startsWith(ws, p.words));
  }
  function classify(t) {
    if (t.press !== "" && t.press !== "Enter" && t.press !== "Space") return null;
    if (t.press === "Enter" && t.inputType === "search") return null;
    if (!COMMAND_ROLES.has(t.role)) return null;
    const method2 = t.formMethod === FORM_METHOD_DELETE && (t.submits || t.navigates) ? FORM_METHOD_DELETE : "";
    if (method2 !== "") return { effect: "delete", rule: "form_method_delete" };
    if (t.navigates) return t.hints.length > 0 && hasMethodHint(t.hints) ? { effect: "delete", rule: "hint_data_method_delete" } : null;
    const said = namesEffect(t) ?? hintEffect(t.hints);
    const search = t.submits && t.formMethod === "get" && !t.formInputTypes.includes("file");
    if (said !== null && !(search && !GET_KEEPS.has(said.effect))) return said;
    return t.submits ? formEffect(t) : null;
  }
  function namesEffect(t) {
    for (const n of commandForms(t.name)) {
      const m = nameEffect(n, t);
      if (m !== null) return m;
    }
    return null;
  }
  var METHOD_HINT = /^data-(turbo-)?method:delete$/i;
  function hasMethodHint(hints2) {
    return hints2.some((h) => METHOD_HINT.test(h));
  }
  function nameEffect(n, t) {
    if (n.words.length === 0 && n.cjk === "") return null;
    const cjk = CJK.test(n.cjk);
    const short = cjk ? n.cjk.length <= MAX_PERMISSION_CJK : n.words.length <= MAX_PERMISSION_WORDS;
    if (short && mentions(n, PERMISSION_VERBS) && mentions(n, PERMISSION_OBJECTS)) {
      return { effect: "permission_grant", rule: "name_permission" };
    }
    const bare = cjk ? n.cjk.length <= 4 : n.words.length === 1;
    if (bare && commands(n, BARE_ALLOW)) {
      return consentForm(t) ? { effect: "authorization", rule: "consent_form_allow" } : { effect: "permission_grant", rule: "name_allow" };
    }
    for (const r of NAME_RULES) if (commands(n, r.list)) return { effect: r.effect, rule: r.rule };
    return null;
  }
  function hintEffect(hints2) {
    if (hasMethodHint(hints2)) return { effect: "delete", rule: "hint_data_method_delete" };
    const ws = hintWords(hints2);
    if (ws.some((w) => HINT_STOP.some((s) => w.includes(s)))) return null;
    for (const r of HINT_RULES) {
      if (ws.some((w) => r.words.some((p) => containsRun(w, p)))) return { effect: r.effect, rule: r.rule };
    }
    return null;
  }
  function consentForm(t) {
    return t.formAction !== "" && pathWords(t.formAction).some((w) => CONSENT_PATH.includes(w));
  }
  function formEffect(t) {
    if (consentForm(t)) return { effect: "authorization", rule: "form_consent" };
    if (t.formInputTypes.includes("file")) return { effect: "upload", rule: "form_file" };
    if (t.formAutocomplete.some((a) => CARD_AUTOCOMPLETE.some((c) => a.startsWith(c)))) return { effect: "purchase", rule: "form_payment_card" };
    return null;
  }

  // src/page/effect.ts
  var ROLE_CONTEXT = { presentationalTable: false, listItems: true, sectioning: true, grid: false };
  var PREVIEW_FIELDS = 20;
  var PREVIEW_CHARS = 120;
  var HINT_CLASSES = 8;
  var HINT_CHARS = 60;
  var CONTEXT_LEVELS = 4;
  var NEARBY_LEVELS = 6;
  var NEARBY_BUTTONS = 20;
  var COMMAND = [
    "button",
    'input[type="submit" i]',
    'input[type="image" i]',
    'input[type="button" i]',
    'input[type="reset" i]',
    "a[href]",
    '[role="button"]',
    '[role="link"]',
    '[role="menuitem"]',
    '[role="menuitemcheckbox"]',
    '[role="menuitemradio"]'
  ].join(",");
  var NOT_FIELDS = /* @__PURE__ */ new Set(["hidden", "submit", "button", "reset", "image"]);
  function effect(ref, el, press) {
    if (ref === null) {
      if (el === null || unfocused(el) || isFrameOwner(el)) return NO_EFFECT;
    } else if (el === null || !el.isConnected) {
      throw new Error("the ref does not resolve in this document");
    }
    const namer = new Namer(new LabelMap(), new StyleIndex());
    const key = press === null ? "" : keyOf(press);
    const at = key === "" || ref === null ? el : keyField(el);
    const field = key === "" ? "" : fieldType(at);
    const control = deciding(at, key, field, namer);
    const target2 = describeTarget(control, key, field, namer);
    const match2 = classifyEffect(target2);
    return {
      effect: match2?.effect ?? null,
      rule: match2?.rule ?? null,
      descriptor: canonical(ref, target2),
      preview: preview(control.el, target2.name, namer)
    };
  }
  function unfocused(el) {
    const doc = el.ownerDocument;
    return el === doc.documentElement || el === doc.body && !(el instanceof HTMLElement && el.isContentEditable);
  }
  function deciding(el, key, field, namer) {
    if (key === "Enter" && field !== "") {
      if (el instanceof HTMLInputElement && el.form !== null) {
        const button = defaultButton(el.form);
        return button !== null ? { el: button, submits: true } : { el, submits: true, form: el.form };
      }
      const nearby = nearbySend(el, namer);
      if (nearby !== null) return { el: nearby, submits: false };
      return { el, submits: false };
    }
    const control = el.closest(COMMAND) ?? el;
    return { el: control, submits: submits(control) };
  }
  function keyOf(press) {
    const parts = press.split("+");
    const last = parts[parts.length - 1] ?? "";
    return last === " " || last === "" || last === "Spacebar" ? "Space" : last;
  }
  function fieldType(el) {
    if (el instanceof HTMLInputElement) return NOT_FIELDS.has(el.type) || el.type === "checkbox" || el.type === "radio" ? "" : el.type;
    if (el instanceof HTMLTextAreaElement) return "textarea";
    if (el instanceof HTMLElement && el.isContentEditable) return "contenteditable";
    return "";
  }
  function submits(el) {
    if (el instanceof HTMLButtonElement) return el.type === "submit" && el.form !== null;
    if (el instanceof HTMLInputElement) return (el.type === "submit" || el.type === "image") && el.form !== null;
    return false;
  }
  function defaultButton(form) {
    for (const el of form.elements) if (submits(el)) return el;
    return null;
  }
  function nearbySend(el, namer) {
    let scope = el.parentElement;
    for (let level = 0; scope !== null && level < NEARBY_LEVELS; level++, scope = scope.parentElement) {
      const buttons = scope.querySelectorAll('button, [role="button"], input[type="submit" i]');
      if (buttons.length === 0) continue;
      let seen2 = 0;
      for (const b of buttons) {
        if (++seen2 > NEARBY_BUTTONS) break;
        const m = classifyEffect(describeTarget({ el: b, submits: submits(b) }, "", "", namer));
        if (m !== null && (m.effect === "send" || m.effect === "publish")) return b;
      }
      return null;
    }
    return null;
  }
  function formOf(d) {
    if (d.form !== void 0) return d.form;
    const el = d.el;
    if (el instanceof HTMLButtonElement || el instanceof HTMLInputElement) return el.form;
    return el.closest("form");
  }
  function describeTarget(d, key, field, namer) {
    const el = d.el;
    const form = formOf(d);
    const role = d.form !== void 0 ? "form" : roleOf(el, ROLE_CONTEXT);
    let name = d.form !== void 0 ? "" : namer.name(el, role).name;
    if (name === "" && (role === "generic" || role === "none")) name = clip(namer.name(el, "button").name, PREVIEW_CHARS);
    const type = el instanceof HTMLInputElement || el instanceof HTMLButtonElement ? el.type.toLowerCase() : "";
    return {
      tag: el.localName,
      role,
      name,
      type,
      navigates: navigates(el),
      submits: d.submits,
      press: key,
      inputType: field,
      formAction: form === null ? "" : action(el, form),
      formMethod: form === null ? "" : method(el, form),
      formInputTypes: form === null ? [] : inputTypes(form),
      formAutocomplete: form === null ? [] : cardTokens(form),
      hints: hints(el)
    };
  }
  function navigates(el) {
    if (!(el instanceof HTMLAnchorElement) || !el.hasAttribute("href")) return false;
    const href = (el.getAttribute("href") ?? "").trim();
    return href !== "" && !href.startsWith("#") && !/^javascript:/i.test(href);
  }
  function action(el, form) {
    const own = el instanceof HTMLButtonElement || el instanceof HTMLInputElement ? el.getAttribute("formaction") : null;
    const raw = own !== null && own.trim() !== "" ? own : form.action;
    try {
      const u = new URL(raw, document.baseURI);
      return u.origin + u.pathname;
    } catch {
      return "";
    }
  }
  var OVERRIDES = /* @__PURE__ */ new Set(["delete", "put", "patch"]);
  function method(el, form) {
    const override = form.querySelector('input[type="hidden" i][name="_method"]');
    if (override instanceof HTMLInputElement && OVERRIDES.has(override.value.toLowerCase())) return override.value.toLowerCase();
    const own = el instanceof HTMLButtonElement || el instanceof HTMLInputElement ? el.getAttribute("formmethod") : null;
    return (own ?? form.getAttribute("method") ?? "").toLowerCase();
  }
  function inputTypes(form) {
    const types = /* @__PURE__ */ new Set();
    for (const f of form.elements) {
      if (f instanceof HTMLInputElement && !NOT_FIELDS.has(f.type)) types.add(f.type);
      else if (f instanceof HTMLTextAreaElement) types.add("textarea");
      else if (f instanceof HTMLSelectElement) types.add("select");
    }
    return [...types].sort();
  }
  function cardTokens(form) {
    const tokens2 = /* @__PURE__ */ new Set();
    for (const f of form.elements) {
      for (const t of (f.getAttribute("autocomplete") ?? "").toLowerCase().split(/\s+/)) if (t.startsWith("cc-")) tokens2.add(t);
    }
    return [...tokens2].sort();
  }
  var HINT_ATTRIBUTES = ["data-method", "data-turbo-method", "data-action", "data-testid", "data-test", "data-qa", "name", "id"];
  function hints(el) {
    const out = [];
    for (const a of HINT_ATTRIBUTES) {
      const v = el.getAttribute(a);
      if (v !== null && v.trim() !== "") out.push(a + ":" + clip(v.trim(), HINT_CHARS));
    }
    let n = 0;
    for (const c of el.classList) {
      if (n++ >= HINT_CLASSES) break;
      out.push("class:" + clip(c, HINT_CHARS));
    }
    return out;
  }
  function canonical(ref, t) {
    return JSON.stringify({
      formAction: t.formAction,
      formAutocomplete: t.formAutocomplete,
      formInputTypes: t.formInputTypes,
      formMethod: t.formMethod,
      hints: t.hints,
      inputType: t.inputType,
      name: t.name,
      navigates: t.navigates,
      press: t.press,
      ref,
      role: t.role,
      submits: t.submits,
      tag: t.tag,
      type: t.type
    });
  }
  function preview(control, name, namer) {
    return { control: clip(name, PREVIEW_CHARS), fields: fieldsOf(control, namer) };
  }
  function fieldsOf(control, namer) {
    const form = control instanceof HTMLFormElement ? control : control instanceof HTMLButtonElement || control instanceof HTMLInputElement ? control.form ?? control.closest("form") : control.closest("form");
    const candidates = form !== null ? [...form.elements] : contextFields(control);
    const out = [];
    for (const f of candidates) {
      if (out.length >= PREVIEW_FIELDS) break;
      const row = fieldRow(f, namer);
      if (row !== null) out.push(row);
    }
    return out;
  }
  function contextFields(control) {
    let scope = control.parentElement;
    for (let level = 0; scope !== null && level < CONTEXT_LEVELS; level++, scope = scope.parentElement) {
      const found = [...scope.querySelectorAll('input, textarea, select, [contenteditable=""], [contenteditable="true" i], [contenteditable="plaintext-only" i]')];
      if (found.length > 0) return found;
    }
    return control instanceof HTMLElement && control.isContentEditable ? [control] : [];
  }
  function fieldRow(f, namer) {
    if (f instanceof HTMLInputElement && NOT_FIELDS.has(f.type)) return null;
    const isField = f instanceof HTMLInputElement || f instanceof HTMLTextAreaElement || f instanceof HTMLSelectElement || f instanceof HTMLElement && f.isContentEditable;
    if (!isField || !visible(f)) return null;
    if (f instanceof HTMLElement && f.isContentEditable && f.parentElement?.isContentEditable === true) return null;
    const label = clip(namer.name(f, roleOf(f, ROLE_CONTEXT)).name, PREVIEW_CHARS);
    if (hidesValue(f)) return { label, value: "", sensitive: true };
    return { label, value: clip(valueOf2(f), PREVIEW_CHARS), sensitive: false };
  }
  function valueOf2(f) {
    if (f instanceof HTMLInputElement) {
      if (f.type === "checkbox" || f.type === "radio") return f.checked ? "checked" : "not checked";
      if (f.type === "file") return [...f.files ?? []].map((file) => file.name).join(", ");
      return f.value;
    }
    if (f instanceof HTMLTextAreaElement) return f.value;
    if (f instanceof HTMLSelectElement) return [...f.selectedOptions].map((o) => squash(o.label)).join(", ");
    return f instanceof HTMLElement ? squash(f.innerText) : "";
  }

  // src/page/focus.ts
  function focusedElement() {
    return deepActiveElement();
  }
  function focusedField() {
    const el = focusedElement();
    if (el === null) return { sensitive: false, description: "", sealed: false, frame: false };
    const f = { sensitive: isSensitiveElement(el), sealed: sealed(el), frame: isFrameOwner(el) };
    return { ...f, description: f.sensitive || f.sealed || f.frame ? describe(el) : "" };
  }
  function sealed(el) {
    return mayHideShadowRoot(el) && el.matches(":focus-within");
  }

  // src/page/key-gate.ts
  var GUARDED = ["keydown", "keypress", "keyup", "beforeinput", "textInput"];
  var IDLE_MS = 1e4;
  var Gate = class {
    /** field: where keys may go in this frame; null where none may. */
    constructor(field) {
      this.field = field;
      for (const type of GUARDED) window.addEventListener(type, this.onKey, true);
      window.addEventListener("focusout", this.onFocusOut, true);
      this.touch();
    }
    field;
    ups = 0;
    strayed;
    /** The last keydown: prevented when focus leaves the field while it is dispatched, so that Chrome drops its character. */
    keydown;
    waiters = [];
    onKey = (e) => this.key(e);
    onFocusOut = (e) => this.focusOut(e);
    idle;
    key(e) {
      if (!e.isTrusted) return;
      const to = e.composedPath()[0];
      if (this.field === null || !(to instanceof Node) || !composedContains(this.field, to)) {
        e.preventDefault();
        e.stopImmediatePropagation();
        const at = to instanceof Element ? to : deepActiveElement();
        this.strayed ??= at === null ? "the page" : describe(at);
      }
      if (e.type === "keydown") this.keydown = e;
      else if (e.type === "keyup") this.ups++;
      this.answer();
    }
    // A keydown handler that moves focus out of the field (into a frame, say)
    // would have the key's character go there: the keydown is prevented,
    // which drops it (keys.ts; after the dispatch, this does nothing).
    focusOut(e) {
      const from = e.composedPath()[0];
      if (this.field === null || !(from instanceof Node) || !composedContains(this.field, from)) return;
      this.keydown?.preventDefault();
      this.answer();
    }
    seen(count2, read) {
      const out = { seen: this.ups >= count2, onField: this.field !== null && hasFocus(this.field), focused: focusedField() };
      if (this.strayed !== void 0) out.strayed = this.strayed;
      if (read && this.field !== null) out.value = fieldValue(this.field);
      return out;
    }
    /** Answers the waiters whose key up came, or all when a key strayed or focus left the field. */
    answer() {
      if (this.waiters.length === 0) return;
      const over = this.strayed !== void 0 || this.field === null || !hasFocus(this.field);
      this.waiters = this.waiters.filter((w) => {
        if (!over && this.ups < w.count) return true;
        w.resolve(this.seen(w.count, w.read));
        return false;
      });
    }
    wait(count2, read) {
      this.touch();
      return new Promise((resolve2) => {
        this.waiters.push({ count: count2, read, resolve: resolve2 });
        this.answer();
      });
    }
    touch() {
      clearTimeout(this.idle);
      this.idle = setTimeout(() => disarmKeys(), IDLE_MS);
    }
    end() {
      clearTimeout(this.idle);
      for (const type of GUARDED) window.removeEventListener(type, this.onKey, true);
      window.removeEventListener("focusout", this.onFocusOut, true);
      for (const w of this.waiters) w.resolve(this.seen(w.count, w.read));
      this.waiters = [];
    }
  };
  var gate;
  function armKeys(el) {
    disarmKeys();
    gate = new Gate(el === null || !el.isConnected ? null : keyField(el));
    return focusedField();
  }
  function keysSeen(count2, read) {
    if (gate === void 0) return Promise.resolve({ seen: false, onField: false, focused: focusedField() });
    return gate.wait(count2, read);
  }
  function disarmKeys() {
    const g = gate;
    gate = void 0;
    g?.end();
    return g !== void 0;
  }

  // src/page/fields.ts
  function hasFocus2(el) {
    if (el === null || !el.isConnected) return false;
    const active = deepActiveElement();
    return active !== null && (composedContains(controlOf(el), active) || composedContains(el, active));
  }
  function focus(el) {
    if (el === null || !el.isConnected) return false;
    const c = controlOf(el);
    if (c instanceof HTMLElement || c instanceof SVGElement) c.focus();
    return hasFocus2(el);
  }
  function select(el, values) {
    if (el === null || !el.isConnected) return { ok: false, selected: [], error: "the element is detached" };
    const sel = controlOf(el);
    if (!(sel instanceof HTMLSelectElement)) return { ok: false, selected: [], error: "the element is not a <select>" };
    if (isSensitiveElement(sel)) return { ok: false, selected: [], error: "the select is a payment-card field; AgentTab chooses no option in it" };
    if (disabled(sel)) return { ok: false, selected: [], error: "the select is disabled" };
    if (values.length === 0) return { ok: false, selected: [], error: "no option given" };
    if (!sel.multiple && values.length > 1) return { ok: false, selected: [], error: "the select takes one option" };
    const options = [...sel.options];
    const chosen = [];
    for (const v of values) {
      const want = squash(v);
      const o = options.find((o2) => squash(o2.label) === want) ?? options.find((o2) => o2.value === v);
      if (!o) {
        const known = options.slice(0, 20).map((o2) => JSON.stringify(squash(o2.label)));
        return { ok: false, selected: [], error: `no option ${JSON.stringify(v)}; options: ${known.join(", ")}` };
      }
      if (o.disabled) return { ok: false, selected: [], error: `option ${JSON.stringify(v)} is disabled` };
      chosen.push(o);
    }
    for (const o of options) o.selected = chosen.includes(o);
    sel.dispatchEvent(new Event("input", { bubbles: true, composed: true }));
    sel.dispatchEvent(new Event("change", { bubbles: true }));
    return { ok: true, selected: [...sel.selectedOptions].map((o) => squash(o.label)) };
  }
  function checked(el) {
    if (el === null) return void 0;
    const c = checkedState(controlOf(el));
    return c === void 0 ? void 0 : c === "true";
  }

  // src/page/credential.ts
  var USERNAME_TYPES = /* @__PURE__ */ new Set(["text", "email", "tel"]);
  var CODE_TYPES = /* @__PURE__ */ new Set(["text", "number", "tel"]);
  var NO_TEXT2 = /* @__PURE__ */ new Set(["button", "submit", "reset", "image", "checkbox", "radio", "file", "hidden", "range", "color", "date", "time", "datetime-local", "month", "week"]);
  function tokens(f) {
    return (f.getAttribute("autocomplete") ?? "").toLowerCase().split(/\s+/);
  }
  function unfit(f, field) {
    if (!(f instanceof HTMLInputElement)) return "it is not an input field";
    if (f.disabled || f.readOnly) return "it is disabled or read-only";
    if (!f.isConnected || !visible(f)) return "it is not shown";
    const type = f.type;
    switch (field) {
      case "password":
        return type === "password" ? void 0 : "a password goes only into a password input (type=password)";
      case "username":
        if (type === "password" || NO_TEXT2.has(type)) return "a username goes into a text, email or tel input";
        return USERNAME_TYPES.has(type) || tokens(f).includes("username") ? void 0 : "a username goes into a text, email or tel input, or one marked autocomplete=username";
      case "one_time_code":
        if (NO_TEXT2.has(type)) return "a one-time code goes into a text, number or tel input";
        return CODE_TYPES.has(type) || tokens(f).includes("one-time-code") ? void 0 : "a one-time code goes into a text, number or tel input, or one marked autocomplete=one-time-code";
      default:
        return `there is no credential field ${JSON.stringify(field)}`;
    }
  }
  function put(f, value) {
    const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")?.set;
    if (setter === void 0) f.value = value;
    else setter.call(f, value);
  }
  function credentialTarget(el, field, value) {
    if (el === null || !el.isConnected) return { fit: false, why: "it is no longer in the page", description: "", focused: false };
    const f = keyField(el);
    const description = describe(f);
    const why = unfit(f, field);
    if (why !== void 0 || !(f instanceof HTMLInputElement)) return { fit: false, why: why ?? "it is not an input field", description, focused: false };
    markFilled(f);
    f.focus({ preventScroll: true });
    f.select();
    if (value !== null) {
      put(f, value);
      f.dispatchEvent(new InputEvent("input", { bubbles: true, composed: true, inputType: "insertReplacementText" }));
      f.dispatchEvent(new Event("change", { bubbles: true }));
    }
    return { fit: true, description, focused: hasFocus(f) };
  }
  function credentialHolds(el, value) {
    if (el === null || !el.isConnected) return { holds: false, focused: false };
    const f = keyField(el);
    return { holds: f instanceof HTMLInputElement && f.value === value, focused: focusOn(f) };
  }
  function focusOn(f) {
    if (!hasFocus(f)) return false;
    for (let w = window; w !== w.parent; w = w.parent) {
      const owner = w.frameElement;
      if (owner === null) return false;
      const root = owner.getRootNode();
      if (!("activeElement" in root) || root.activeElement !== owner) return false;
    }
    return true;
  }

  // src/page/registry.ts
  var REF = /^e(\d+)$/;
  var PRUNE_FLOOR = 1e3;
  var Registry = class {
    ids = /* @__PURE__ */ new WeakMap();
    // Strong references to the elements of live refs: they keep each
    // element's wrapper in this world alive, and with it its WeakMap entry
    // (a wrapper V8 dropped and made again would be a new key, and the
    // element would get a new ref). Removed elements are let go in prune().
    elements = /* @__PURE__ */ new Map();
    // Every id handed out here, so that a ref of a removed element still
    // reads as this document's (detached), not as another's (stale).
    issued = /* @__PURE__ */ new Set();
    next = 0;
    pruneAt = PRUNE_FLOOR;
    /** Starts a snapshot: ids handed out from now on are at least nextId. */
    begin(nextId) {
      if (nextId > this.next) this.next = nextId;
      if (this.elements.size >= this.pruneAt) this.prune();
    }
    prune() {
      for (const [id, el] of this.elements) {
        if (!el.isConnected) this.elements.delete(id);
      }
      this.pruneAt = Math.max(PRUNE_FLOOR, 2 * this.elements.size);
    }
    /** The next id this frame would hand out. */
    get nextId() {
      return this.next;
    }
    /** The element's ref if it has one. */
    known(el) {
      const id = this.ids.get(el);
      return id === void 0 ? void 0 : "e" + id;
    }
    /** The element's ref ("e12"), giving it the next id if it has none. */
    take(el) {
      let id = this.ids.get(el);
      if (id === void 0) {
        id = this.next++;
        this.ids.set(el, id);
        this.issued.add(id);
      }
      this.elements.set(id, el);
      return "e" + id;
    }
    /** The element of a ref handed out here, or null (unknown, or let go after removal). */
    resolve(ref) {
      const m = REF.exec(ref);
      if (!m?.[1]) return null;
      return this.elements.get(Number(m[1])) ?? null;
    }
    /** Whether this frame handed out the ref (it may since have been removed from the document). */
    knows(ref) {
      const m = REF.exec(ref);
      return m?.[1] !== void 0 && this.issued.has(Number(m[1]));
    }
  };

  // src/page/clickable.ts
  var HANDLERS = ["onclick", "onmousedown", "onmouseup", "onpointerdown", "onpointerup", "ondblclick", "ontouchstart"];
  function takeListened() {
    const report = Reflect.get(globalThis, LISTENED_GLOBAL);
    const set = /* @__PURE__ */ new WeakSet();
    if (Array.isArray(report)) {
      for (const el of report) {
        if (el instanceof Element && el !== document.documentElement && el !== document.body) set.add(el);
      }
    }
    return set;
  }
  function evidenceOf(el, tag, byRole, scope, inPointer, listened) {
    let evidence = inPointer ? 16 /* InPointer */ : 0 /* None */;
    if (scope.cursor) {
      const pointer = getComputedStyle(el).cursor === "pointer";
      evidence = pointer ? inPointer ? 16 /* InPointer */ : 16 /* InPointer */ | 1 /* Pointer */ : 0 /* None */;
    }
    if (!el.hasAttributes()) {
      if (tag === "a") evidence |= 8 /* Focusable */;
      return evidence;
    }
    if (el.getAttribute("draggable") === "true") evidence |= 4 /* Draggable */;
    if (byRole) return evidence;
    if (listened.has(el)) evidence |= 2 /* Handler */;
    for (const h of HANDLERS) {
      if (el.hasAttribute(h)) {
        evidence |= 2 /* Handler */;
        break;
      }
    }
    const tabindex = el.getAttribute("tabindex");
    if (tabindex !== null && Number.parseInt(tabindex, 10) >= 0) evidence |= 8 /* Focusable */;
    else if (tag === "a" && !el.hasAttribute("href")) evidence |= 8 /* Focusable */;
    return evidence;
  }
  function markersOf(evidence, actionableRole) {
    let out = "";
    if (!actionableRole) {
      if (evidence & 1 /* Pointer */) out += " [cursor=pointer]";
      else if (evidence & 2 /* Handler */) out += " [clickable]";
    }
    if (evidence & 4 /* Draggable */) out += " [draggable]";
    return out;
  }

  // src/page/items.ts
  var NAME_MAX = 100;
  function textItem(kind, depth, text) {
    return { kind, depth, el: null, head: text, ref: false, url: void 0, text: void 0, children: false, frame: false, owned: false };
  }
  function elementItem(depth, el, head, ref) {
    return { kind: 0 /* Element */, depth, el, head, ref, url: void 0, text: void 0, children: false, frame: false, owned: false };
  }
  function ownedItem(depth, el, head, text) {
    const item = elementItem(depth, el, head, true);
    item.text = text;
    item.owned = true;
    return item;
  }
  function frameItem(depth, el, name) {
    const item = elementItem(depth, el, name === "" ? "iframe" : "iframe " + quote(clip(name, NAME_MAX)), true);
    item.frame = true;
    return item;
  }

  // src/page/inline-tags.ts
  var INLINE = new Set(
    "a abbr b bdi bdo br cite code data del dfn em font i img input ins kbd label mark q s samp select small span strong sub sup textarea time u var wbr button meter output progress".split(" ")
  );
  function isInlineTag(tag) {
    return INLINE.has(tag);
  }

  // src/page/rendered-walk.ts
  var RenderedWalk = class {
    constructor(styles, skipped) {
      this.styles = styles;
      this.skipped = skipped;
      this.scope = styles.of(document);
    }
    styles;
    skipped;
    /** The CSS possibilities of the tree scope being walked. */
    scope;
    /** Inside visibility:hidden: text is not shown (a descendant may set visible). */
    invisible = false;
    children(node) {
      const kids = renderedChildren(node);
      if (kids === null) {
        for (let c = node.firstChild; c !== null; c = c.nextSibling) this.child(c);
        return;
      }
      const first = kids[0];
      if (first === void 0) return;
      const saved = this.scope;
      this.scope = this.styles.of(first.getRootNode());
      for (const c of kids) this.child(c);
      this.scope = saved;
    }
    child(c) {
      if (c instanceof Text) {
        if (!this.invisible) this.text(c);
      } else if (c instanceof Element) {
        this.element(c);
      }
    }
    element(el) {
      if (ariaHidden(el)) return;
      const tag = el.localName;
      if (this.skipped.has(tag)) return;
      const s = shown(el, this.scope.visibility);
      if (s === 3 /* No */) return;
      if (s === 2 /* Contents */) {
        this.children(el);
        return;
      }
      const inherited = this.invisible;
      if (s === 1 /* Invisible */ || inherited && !this.scope.visibility) {
        this.invisible = true;
        this.invisibleElement(el, tag);
        this.invisible = inherited;
        return;
      }
      if (this.scope.overflow && clipsToNothing(el)) return;
      this.invisible = false;
      this.shownElement(el, tag);
      this.invisible = inherited;
    }
  };

  // src/page/readable.ts
  var SELECTION_MAX = 1e3;
  var URL_MAX = 100;
  var SKIP = /* @__PURE__ */ new Set([
    "script",
    "style",
    "template",
    "noscript",
    "head",
    "meta",
    "link",
    "base",
    "input",
    "select",
    "textarea",
    "button",
    "img",
    "svg",
    "video",
    "audio",
    "canvas",
    "object",
    "embed",
    "math",
    "hr"
  ]);
  var ReadableWalker = class extends RenderedWalk {
    constructor(namer, styles) {
      super(styles, SKIP);
      this.namer = namer;
    }
    namer;
    items = [];
    run = "";
    /** Prefix of the next line ("## ", "- "); consumed by the first line written. */
    prefix = "";
    /** "> " for each enclosing blockquote. */
    quoted = "";
    listDepth = 0;
    /** Inside a table row: cells join on one line. */
    inRow = false;
    walk(root, selection) {
      const sel = squash(selection);
      if (sel !== "") this.items.push(textItem(2 /* Raw */, 0, "Selected text: " + clip(sel, SELECTION_MAX)));
      this.element(root);
      this.flush();
      return this.items;
    }
    text(t) {
      this.run += t.data;
    }
    invisibleElement(el) {
      this.children(el);
    }
    shownElement(el, tag) {
      this.block(el, tag);
    }
    block(el, tag) {
      if (tag === "br") {
        if (this.inRow) this.run += " ";
        else this.flush();
        return;
      }
      if (tag === "iframe" || tag === "frame") {
        this.flush();
        this.items.push(frameItem(0, el, this.namer.name(el, "iframe").name));
        return;
      }
      if (tag === "a" && el.hasAttribute("href")) return this.link(el);
      const role = explicitRole(el);
      if (/^h[1-6]$/.test(tag) || role === "heading") return this.lined(el, "#".repeat(headingLevel(el)) + " ");
      switch (tag) {
        case "li":
          return this.lined(el, "- ");
        case "ul":
        case "ol":
        case "menu":
        case "dl": {
          this.flush();
          this.listDepth++;
          this.children(el);
          this.flush();
          this.listDepth--;
          return;
        }
        case "blockquote": {
          this.flush();
          const saved = this.quoted;
          this.quoted += "> ";
          this.children(el);
          this.flush();
          this.quoted = saved;
          return;
        }
        case "pre":
          return this.pre(el);
        case "tr":
          return this.row(el);
      }
      if (isInlineTag(tag) || this.inRow) {
        this.children(el);
        return;
      }
      this.flush();
      this.children(el);
      this.flush();
    }
    /** A block whose first line takes a prefix (heading marks, list bullets). */
    lined(el, prefix) {
      this.flush();
      this.prefix = prefix;
      this.children(el);
      this.flush();
      this.prefix = "";
    }
    link(el) {
      const outer = this.run;
      this.run = "";
      this.children(el);
      let text = squash(this.run);
      this.run = outer;
      if (text === "") text = this.namer.name(el, "link").name;
      const href = el.getAttribute("href") ?? "";
      if (href.startsWith("javascript:")) this.run += text;
      else this.run += `[${text}](${clip(href, URL_MAX)})`;
    }
    pre(el) {
      this.flush();
      const depth = this.listDepth;
      const text = el.textContent ?? "";
      this.items.push(textItem(2 /* Raw */, depth, this.quoted + "```"));
      for (const line of text.replace(/\n$/, "").split("\n")) this.items.push(textItem(2 /* Raw */, depth, this.quoted + line));
      this.items.push(textItem(2 /* Raw */, depth, this.quoted + "```"));
    }
    row(el) {
      this.flush();
      const saved = this.inRow;
      this.inRow = true;
      const cells = [];
      for (const cell of el.children) {
        if (cell.localName !== "td" && cell.localName !== "th") continue;
        if (ariaHidden(cell) || shown(cell, true) !== 0 /* Yes */) continue;
        this.children(cell);
        cells.push(squash(this.run));
        this.run = "";
      }
      this.inRow = saved;
      if (cells.some((c) => c !== "")) {
        this.items.push(textItem(2 /* Raw */, this.listDepth, this.quoted + "| " + cells.join(" | ") + " |"));
      }
    }
    flush() {
      if (this.inRow) return;
      const text = squash(this.run);
      this.run = "";
      if (text === "") return;
      const depth = Math.max(0, this.listDepth - 1);
      this.items.push(textItem(2 /* Raw */, depth, this.quoted + this.prefix + text));
      this.prefix = "";
    }
  };

  // src/page/serialize.ts
  var MIN_CUT = 40;
  function serialize(items, indent, maxChars, refs) {
    const lines = [];
    const frames = [];
    let total = 0;
    let all = 0;
    let truncated = false;
    let estimated = 0;
    for (const item of items) {
      let ref = "";
      let fresh = false;
      if (item.kind === 0 /* Element */ && item.ref && item.el) {
        const known = refs.known(item.el);
        fresh = known === void 0;
        ref = known ?? "e" + (refs.nextId + estimated);
      }
      const line = format(item, indent, ref);
      all += (all > 0 ? 1 : 0) + line.length;
      const sep = lines.length > 0 ? 1 : 0;
      const next = total + sep + line.length;
      if (truncated || next > maxChars) {
        const room = maxChars - total - sep;
        if (!truncated && item.kind !== 0 /* Element */ && room >= MIN_CUT) lines.push(clip(line, room));
        truncated = true;
        if (fresh) estimated++;
        continue;
      }
      total = next;
      lines.push(line);
      if (ref !== "" && item.el) refs.take(item.el);
      if (item.frame && ref !== "") frames.push({ ref, line: lines.length });
    }
    return { text: lines.join("\n"), truncated, frames, totalChars: all };
  }
  function format(item, indent, ref) {
    const line = indent + "  ".repeat(item.depth);
    if (item.kind === 2 /* Raw */) return line + item.head;
    if (item.kind === 1 /* Text */) return line + "- text: " + item.head;
    let out = line + "- " + item.head;
    if (ref !== "") out += " [ref=" + ref + "]";
    if (item.url !== void 0) out += " [url=" + item.url + "]";
    if (item.text !== void 0) out += ": " + item.text;
    else if (item.children) out += ":";
    return out;
  }

  // src/page/reshape.ts
  function joinTexts(items, at, name) {
    const item = items[at];
    if (!item) return false;
    const texts = [];
    for (let i = at + 1; i < items.length; i++) {
      const c = items[i];
      if (!c || c.depth !== item.depth + 1 || !(c.kind === 1 /* Text */ || c.owned)) return false;
      texts.push(c.owned ? c.text ?? "" : c.head);
    }
    if (texts.length === 0) return false;
    items.length = at + 1;
    const text = texts.join(" ");
    if (text !== name) item.text = text;
    return true;
  }
  function unwrap(items, at) {
    const item = items[at];
    if (!item || at + 1 >= items.length) return false;
    for (let i = at + 1; i < items.length; i++) {
      const c = items[i];
      if (!c || c.depth === item.depth + 1 && (c.kind !== 0 /* Element */ || c.owned)) return false;
    }
    items.splice(at, 1);
    for (let i = at; i < items.length; i++) {
      const c = items[i];
      if (c) c.depth--;
    }
    return true;
  }

  // src/page/walker.ts
  var TEXT_MAX = 120;
  var TEXT_KEEP = 80;
  var LONG_MAX = 240;
  var LONG_KEEP = 200;
  var URL_MAX2 = 100;
  var VALUE_MAX = 100;
  var MAX_OPTIONS = 25;
  var ACTIONABLE = new Set(
    "button link textbox searchbox checkbox radio combobox listbox option slider spinbutton switch tab menuitem menuitemcheckbox menuitemradio treeitem gridcell scrollbar".split(" ")
  );
  var COLLECTIONS = /* @__PURE__ */ new Set(["list", "listbox", "menu", "menubar", "table", "grid", "treegrid", "tree", "tablist", "rowgroup", "radiogroup", "toolbar"]);
  var CONTEXT = new Set(
    "heading dialog alertdialog alert status log form region navigation main banner contentinfo complementary search group radiogroup table grid treegrid row tablist tabpanel menu menubar toolbar tree".split(" ")
  );
  var LIVE = /* @__PURE__ */ new Set(["alert", "status", "log", "alertdialog"]);
  var CELLS = /* @__PURE__ */ new Set(["cell", "gridcell", "columnheader", "rowheader"]);
  var KEEP_EMPTY = /* @__PURE__ */ new Set(["separator", "image", "iframe", "progressbar", "meter", "math", "textbox"]);
  var SKIP2 = /* @__PURE__ */ new Set(["script", "style", "template", "noscript", "head", "meta", "link", "base"]);
  var LEAF = /* @__PURE__ */ new Set([
    "input",
    "textarea",
    "select",
    "img",
    "svg",
    "button",
    "iframe",
    "frame",
    "object",
    "embed",
    "video",
    "audio",
    "canvas",
    "meter",
    "progress",
    "math"
  ]);
  var FORM_CONTROLS = /* @__PURE__ */ new Set(["button", "input", "select", "textarea", "fieldset", "optgroup", "option"]);
  var SECTIONING = /* @__PURE__ */ new Set(["article", "aside", "main", "nav", "section"]);
  var TreeWalker = class extends RenderedWalk {
    constructor(full, namer, styles, nameSources, listened) {
      super(styles, SKIP2);
      this.full = full;
      this.namer = namer;
      this.nameSources = nameSources;
      this.listened = listened;
    }
    full;
    namer;
    nameSources;
    listened;
    items = [];
    /** What clipping left out (the snapshot's status says so). */
    tally = new Tally();
    depth = 0;
    run = "";
    /** The flattened block the current run is in; null inside an element with a line of its own. */
    owner = null;
    ownerRole = "";
    /** The owner's line is written: a later run of its own is a plain text line. */
    ownerLined = false;
    /** The computed cursor is a pointer here (inherited: not evidence again). */
    pointer = false;
    /** Inside an element whose name is its text: the text is already on its line. */
    suppress = false;
    live = false;
    /** interactive: inside a table row, whose cells join on one line ("a | b"). */
    row = false;
    /** Block boundaries do not end the text line (inside a joined row). */
    joining = false;
    disabled = false;
    ctx = { presentationalTable: false, listItems: true, sectioning: false, grid: false };
    walk(root) {
      this.element(root);
      this.flush();
      return this.items;
    }
    text(t) {
      if (!this.suppress) this.run += t.data;
    }
    element(el) {
      if (el.localName === "br") this.run += " ";
      else super.element(el);
    }
    invisibleElement(el, tag) {
      this.flattened(el, tag, roleOf(el, this.ctx));
    }
    shownElement(el, tag) {
      this.visible(el, tag);
    }
    visible(el, tag) {
      let role = roleOf(el, this.ctx);
      const disabled2 = this.disabled || el.getAttribute("aria-disabled") === "true" || FORM_CONTROLS.has(tag) && nativelyDisabled(el);
      if (tag === "iframe" || tag === "frame") {
        this.flush();
        this.items.push(frameItem(this.depth, el, this.namer.name(el, "iframe").name));
        return;
      }
      if (tag === "input" && styledAway(el) && this.shownLabel(el) !== null) return;
      let byRole = ACTIONABLE.has(role) || tag === "summary";
      const found = evidenceOf(el, tag, byRole, this.scope, this.pointer, this.listened);
      const evidence = found & ~16 /* InPointer */;
      const pointer = (found & 16 /* InPointer */) !== 0;
      if (tag === "a" && role === "generic" && evidence & 2 /* Handler */) {
        role = "link";
        byRole = true;
      }
      const actionable = byRole || evidence !== 0 /* None */;
      const candidate = actionable || (this.full ? this.fullKeeps(el, role, tag) : CONTEXT.has(role));
      if (!candidate) {
        this.flattened(el, tag, role, disabled2, pointer);
        return;
      }
      const { name, fromContent } = this.namer.name(el, role);
      if (!this.full && !actionable && (role === "group" || role === "form") && name === "") {
        this.flattened(el, tag, role, disabled2, pointer);
        return;
      }
      this.flush();
      let head = role === "none" ? "generic" : role;
      if (name !== "") head += " " + quote(this.tally.clip(name, NAME_MAX));
      head += statesOf(el, role, disabled2) + markersOf(evidence, byRole);
      const at = this.items.length;
      const item = elementItem(this.depth, el, head, true);
      this.items.push(item);
      if (role === "link") {
        const href = el.getAttribute("href");
        if (href !== null) item.url = clip(href, URL_MAX2);
      }
      const host = editingHost(el, role);
      const value = host ? squash(el.textContent ?? "") : valueOf(el, role);
      if (value !== void 0 && value !== "") item.text = this.tally.clip(oneLine(value, Number.POSITIVE_INFINITY), VALUE_MAX);
      if (el instanceof HTMLSelectElement) {
        if (!isSensitiveElement(el)) this.options(el);
      } else if (!LEAF.has(tag) && !host) {
        const { suppress, live, row, joining, owner, ownerRole, ownerLined, pointer: inPointer } = this;
        if (fromContent) this.suppress = true;
        if (LIVE.has(role)) this.live = true;
        if (!this.full && role === "row") this.row = true;
        this.joining = false;
        this.owner = null;
        this.pointer = pointer;
        this.depth++;
        this.descend(el, tag, role, disabled2);
        this.flush();
        this.depth--;
        this.suppress = suppress;
        this.live = live;
        this.row = row;
        this.joining = joining;
        this.owner = owner;
        this.ownerRole = ownerRole;
        this.ownerLined = ownerLined;
        this.pointer = inPointer;
      }
      const clickOnly = evidence !== 0 /* None */ && (evidence & 8 /* Focusable */) === 0 && !byRole && !CONTEXT.has(role) && (name === "" || fromContent);
      this.settle(at, name, actionable, tag, role, clickOnly);
    }
    /**
     * After an element's children: a lone text child moves onto its line; an
     * empty context line goes. For an element kept only as a click target
     * (clickOnly: clickable.ts's evidence, no name, not focusable), text-only
     * content joins onto its line (an inbox row reads as one line), and
     * content of elements only stands for it (unwrap).
     */
    settle(at, name, actionable, tag, role, clickOnly) {
      const item = this.items[at];
      if (!item) return;
      const count2 = this.items.length - at - 1;
      const only = this.items[at + 1];
      if (count2 === 1 && only && (only.kind === 1 /* Text */ || only.owned) && item.text === void 0) {
        this.items.length = at + 1;
        const text = only.owned ? only.text ?? "" : only.head;
        if (text !== name) item.text = text;
        return;
      }
      if (count2 > 0 && clickOnly && item.text === void 0 && !COLLECTIONS.has(role)) {
        if (joinTexts(this.items, at, name) || unwrap(this.items, at)) return;
      }
      if (count2 > 0) {
        item.children = true;
        return;
      }
      if (actionable || name !== "" || item.text !== void 0) return;
      if (!this.full || !(LEAF.has(tag) || KEEP_EMPTY.has(role))) this.items.length = at;
    }
    /** An element without a line of its own: its content joins the current level. */
    flattened(el, tag, role, disabled2 = this.disabled, pointer = this.pointer) {
      if (LEAF.has(tag)) return;
      if (this.row && CELLS.has(role)) {
        this.cell(el, tag, role, disabled2, pointer);
        return;
      }
      const control = el instanceof HTMLLabelElement ? el.control : null;
      if (control !== null && styledAway(control) && this.shownLabel(control) === el) {
        this.proxy(el, control);
        return;
      }
      const inline = isInlineTag(tag);
      const block = !inline && !this.joining;
      if (block) this.flush();
      else if (!inline || this.laidOutApart(el)) this.run += " ";
      const saved = this.suppress;
      const { owner, ownerRole, ownerLined, pointer: inPointer } = this;
      this.pointer = pointer;
      const at = this.items.length;
      const owns = block && tag !== "body" && tag !== "html";
      if (owns) {
        this.owner = el;
        this.ownerRole = role;
        this.ownerLined = false;
      }
      if (tag === "legend" || !this.full && (tag === "caption" || control !== null || this.nameSources.has(el))) {
        this.suppress = true;
      }
      if (el.getAttribute("aria-live") === "assertive" || el.getAttribute("aria-live") === "polite") {
        const live = this.live;
        this.live = true;
        this.descend(el, tag, role, disabled2);
        this.live = live;
      } else {
        this.descend(el, tag, role, disabled2);
      }
      this.suppress = saved;
      if (block) this.flush();
      this.owner = owner;
      this.ownerRole = ownerRole;
      this.ownerLined = ownerLined;
      this.pointer = inPointer;
      if (owns) this.promote(at, el, role);
    }
    /**
     * An inline element right after another element, in a flex or grid
     * container: laid out as separate boxes ("Dana Scully", "Lunch" in an
     * inbox row of spans), though nothing in the text parts them. Inline
     * elements otherwise join ("in<span>line</span>" reads "inline"). The
     * container's style is read only where the text would run together.
     */
    laidOutApart(el) {
      const prev = el.previousSibling;
      if (!(prev instanceof Element) || this.run === "" || /\s$/.test(this.run)) return false;
      const parent = el.parentElement;
      if (parent === null) return false;
      const d = getComputedStyle(parent).display;
      return d.includes("flex") || d.includes("grid");
    }
    /**
     * A block whose content made one line, the text of a generic
     * descendant (<li><div>Item</div></li>): the line is the block's, whose
     * role says more (a list item, a cell, a paragraph).
     */
    promote(at, el, role) {
      const only = this.items[at];
      if (this.items.length !== at + 1 || !only?.owned || only.head !== "generic" || role === "generic" || role === "none") return;
      only.el = el;
      only.head = role + ownStates(el, role);
    }
    /**
     * The line of a control that is hidden or transparent while its label
     * is shown (custom-styled checkboxes, radios and file inputs): the
     * control's role, name and states, with the label's ref. A click on the
     * label reaches the control, and the element functions read a label's
     * control (dom.ts controlOf).
     */
    proxy(label, control) {
      this.flush();
      const role = roleOf(control, this.ctx);
      const name = this.namer.name(control, role).name;
      const disabled2 = this.disabled || nativelyDisabled(control);
      let head = role + (name === "" ? "" : " " + quote(clip(name, NAME_MAX)));
      head += statesOf(control, role, disabled2);
      this.items.push(elementItem(this.depth, label, head, true));
    }
    /** The first shown label of a control, or null. */
    shownLabel(control) {
      return this.namer.labelsOf(control).find((l) => visible(l)) ?? null;
    }
    /** interactive: a cell of a kept row adds its text to the row's line, after " | ". */
    cell(el, tag, role, disabled2, pointer) {
      if (this.run.trim() !== "") this.run += " | ";
      const { joining, pointer: inPointer } = this;
      this.joining = true;
      this.pointer = pointer;
      this.descend(el, tag, role, disabled2);
      this.joining = joining;
      this.pointer = inPointer;
    }
    /** Walks el's children with the context el sets for them. */
    descend(el, tag, role, disabled2) {
      const savedCtx = this.ctx;
      const savedDisabled = this.disabled;
      this.disabled = disabled2;
      if (tag === "table") {
        this.ctx = { ...savedCtx, presentationalTable: role === "none", grid: role === "grid" || role === "treegrid" };
      } else if (tag === "ul" || tag === "ol" || tag === "menu") {
        this.ctx = { ...savedCtx, listItems: role === "list" };
      } else if (SECTIONING.has(tag) && !savedCtx.sectioning) {
        this.ctx = { ...savedCtx, sectioning: true };
      }
      this.children(el);
      this.ctx = savedCtx;
      this.disabled = savedDisabled;
    }
    /** full mode: every role but generic/none, and block elements that hold text of their own. */
    fullKeeps(el, role, tag) {
      if (role === "rowgroup" || role === "none") return false;
      if (role !== "generic") return true;
      if (isInlineTag(tag) || tag === "legend") return false;
      for (let c = el.firstChild; c !== null; c = c.nextSibling) {
        if (c instanceof Text && c.data.trim() !== "") return true;
      }
      return false;
    }
    /** A select's options, one level deeper; the select is acted on, so they carry no refs. */
    options(sel) {
      const limit = this.full ? Number.POSITIVE_INFINITY : MAX_OPTIONS;
      let listed = 0;
      let more = 0;
      this.depth++;
      for (const o of sel.options) {
        if (o.hidden) continue;
        if (listed >= limit && !o.selected) {
          more++;
          continue;
        }
        listed++;
        const label = squash(o.label);
        let head = "option" + (label === "" ? "" : " " + quote(clip(label, NAME_MAX)));
        if (o.selected) head += " [selected]";
        if (o.disabled) head += " [disabled]";
        this.items.push(elementItem(this.depth, o, head, false));
      }
      if (more > 0) this.items.push(textItem(1 /* Text */, this.depth, `${more} more options`));
      this.depth--;
    }
    /** Ends the current text run as a text line. */
    flush() {
      if (this.run === "") return;
      const text = squash(this.run);
      this.run = "";
      if (text === "") return;
      const long = this.live || this.row;
      const shown2 = this.full ? text : clipRun(this.row ? text.replace(/( \|)+$/, "") : text, long ? LONG_MAX : TEXT_MAX, long ? LONG_KEEP : TEXT_KEEP, this.tally);
      const owner = this.owner;
      if (owner === null || this.ownerLined) {
        this.items.push(textItem(1 /* Text */, this.depth, shown2));
        return;
      }
      this.ownerLined = true;
      const role = this.ownerRole === "none" ? "generic" : this.ownerRole;
      this.items.push(ownedItem(this.depth, owner, role + ownStates(owner, this.ownerRole), shown2));
    }
  };
  function ownStates(el, role) {
    return el.hasAttributes() ? statesOf(el, role, el.getAttribute("aria-disabled") === "true") : "";
  }
  var STYLED_INPUTS = /* @__PURE__ */ new Set(["checkbox", "radio", "file"]);
  function styledAway(el) {
    return el instanceof HTMLInputElement && STYLED_INPUTS.has(el.type) && !opaque(el);
  }
  function editingHost(el, role) {
    return role === "textbox" && el instanceof HTMLElement && el.isContentEditable && !(el instanceof HTMLTextAreaElement) && !(el instanceof HTMLInputElement);
  }

  // src/page/snapshot.ts
  function snapshot(registry, request) {
    registry.begin(request.nextId);
    const styles = new StyleIndex();
    const namer = new Namer(new LabelMap(), styles);
    const root = document.querySelector(":modal") ?? document.documentElement;
    let items;
    let clipped;
    if (request.mode === "readable") {
      items = new ReadableWalker(namer, styles).walk(root, window.getSelection()?.toString() ?? "");
    } else {
      const full = request.mode === "full";
      const walker = new TreeWalker(full, namer, styles, full ? /* @__PURE__ */ new Set() : labelledBySources(document), takeListened());
      items = walker.walk(root);
      clipped = walker.tally;
    }
    const written = serialize(items, request.indent, request.maxChars, registry);
    const snap = {
      text: written.text,
      truncated: written.truncated,
      nextId: registry.nextId,
      frames: written.frames,
      totalChars: written.totalChars,
      title: document.title,
      url: location.href
    };
    if (clipped !== void 0 && clipped.texts > 0) snap.clipped = { texts: clipped.texts, chars: clipped.chars };
    return snap;
  }

  // src/page/waits.ts
  function hasText(text) {
    const needle = squash(text);
    if (needle === "") return true;
    const body = document.body;
    if (body === null) return false;
    if (squash(body.innerText).includes(needle)) return true;
    return shadowText(document, needle);
  }
  function shadowText(root, needle) {
    for (const el of root.querySelectorAll("*")) {
      const sr = el.shadowRoot;
      if (sr === null) continue;
      for (const c of sr.children) {
        if (c instanceof HTMLElement && squash(c.innerText).includes(needle)) return true;
      }
      if (shadowText(sr, needle)) return true;
    }
    return false;
  }
  function state(el) {
    if (el === null || !el.isConnected) return "gone";
    if (!visible(el) || el.getClientRects().length === 0) return "hidden";
    return disabled(el) ? "disabled" : "enabled";
  }
  function scrollBy(el, dx, dy) {
    if (el === null) {
      window.scrollBy({ left: dx, top: dy, behavior: "instant" });
      return { x: window.scrollX, y: window.scrollY };
    }
    el.scrollBy({ left: dx, top: dy, behavior: "instant" });
    return { x: el.scrollLeft, y: el.scrollTop };
  }

  // src/page/agent.ts
  function install() {
    if (Reflect.has(globalThis, PAGE_AGENT_GLOBAL)) return;
    const registry = new Registry();
    countMutations();
    const el = (ref) => registry.resolve(ref);
    const agent = {
      snapshot: (request) => snapshot(registry, request),
      effect: (ref, press) => {
        const key = typeof press === "string" ? press : null;
        return typeof ref === "string" ? effect(ref, el(ref), key) : effect(null, focusedElement(), key);
      },
      challenges: () => challenges(),
      inChallenge: (ref) => inChallenge(el(ref)),
      target: (ref) => target(el(ref)),
      hitTest: (ref, x, y) => hitTest(el(ref), x, y),
      aim: (ref, apart) => aim(() => el(ref), apart),
      focus: (ref) => focus(el(ref)),
      select: (ref, values) => select(el(ref), values),
      checked: (ref) => checked(el(ref)),
      scrollBy: (ref, dx, dy) => {
        if (typeof ref !== "string") return scrollBy(null, dx, dy);
        const e = el(ref);
        if (e === null || !e.isConnected) throw new Error(`ref ${ref} does not resolve in this document`);
        return scrollBy(e, dx, dy);
      },
      hasText: (text) => hasText(text),
      state: (ref) => state(el(ref)),
      domClick: (ref, navigation) => domClick(el(ref), navigation),
      domSetValue: (ref, text, append) => domSetValue(el(ref), text, append),
      navigationTarget: (ref) => navigationTarget(el(ref)),
      keyTarget: (ref, mode) => keyTarget(el(ref), mode),
      keyReady: (ref, mode, focus2) => keyReady(el(ref), mode, focus2),
      keyValue: (ref) => keyValue(el(ref)),
      pickValue: (ref, value) => pickValue(el(ref), value),
      armKeys: (ref) => armKeys(typeof ref === "string" ? el(ref) : null),
      keysSeen: (count2, read) => keysSeen(count2, read),
      disarmKeys: () => disarmKeys(),
      focusedField: () => focusedField(),
      focusedElement: () => focusedElement(),
      fieldAt: (x, y) => fieldAt(x, y),
      elementAt: (x, y) => elementAt(x, y),
      credentialTarget: (ref, field, value) => credentialTarget(el(ref), field, value),
      credentialHolds: (ref, value) => credentialHolds(el(ref), value),
      knows: (ref) => registry.knows(ref),
      mutations,
      element: (ref) => el(ref)
    };
    Object.defineProperty(globalThis, PAGE_AGENT_GLOBAL, { value: Object.freeze(agent), enumerable: false });
  }
  install();
})();
