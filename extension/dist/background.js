// agenttab-page-agent:virtual:page-agent
var virtual_page_agent_default = `"use strict";
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
      for (const id of (el.getAttribute("aria-labelledby") ?? "").trim().split(/\\s+/)) {
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
      const fn = /^[a-z-]+\\(/i.exec(source.slice(i, i + 24));
      if (fn) {
        const close = closingParen(source, i + fn[0].length);
        if (fn[0].toLowerCase() === "attr(") out += attr(source.slice(i + 5, close).trim().split(/\\s+/)[0] ?? "");
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
      if (c === "\\\\") {
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
    for (const token of attr.trim().toLowerCase().split(/\\s+/)) {
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
    for (const token of a.autocomplete.toLowerCase().split(/\\s+/)) {
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
    return s.replace(/[ \\t\\n\\r\\f]+/g, " ");
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
    return clip(s.replace(/\\r\\n?|\\n/g, "\\\\n"), max);
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
    return \`\${s.slice(0, cut)}… (+\${left} chars)\`;
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
      for (const id of ids.trim().split(/\\s+/)) {
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
     * blocks separated by a space. \`self\` is the element being named (it
     * contributes no value to its own name); \`checkHidden\` is false for
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
  var PSEUDO_SELECTOR = /::?(before|after)\\b/i;
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
    if (role === "heading") out += \` [level=\${headingLevel(el)}]\`;
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
      return el.validationMessage === "" || hidesValue(el) ? " [invalid]" : \` [invalid=\${JSON.stringify(el.validationMessage)}]\`;
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
      containers: [\`.g-recaptcha:not([data-size="invisible"], \${COMMAND_CONTROL})\`],
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
      containers: [".grecaptcha-badge", \`.g-recaptcha[data-size="invisible"]:not(\${COMMAND_CONTROL})\`],
      strongContainers: [],
      bindings: [\`.g-recaptcha:is(\${COMMAND_CONTROL})\`],
      frames: google("/recaptcha/api2/anchor"),
      scripts: [...google("/recaptcha/api.js"), { host: "www.gstatic.com", path: "/recaptcha/releases/" }],
      responseFields: ["g-recaptcha-response"]
    },
    {
      vendor: "google",
      product: "recaptcha_enterprise",
      kind: "widget",
      interaction: "unknown",
      containers: [\`.g-recaptcha:not(\${COMMAND_CONTROL})\`, ".grecaptcha-badge"],
      strongContainers: [],
      bindings: [\`.g-recaptcha:is(\${COMMAND_CONTROL})\`],
      frames: google("/recaptcha/enterprise/anchor"),
      scripts: google("/recaptcha/enterprise.js"),
      responseFields: ["g-recaptcha-response"]
    },
    {
      vendor: "hcaptcha",
      product: "hcaptcha",
      kind: "widget",
      interaction: "checkbox",
      containers: [\`.h-captcha:not([data-size="invisible"], \${COMMAND_CONTROL})\`],
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
      containers: [\`.h-captcha[data-size="invisible"]:not(\${COMMAND_CONTROL})\`],
      strongContainers: [],
      bindings: [\`.h-captcha:is(\${COMMAND_CONTROL})\`],
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
    return s.normalize("NFKD").replace(new RegExp("\\\\p{M}+", "gu"), "").toLowerCase().replace(/[\\p{N}]+/gu, " ").replace(/[\\p{P}\\p{S}]+/gu, " ").replace(/\\s+/g, " ").trim();
  }
  var CJK = /[\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}]/u;
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
  var KANA = /[\\p{Script=Hiragana}\\p{Script=Katakana}]/u;
  function nameForm(name) {
    return wordsForm(normalizeName(name).split(" ").filter((w) => w !== ""));
  }
  function wordsForm(words2) {
    return { words: words2, cjk: words2.join("") };
  }
  var CLAUSE_END = /[,;:!?.()[\\]\\u2013\\u2014\\u3001\\u3002]/u;
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
      for (const t of (f.getAttribute("autocomplete") ?? "").toLowerCase().split(/\\s+/)) if (t.startsWith("cc-")) tokens2.add(t);
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
        return { ok: false, selected: [], error: \`no option \${JSON.stringify(v)}; options: \${known.join(", ")}\` };
      }
      if (o.disabled) return { ok: false, selected: [], error: \`option \${JSON.stringify(v)} is disabled\` };
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
    return (f.getAttribute("autocomplete") ?? "").toLowerCase().split(/\\s+/);
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
        return \`there is no credential field \${JSON.stringify(field)}\`;
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
  var REF = /^e(\\d+)$/;
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
      else this.run += \`[\${text}](\${clip(href, URL_MAX)})\`;
    }
    pre(el) {
      this.flush();
      const depth = this.listDepth;
      const text = el.textContent ?? "";
      this.items.push(textItem(2 /* Raw */, depth, this.quoted + "\`\`\`"));
      for (const line of text.replace(/\\n$/, "").split("\\n")) this.items.push(textItem(2 /* Raw */, depth, this.quoted + line));
      this.items.push(textItem(2 /* Raw */, depth, this.quoted + "\`\`\`"));
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
    return { text: lines.join("\\n"), truncated, frames, totalChars: all };
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
      if (!(prev instanceof Element) || this.run === "" || /\\s$/.test(this.run)) return false;
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
      if (more > 0) this.items.push(textItem(1 /* Text */, this.depth, \`\${more} more options\`));
      this.depth--;
    }
    /** Ends the current text run as a text line. */
    flush() {
      if (this.run === "") return;
      const text = squash(this.run);
      this.run = "";
      if (text === "") return;
      const long = this.live || this.row;
      const shown2 = this.full ? text : clipRun(this.row ? text.replace(/( \\|)+$/, "") : text, long ? LONG_MAX : TEXT_MAX, long ? LONG_KEEP : TEXT_KEEP, this.tally);
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
        if (e === null || !e.isConnected) throw new Error(\`ref \${ref} does not resolve in this document\`);
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
`;

// src/protocol/generated.ts
var CodeNeedsUser = "needs_user";
var NativeAdopt = "adopt";
var ChallengeKindValues = ["interstitial", "widget"];
var ChallengeInteractionValues = ["none", "checkbox", "puzzle", "unknown"];
var ChallengeConfidenceValues = ["high", "medium", "low"];
var CodeChallengePresent = "challenge_present";
var OutcomeNotStarted = "not_started";
var OutcomeDispatched = "dispatched";
var OutcomeConfirmed = "confirmed";
var OutcomeStaged = "staged";
var OutcomeUnknown = "unknown";
var LifecycleReady = "ready";
var RouteFull = "full";
var RouteTabOnly = "tab_only";
var PlacementValues = ["tab", "new_window"];
var PlacementTab = "tab";
var PlacementNewWindow = "new_window";
var RevokeClosed = "closed";
var RevokeUngrouped = "ungrouped";
var RevokeMovedOut = "moved_out";
var RevokeInconsistent = "inconsistent";
var CodeUnknownMethod = "unknown_method";
var CodeInvalidParams = "invalid_params";
var CodeInvalidURL = "invalid_url";
var CodeMessageTooBig = "message_too_large";
var CodeNotOwned = "not_owned";
var CodeNewWindowNotEligible = "new_window_not_eligible";
var CodeGroupFailed = "group_failed";
var CodeChromeError = "chrome_error";
var CodeInternal = "internal_error";
var NativeCommit = "commit";
var EffectValues = ["send", "publish", "purchase", "delete", "upload", "authorization", "permission_grant", "bookmark_remove"];
var EffectUpload = "upload";
var EffectBookmarkRemove = "bookmark_remove";
var ReviewHandleBytes = 32;
var StageTTLMs = 3e5;
var StageApproved = "approved";
var StageDenied = "denied";
var CodeStageNotApproved = "stage_not_approved";
var CodeStageDiscarded = "stage_discarded";
var CodeStageStale = "stage_stale";
var CodeStageTargetChanged = "stage_target_changed";
var NativeStageReview = "stage_review";
var NativeYolo = "yolo";
var NativeCredentialFill = "credential_fill";
var CredentialFieldValues = ["username", "password", "one_time_code"];
var CodeCredentialTokenInvalid = "credential_token_invalid";
var CodeCredentialFieldUnfit = "credential_field_unfit";
var NativeDeveloper = "developer";
var DeveloperActionValues = ["cdp", "evaluate"];
var DeveloperCDP = "cdp";
var DeveloperMarker = " [dev]";
var DeveloperRefusedDomains = ["Target", "Browser", "SystemInfo", "Tracing", "Fetch", "Storage", "IndexedDB", "CacheStorage", "ServiceWorker"];
var DeveloperRefusedMethods = ["Page.setPrerenderingAllowed", "Network.setRequestInterception", "Network.continueInterceptedRequest", "Network.loadNetworkResource", "DOM.setFileInputFiles", "Input.dispatchDragEvent", "Page.setDownloadBehavior", "Network.getCookies", "Network.getAllCookies", "Network.setCookie", "Network.setCookies", "Network.deleteCookies", "Network.clearBrowserCookies", "Network.clearBrowserCache"];
var DeveloperCommandMs = 3e4;
var MaxDeveloperResult = 1048576;
var Version = 1;
var NativeHostName = "com.agenttab.host";
var RecoveryUpdate = "Update AgentTab so the host and the extension match (run `agenttab install` and reload the extension).";
var ErrorCatalogue = {
  parse_error: {
    meaning: "the request is not one JSON object",
    outcome: "not_started",
    recovery: "Send each message as one UTF-8 JSON-RPC 2.0 object; on a socket or stdio, one per line, ending with a newline."
  },
  invalid_request: {
    meaning: "the request is not a valid JSON-RPC 2.0 request, or comes at the wrong time",
    outcome: "not_started",
    recovery: 'Send {"jsonrpc":"2.0","id":<number or string>,"method":"<name>","params":{...}} (a notification has no id).'
  },
  unknown_method: {
    meaning: "no such method",
    outcome: "not_started",
    recovery: "Update AgentTab so the host and the extension match (run `agenttab install` and reload the extension)."
  },
  invalid_params: {
    meaning: "a parameter is missing, malformed or out of range",
    outcome: "not_started",
    recovery: "Check the parameter names and types against the tool's schema."
  },
  invalid_url: {
    meaning: "the URL is not one AgentTab navigates to",
    outcome: "not_started",
    recovery: "Pass an absolute http(s) URL, for example https://example.com/."
  },
  message_too_large: {
    meaning: "a message is larger than the boundary admits",
    outcome: "not_started",
    recovery: "Ask for less in one call (a smaller window or fewer items), or send less (fewer steps, shorter text)."
  },
  host_unavailable: {
    meaning: "the host is not running, not reachable or not ready for browser work",
    outcome: "not_started",
    recovery: "Wait a moment and retry; the host becomes ready once the extension has connected and ownership is reconciled. `agenttab status` says what is missing."
  },
  not_owned: {
    meaning: "the task does not own that tab (or blob)",
    outcome: "not_started",
    recovery: "Call browser_tabs to see the tabs this task owns, or open the page again with browser_open."
  },
  no_task: {
    meaning: "the connection has no task",
    outcome: "not_started",
    recovery: "Open a tab with browser_open (which starts a task), or resume the task with its capability."
  },
  new_window_not_eligible: {
    meaning: "placement new_window is only for the first tab of a task that owns no tabs",
    outcome: "not_started",
    recovery: `Omit placement (or pass "tab") to open the tab beside the task's other tabs.`
  },
  group_failed: {
    meaning: "Chrome could not put the tab in the task's group",
    outcome: "not_started",
    recovery: "Retry; AgentTab never keeps a tab it cannot show in the task's group."
  },
  idempotency_key_conflict: {
    meaning: "the idempotency key was used for a different call",
    outcome: "not_started",
    recovery: "Use a fresh idempotency_key for a different request, or repeat the original arguments exactly."
  },
  idempotency_key_in_progress: {
    meaning: "a call with this idempotency key started and never reported completion",
    outcome: "unknown",
    recovery: "Check the browser state with browser_tabs before deciding whether to repeat the action with a new key."
  },
  peer_refused: {
    meaning: "the host refused the connecting process",
    outcome: "not_started",
    recovery: "Connect from a process of the same user that AgentTab admits; `agenttab status` lists recent refusals."
  },
  capability_unconfirmed: {
    meaning: "the connection has a resume capability it has not confirmed",
    outcome: "not_started",
    recovery: "Store the capability from the response envelope durably, then call capability_confirm; retry this request after that."
  },
  chrome_error: {
    meaning: "Chrome refused or failed an operation",
    outcome: "not_started",
    recovery: "Retry; if Chrome keeps refusing, take a new browser_snapshot or check the tab with browser_tabs."
  },
  extension_timeout: {
    meaning: "the extension did not answer in time",
    outcome: "unknown",
    recovery: "Check the page with browser_tabs before retrying; if the outcome is unknown, do not assume the step ran or did not run."
  },
  extension_disconnected: {
    meaning: "the extension disconnected from the host",
    outcome: "unknown",
    recovery: "Chrome or the extension restarted; wait for the host to become ready again, then check your tabs with browser_tabs."
  },
  protocol_version_mismatch: {
    meaning: "the extension and the host speak different protocol versions",
    outcome: "not_started",
    recovery: "Install the extension and host from the same AgentTab release: run `agenttab install` and reload the extension."
  },
  wrong_extension: {
    meaning: "the host was started for another extension",
    outcome: "not_started",
    recovery: "Reinstall with `agenttab install` so the host manifest names this extension."
  },
  internal_error: {
    meaning: "AgentTab failed (a bug or a local fault)",
    outcome: "unknown",
    recovery: "If the outcome is not_started, retry once; if it is unknown, check the tab with browser_tabs before repeating the call, which may have run in part. If it happens again, run `agenttab status` and report the host log."
  },
  stale_ref: {
    meaning: "the ref no longer names the element of the snapshot it came from",
    outcome: "not_started",
    recovery: "Take a new browser_snapshot and use the refs it shows."
  },
  stale_revision: {
    meaning: "the page changed since the expected revision",
    outcome: "not_started",
    recovery: "Take a new browser_snapshot (its page_revision is current) and act on what it shows."
  },
  browser_restricted_origin: {
    meaning: "Chrome does not let extensions read or drive this browser-owned page",
    outcome: "not_started",
    recovery: "Only navigate, reload, close, and load or URL waits work here; navigate the tab to a web page first, or ask the user to do this step in the tab."
  },
  debugger_unavailable: {
    meaning: "the tab's debugger is not available to AgentTab",
    outcome: "not_started",
    recovery: "Close DevTools or another debugging extension on this tab, or open the page in a new task tab; then check the tab with browser_tabs and retry."
  },
  sensitive_field: {
    meaning: "the target is a password, one-time-code or payment-card field",
    outcome: "not_started",
    recovery: "Ask the user to fill it in the tab themselves (name the field), then go on from the next step; AgentTab never sends keys, text, drops or option choices into such a field."
  },
  target_not_actionable: {
    meaning: "the target cannot take this step (hidden, disabled, or the wrong kind of element)",
    outcome: "not_started",
    recovery: "Take a new browser_snapshot; act on an element that is shown and enabled, or wait for this one (browser_wait until ref)."
  },
  target_covered: {
    meaning: "another element covers the target (still, after the step waited actionable_timeout_ms for it to go)",
    outcome: "not_started",
    recovery: "Close or act on what covers it first (a dialog, a banner, a menu), then retry."
  },
  target_moving: {
    meaning: "the target kept moving (between two looks) until the step's actionable_timeout_ms ran out",
    outcome: "not_started",
    recovery: "Wait for the page to settle (browser_wait), or retry with a longer actionable_timeout_ms."
  },
  focus_lost: {
    meaning: "focus left the field before text went in",
    outcome: "not_started",
    recovery: "Take a new browser_snapshot: something (a popup, an overlay, a script) took focus."
  },
  value_not_accepted: {
    meaning: "the field did not take the value: read back, it holds something else",
    outcome: "dispatched",
    recovery: "Read what the field holds (in the message); give the value in the field's format (date yyyy-mm-dd, time hh:mm, datetime-local yyyy-mm-ddThh:mm, month yyyy-mm, week yyyy-Www, color #rrggbb, a range's number within its bounds) or within its limits, or type it key by key when the page formats it as you type."
  },
  dialog_open: {
    meaning: "a JavaScript dialog blocks the page",
    outcome: "not_started",
    recovery: 'Answer it with a browser_act step {"kind": "dialog", "accept": true or false}, or ask the user to answer it in Chrome.'
  },
  navigation_failed: {
    meaning: "a navigation did not happen or did not commit",
    outcome: "not_started",
    recovery: "Check the tab's URL with browser_tabs and the network, then retry."
  },
  snapshot_failed: {
    meaning: "AgentTab could not read the page",
    outcome: "not_started",
    recovery: "Retry once the page has loaded (browser_wait until load); if it keeps failing, reload the page."
  },
  wait_timeout: {
    meaning: "a wait step's condition did not hold in time",
    outcome: "observed",
    recovery: "Take a new browser_snapshot to see where the page is, then wait again or act on what it shows."
  },
  child_not_owned: {
    meaning: "the page opened a tab the task does not hold",
    outcome: "dispatched",
    recovery: "Call browser_tabs to see what the task owns; open the page with browser_open if the task needs it."
  },
  classification_mismatch: {
    meaning: "the extension classified the request differently from the host",
    outcome: "not_started",
    recovery: "Update AgentTab so the host and the extension match (run `agenttab install` and reload the extension)."
  },
  too_many_tasks: {
    meaning: "the host keeps as many detached tasks as it admits",
    outcome: "not_started",
    recovery: "Close the tab groups of agents you no longer need in Chrome (a task without tabs makes room), or let those agents reconnect and call browser_finish; then retry."
  },
  needs_user: {
    meaning: "the user did not allow the request",
    outcome: "not_started",
    recovery: "Ask the user in your chat to open the AgentTab popup and allow the request (or do the step themselves), then call browser_open with adopt_active again."
  },
  local_file_denied: {
    meaning: "the target is a local file the policy does not admit",
    outcome: "not_started",
    recovery: "AgentTab opens a local file (file:) only inside a folder the user admits in policy.json (local_files.allowed_roots), never one in AgentTab's own state directory, never a hard-linked file, and never view-source: of one. Ask the user to admit the folder, or serve the folder over HTTP (for example `python3 -m http.server 8000 --bind 127.0.0.1` in it) and open http://127.0.0.1:8000/ instead."
  },
  origin_policy_denied: {
    meaning: "the user's origin policy does not admit the destination",
    outcome: "not_started",
    recovery: "The user's managed policy (policy.json origins) does not let agents go there. Work on an allowed site instead, or ask the user to change the policy."
  },
  origin_policy_unverifiable: {
    meaning: "the destination cannot be checked against the origin policy before Chrome goes there",
    outcome: "not_started",
    recovery: "AgentTab cannot check this destination against the user's origin policy before Chrome goes there; navigate explicitly to an allowed http(s) URL (a navigate step or browser_open)."
  },
  bookmark_protected: {
    meaning: "the bookmark is the invisible root, one of its top-level folders, or managed by the administrator",
    outcome: "not_started",
    recovery: "AgentTab never changes the bookmarks root, its top-level folders (Bookmarks bar, Other bookmarks, Mobile bookmarks) or managed bookmarks. Work on a bookmark or folder inside them instead."
  },
  bookmark_folder_not_empty: {
    meaning: "bookmarks_remove names a folder that still holds bookmarks or folders",
    outcome: "not_started",
    recovery: "bookmarks_remove removes one bookmark or one empty folder: remove (or move out) what the folder holds first, one stage each."
  },
  profile_item_not_found: {
    meaning: "no bookmark, session entry or download has that id",
    outcome: "not_started",
    recovery: "Search or list again (bookmarks_search, bookmarks_tree, sessions_list, downloads_search) and use an id from the answer."
  },
  paused: {
    meaning: "the user paused AgentTab",
    outcome: "not_started",
    recovery: "Wait for the user to resume (the AgentTab popup or `agenttab resume`), then retry; tell the user if the task is blocked."
  },
  too_many_connections: {
    meaning: "the host already serves as many Core connections as it admits",
    outcome: "not_started",
    recovery: "Close Core clients you no longer use (each `agenttab mcp` and each HTTP MCP session holds one connection), then retry: the host refuses a new connection only while every one it serves is busy or was used moments ago."
  },
  connection_idle: {
    meaning: "the host closed an idle Core connection",
    outcome: "not_started",
    recovery: "Connect again; resume the task with its capability (`agenttab mcp` does both by itself). Nothing sent on the closed connection ran."
  },
  stage_not_found: {
    meaning: "this task has no stage with that id",
    outcome: "not_started",
    recovery: "Use the stage id from the staged step's receipt (steps[i].stage.stage) of this task's own browser_act; a stage of another task is never found."
  },
  stage_not_approved: {
    meaning: "the user has not approved the stage in the AgentTab popup yet",
    outcome: "not_started",
    recovery: "Ask the user in your chat to review the staged action in the AgentTab popup and press Approve, wait for their word, then call browser_commit again with the same stage."
  },
  stage_denied: {
    meaning: "the user denied the stage",
    outcome: "not_started",
    recovery: "Do not retry the action; ask the user what they want instead."
  },
  stage_expired: {
    meaning: "the stage expired (five minutes) before it was committed",
    outcome: "not_started",
    recovery: "Take a new snapshot and run the step again with browser_act to stage it anew, then ask the user to approve it."
  },
  stage_consumed: {
    meaning: "a browser_commit already took this stage; it never runs twice",
    outcome: "not_started",
    recovery: "Take a snapshot to see what the first commit did; stage the action again with browser_act only if it must run again."
  },
  stage_discarded: {
    meaning: "the stage was discarded (the user turned YOLO mode on, or the task finished)",
    outcome: "not_started",
    recovery: "Take a new snapshot and run the step again with browser_act; with YOLO mode on it runs without review."
  },
  stage_stale: {
    meaning: "the tab navigated since the stage was made",
    outcome: "not_started",
    recovery: "Take a new snapshot, check the page, and stage the action again with browser_act."
  },
  stage_target_changed: {
    meaning: "the staged control is gone or changed since the stage was made, or its form's values changed after the user approved them",
    outcome: "not_started",
    recovery: "Take a new snapshot, check the page, and stage the action again with browser_act."
  },
  notice_not_found: {
    meaning: "the notice is not the tab's open one (replaced by a newer request, or closed)",
    outcome: "not_started",
    recovery: "Call browser_handoff with action status to see this task's notices and their ids."
  },
  handoff_in_progress: {
    meaning: "the user has this tab for a handoff (its notice is open and it is the tab they are looking at), so AgentTab does not read or drive it, nor close its notice",
    outcome: "not_started",
    recovery: "Wait for the user's word in your chat that they are done; once they have left the tab, check the page (browser_snapshot) and resolve the notice with browser_handoff. Meanwhile other tabs work as usual."
  },
  challenge_present: {
    meaning: "the target belongs to a recognised bot challenge (or the page is a challenge interstitial); AgentTab gives it no input",
    outcome: "not_started",
    recovery: "Hand the step to the user: browser_handoff with action request, reason captcha; ask them in your chat, wait for their word, then verify the page."
  },
  task_ended: {
    meaning: "the user ended this task from the AgentTab popup; its tabs were released",
    outcome: "not_started",
    recovery: "Ask the user before going on; a new browser_open starts a new task."
  },
  task_busy: {
    meaning: "the task is in the middle of a call of its agent, so it was not ended",
    outcome: "not_started",
    recovery: "Try again in a moment, when the call is done."
  },
  credential_token_invalid: {
    meaning: "the credential token is unknown, used, expired, another task's, or its tab navigated since it was made",
    outcome: "not_started",
    recovery: "Call browser_credentials with action prepare again for the tab as it is now, and use the token it returns (each token works once)."
  },
  one_password_disabled: {
    meaning: "the user's policy turned the 1Password broker off",
    outcome: "not_started",
    recovery: "Hand the login to the user: browser_handoff with action request, reason login."
  },
  credential_field_unfit: {
    meaning: "the ref is not a field for that value (a password goes only into a password field, a username into a text or email field, a code into a one-time-code or text field), or it is in a frame of another origin than the tab",
    outcome: "not_started",
    recovery: "Take a snapshot and pass the ref of the login form's field for that value."
  },
  upload_denied: {
    meaning: "the file is not one the user's policy admits for upload (outside uploads.dlp_allowed_roots, not a regular file, a symlink or hard link, changed while it was checked), or no folder is admitted",
    outcome: "not_started",
    recovery: "Ask the user to put the file in a folder their policy admits for uploads (uploads.dlp_allowed_roots in AgentTab's policy.json), then pass its path there."
  },
  upload_too_large: {
    meaning: "the file is larger than the user's policy admits for one upload (uploads.max_bytes)",
    outcome: "not_started",
    recovery: "Tell the user; only they can raise uploads.max_bytes in AgentTab's policy.json, or hand the upload to them with browser_handoff."
  },
  developer_mode_disabled: {
    meaning: "Developer mode is off in the user's policy",
    outcome: "not_started",
    recovery: "Use the Standard tools; only the user can turn Developer mode on (developer_mode.enabled in AgentTab's policy.json)."
  }
};
var HandlePrefixNotice = "ntc_";
var NativeHandoff = "handoff";
var HandoffActionValues = ["request", "status", "resolve", "dismiss"];
var HandoffRequest = "request";
var HandoffStatus = "status";
var HandoffResolve = "resolve";
var HandoffDismiss = "dismiss";
var HandoffReasonValues = ["passkey", "security_key", "captcha", "login", "payment", "account_recovery", "verification", "other"];
var NoticeOpen = "open";
var NoticeResolved = "resolved";
var NoticeDismissed = "dismissed";
var NoticeReplaced = "replaced";
var IdleThresholdSeconds = 60;
var DefaultNoticeSeconds = 900;
var MaxNoticeSeconds = 3600;
var CodeNoticeNotFound = "notice_not_found";
var CodeHandoffInProgress = "handoff_in_progress";
var KeyAliases = {
  ctrl: "Control",
  control: "Control",
  cmd: "Meta",
  command: "Meta",
  meta: "Meta",
  win: "Meta",
  super: "Meta",
  alt: "Alt",
  option: "Alt",
  opt: "Alt",
  shift: "Shift",
  esc: "Escape",
  return: "Enter",
  del: "Delete",
  spacebar: "Space",
  " ": "Space",
  up: "ArrowUp",
  down: "ArrowDown",
  left: "ArrowLeft",
  right: "ArrowRight",
  pgup: "PageUp",
  pgdn: "PageDown"
};
var CodeLocalFileDenied = "local_file_denied";
var LocalFileNoRoots = "it is a local file (file:), and the user's policy admits no local folder";
var LocalFileViewSource = "it is view-source: of a local file, which AgentTab never opens";
var LocalFilePopup = "it is a local file, which AgentTab opens only as the target of browser_open or a navigate step, or as a page a task's tab is led to";
var LocalFileUnchecked = "the tab shows a local file whose loads AgentTab could not check as they happened (that needs its debugger on the tab from before the page loaded); reload the page, or open it again with browser_open";
var NativeLocalFile = "local_file";
var NativeTypeHello = "hello";
var NativeTypeWelcome = "welcome";
var NativeTypeReject = "reject";
var NativeTypeRequest = "request";
var NativeTypeResponse = "response";
var NativeTypeEvent = "event";
var NativeReconcile = "reconcile";
var NativeOpen = "open";
var NativeTabs = "tabs";
var NativeFinish = "finish";
var NativePing = "ping";
var EventRevoked = "revoked";
var EventRevision = "revision";
var EventChild = "child";
var ClassRead = "read";
var ClassMutation = "mutation";
var ClassGlobal = "global";
var NativeClasses = {
  reconcile: "global",
  pausing: "global",
  pause: "global",
  unpause: "global",
  open: "mutation",
  finish: "mutation",
  adopt: "mutation",
  act: "mutation",
  snapshot: "read",
  tabs: "read",
  wait: "read",
  ping: "read",
  commit: "mutation",
  handoff: "read",
  credential_fill: "mutation",
  developer: "mutation",
  profile: "global"
};
var CodeOriginPolicyDenied = "origin_policy_denied";
var CodeOriginPolicyUnverifiable = "origin_policy_unverifiable";
var OriginSchemeValues = ["http", "https"];
var MaxOriginStops = 8;
var NativeSnapshot = "snapshot";
var NativeAct = "act";
var NativeWait = "wait";
var CodeStaleRef = "stale_ref";
var CodeStaleRevision = "stale_revision";
var CodeBrowserRestrictedOrigin = "browser_restricted_origin";
var CodeDebuggerUnavailable = "debugger_unavailable";
var CodeSensitiveField = "sensitive_field";
var CodeTargetNotActionable = "target_not_actionable";
var CodeTargetCovered = "target_covered";
var CodeTargetMoving = "target_moving";
var CodeFocusLost = "focus_lost";
var CodeDialogOpen = "dialog_open";
var CodeNavigationFailed = "navigation_failed";
var CodeSnapshotFailed = "snapshot_failed";
var CodeValueNotAccepted = "value_not_accepted";
var CodeWaitTimeout = "wait_timeout";
var CodeChildNotOwned = "child_not_owned";
var CodeClassificationMismatch = "classification_mismatch";
var SnapshotModeValues = ["interactive", "full", "readable"];
var SnapshotReadable = "readable";
var ScreenshotKindValues = ["none", "viewport", "full_page"];
var RouteDebugger = "debugger";
var RouteScripting = "scripting";
var MaxSteps = 32;
var NavigationCommitted = "committed";
var NavigationSameDocument = "same_document";
var NavigationRefused = "refused";
var NavigationAbandoned = "abandoned";
var NavigationUnknown = "unknown";
var WaitUntilValues = ["load", "url", "text", "ref", "navigation", "network_idle", "download"];
var WaitStateValues = ["visible", "hidden", "enabled"];
var WaitVisible = "visible";
var DefaultIdleMs = 500;
var MaxIdleMs = 1e4;
var DownloadInProgress = "in_progress";
var DownloadComplete = "complete";
var DownloadCanceled = "canceled";
var DefaultWaitMs = 5e3;
var MaxWaitMs = 3e4;
var LifecyclePausing = "pausing";
var LifecyclePaused = "paused";
var CodePaused = "paused";
var NativePausing = "pausing";
var NativePause = "pause";
var NativeUnpause = "unpause";
var EventPauseRequested = "pause_requested";
var EventResumeRequested = "resume_requested";
var PauseReasonValues = ["user", "debugger_canceled"];
var PauseByUser = "user";
var PauseByDebuggerCancel = "debugger_canceled";
var NativeTaskOverview = "task_overview";
var NativeEndTask = "end_task";
var NativeProfile = "profile";
var ProfileOpValues = ["bookmarks_search", "bookmarks_tree", "bookmarks_create", "bookmarks_update", "bookmarks_move", "bookmarks_remove", "history_search", "sessions_list", "sessions_restore", "downloads_search", "downloads_cancel", "downloads_pause", "downloads_resume"];
var ProfileBookmarksSearch = "bookmarks_search";
var ProfileBookmarksTree = "bookmarks_tree";
var ProfileBookmarksCreate = "bookmarks_create";
var ProfileBookmarksUpdate = "bookmarks_update";
var ProfileBookmarksMove = "bookmarks_move";
var ProfileBookmarksRemove = "bookmarks_remove";
var ProfileHistorySearch = "history_search";
var ProfileSessionsList = "sessions_list";
var ProfileSessionsRestore = "sessions_restore";
var ProfileDownloadsSearch = "downloads_search";
var ProfileDownloadsCancel = "downloads_cancel";
var ProfileDownloadsPause = "downloads_pause";
var ProfileDownloadsResume = "downloads_resume";
var ProfileRules = {
  bookmarks_search: {
    needs: ["query"],
    takes: ["max_results"]
  },
  bookmarks_tree: {
    takes: ["id"]
  },
  bookmarks_create: {
    takes: ["parent_id", "index", "title", "url", "idempotency_key"],
    one_of: ["title", "url"],
    write: true
  },
  bookmarks_update: {
    needs: ["id"],
    takes: ["title", "url", "idempotency_key"],
    one_of: ["title", "url"],
    write: true
  },
  bookmarks_move: {
    needs: ["id"],
    takes: ["parent_id", "index", "idempotency_key"],
    one_of: ["parent_id", "index"],
    write: true
  },
  bookmarks_remove: {
    needs: ["id"],
    takes: ["idempotency_key"],
    write: true
  },
  history_search: {
    takes: ["query", "start_time_ms", "end_time_ms", "max_results"]
  },
  sessions_list: {
    takes: ["max_results"]
  },
  sessions_restore: {
    needs: ["id"],
    takes: ["idempotency_key"],
    write: true
  },
  downloads_search: {
    takes: ["query", "max_results"]
  },
  downloads_cancel: {
    needs: ["id"],
    takes: ["idempotency_key"],
    write: true
  },
  downloads_pause: {
    needs: ["id"],
    takes: ["idempotency_key"],
    write: true
  },
  downloads_resume: {
    needs: ["id"],
    takes: ["idempotency_key"],
    write: true
  }
};
var WebSchemes = ["http", "https"];
var MaxRestoreURLs = 25;
var DefaultProfileResults = 50;
var MaxProfileResults = 1e3;
var CodeBookmarkProtected = "bookmark_protected";
var CodeBookmarkFolderNotEmpty = "bookmark_folder_not_empty";
var CodeProfileNotFound = "profile_item_not_found";
var StepKindValues = ["click", "double_click", "hover", "focus", "type", "fill", "clear", "press", "select", "check", "uncheck", "scroll", "drag", "navigate", "reload", "back", "forward", "close", "dialog", "wait", "upload_file"];
var DropPositionValues = ["center", "before", "after"];
var DropCenter = "center";
var DropBefore = "before";
var RefRequired = "required";
var RefNone = "none";
var NavigatesExpected = "expected";
var NavigatesPossible = "possible";
var NavigatesNever = "none";
var StepRules = {
  click: {
    ref: "required",
    navigates: "possible",
    class: "mutation",
    routes: ["debugger", "scripting"]
  },
  double_click: {
    ref: "required",
    navigates: "possible",
    class: "mutation",
    routes: ["debugger"]
  },
  hover: {
    ref: "required",
    navigates: "none",
    class: "mutation",
    routes: ["debugger"]
  },
  focus: {
    ref: "required",
    navigates: "none",
    class: "mutation",
    routes: ["debugger", "scripting"]
  },
  type: {
    ref: "required",
    needs: ["text"],
    navigates: "none",
    class: "mutation",
    routes: ["debugger", "scripting"]
  },
  fill: {
    ref: "required",
    takes: ["text"],
    navigates: "none",
    class: "mutation",
    routes: ["debugger", "scripting"]
  },
  clear: {
    ref: "required",
    navigates: "none",
    class: "mutation",
    routes: ["debugger", "scripting"]
  },
  press: {
    ref: "optional",
    needs: ["keys"],
    navigates: "possible",
    class: "mutation",
    routes: ["debugger"]
  },
  select: {
    ref: "required",
    needs: ["values"],
    navigates: "possible",
    class: "mutation",
    routes: ["debugger", "scripting"]
  },
  check: {
    ref: "required",
    navigates: "possible",
    class: "mutation",
    routes: ["debugger", "scripting"]
  },
  uncheck: {
    ref: "required",
    navigates: "possible",
    class: "mutation",
    routes: ["debugger", "scripting"]
  },
  scroll: {
    ref: "optional",
    takes: ["delta_x", "delta_y"],
    navigates: "none",
    class: "mutation",
    routes: ["debugger", "scripting"]
  },
  drag: {
    ref: "required",
    needs: ["to_ref"],
    takes: ["position"],
    navigates: "none",
    class: "mutation",
    routes: ["debugger"]
  },
  navigate: {
    ref: "none",
    needs: ["url"],
    navigates: "expected",
    class: "mutation"
  },
  reload: {
    ref: "none",
    navigates: "expected",
    class: "mutation"
  },
  back: {
    ref: "none",
    navigates: "expected",
    class: "mutation"
  },
  forward: {
    ref: "none",
    navigates: "expected",
    class: "mutation"
  },
  close: {
    ref: "none",
    navigates: "none",
    class: "mutation"
  },
  dialog: {
    ref: "none",
    needs: ["accept"],
    takes: ["prompt_text"],
    navigates: "possible",
    class: "mutation",
    routes: ["debugger"]
  },
  wait: {
    ref: "none",
    needs: ["wait"],
    navigates: "none",
    class: "read"
  },
  upload_file: {
    ref: "required",
    needs: ["path"],
    navigates: "none",
    class: "mutation",
    routes: ["debugger"]
  }
};
var RefPattern = "^e[1-9][0-9]{0,14}$";
var NavigableSchemes = ["http", "https", "about", "chrome", "chrome-extension", "chrome-untrusted", "devtools", "view-source"];
var MaxURLBytes = 32768;
var DecodeError = class extends globalThis.Error {
  path;
  want;
  constructor(path, want) {
    super(`${path} must be ${want}`);
    this.name = "DecodeError";
    this.path = path;
    this.want = want;
  }
};
function isObject(v) {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
function has(v) {
  return v !== void 0 && v !== null;
}
function readObject(v, path) {
  if (!isObject(v)) throw new DecodeError(path, "an object");
  return v;
}
function readString(v, path) {
  if (typeof v !== "string") throw new DecodeError(path, "a string");
  return v;
}
function readInt(v, path) {
  if (typeof v !== "number" || !Number.isSafeInteger(v)) throw new DecodeError(path, "an integer");
  return v;
}
function readBool(v, path) {
  if (typeof v !== "boolean") throw new DecodeError(path, "true or false");
  return v;
}
function readEnum(v, path, values) {
  const found = values.find((x) => x === v);
  if (found === void 0) throw new DecodeError(path, `one of ${values.map((x) => JSON.stringify(x)).join(", ")}`);
  return found;
}
function readLiteral(v, path, want) {
  if (v !== want) throw new DecodeError(path, JSON.stringify(want));
  return want;
}
function readList(v, path, item) {
  if (v === null) return [];
  if (!Array.isArray(v)) throw new DecodeError(path, "a list");
  return v.map((x, i) => item(x, `${path}[${i}]`));
}
function readMap(v, path, item) {
  if (v === null) return {};
  return Object.fromEntries(Object.entries(readObject(v, path)).map(([k, x]) => [k, item(x, `${path}[${JSON.stringify(k)}]`)]));
}
function decodeExtAdoptParams(v, path = "params") {
  const f = readObject(v, path);
  return {
    task: decodeTaskLook(f["task"], path + ".task"),
    timeout_ms: readInt(f["timeout_ms"], path + ".timeout_ms")
  };
}
function decodeExtCommitParams(v, path = "params") {
  const f = readObject(v, path);
  const out = {
    task_id: readString(f["task_id"], path + ".task_id"),
    tab_id: readInt(f["tab_id"], path + ".tab_id"),
    expected_page_revision: readInt(f["expected_page_revision"], path + ".expected_page_revision"),
    step: decodeStep(f["step"], path + ".step"),
    review_handle_digest: readString(f["review_handle_digest"], path + ".review_handle_digest"),
    effect: readEnum(f["effect"], path + ".effect", EffectValues),
    fingerprint: readString(f["fingerprint"], path + ".fingerprint")
  };
  if (has(f["actionable_timeout_ms"])) out.actionable_timeout_ms = readInt(f["actionable_timeout_ms"], path + ".actionable_timeout_ms");
  return out;
}
function decodeExtCredentialFillParams(v, path = "params") {
  const f = readObject(v, path);
  return {
    task_id: readString(f["task_id"], path + ".task_id"),
    tab_id: readInt(f["tab_id"], path + ".tab_id"),
    expected_page_revision: readInt(f["expected_page_revision"], path + ".expected_page_revision"),
    origin: readString(f["origin"], path + ".origin"),
    ref: readString(f["ref"], path + ".ref"),
    field: readEnum(f["field"], path + ".field", CredentialFieldValues),
    value: readString(f["value"], path + ".value")
  };
}
function decodeExtDeveloperParams(v, path = "params") {
  const f = readObject(v, path);
  const out = {
    task_id: readString(f["task_id"], path + ".task_id"),
    tab_id: readInt(f["tab_id"], path + ".tab_id"),
    action: readEnum(f["action"], path + ".action", DeveloperActionValues)
  };
  if (has(f["method"])) out.method = readString(f["method"], path + ".method");
  if (has(f["params"])) out.params = readMap(f["params"], path + ".params", (x) => x);
  if (has(f["expression"])) out.expression = readString(f["expression"], path + ".expression");
  return out;
}
function decodeExtHandoffParams(v, path = "params") {
  const f = readObject(v, path);
  const out = {
    task_id: readString(f["task_id"], path + ".task_id"),
    action: readEnum(f["action"], path + ".action", HandoffActionValues)
  };
  if (has(f["tab_id"])) out.tab_id = readInt(f["tab_id"], path + ".tab_id");
  if (has(f["reason"])) out.reason = readEnum(f["reason"], path + ".reason", HandoffReasonValues);
  if (has(f["message"])) out.message = readString(f["message"], path + ".message");
  if (has(f["notice_id"])) out.notice_id = readString(f["notice_id"], path + ".notice_id");
  if (has(f["expires_in_ms"])) out.expires_in_ms = readInt(f["expires_in_ms"], path + ".expires_in_ms");
  return out;
}
function decodeNativeWelcome(v, path = "params") {
  const f = readObject(v, path);
  return {
    type: readLiteral(f["type"], path + ".type", "welcome"),
    protocol_version: readInt(f["protocol_version"], path + ".protocol_version"),
    host_version: readString(f["host_version"], path + ".host_version"),
    origins: decodeOriginPolicy(f["origins"], path + ".origins"),
    local_files: readBool(f["local_files"], path + ".local_files")
  };
}
function decodeTaskLook(v, path = "params") {
  const f = readObject(v, path);
  const out = {
    task_id: readString(f["task_id"], path + ".task_id"),
    label: readString(f["label"], path + ".label"),
    color: readString(f["color"], path + ".color")
  };
  if (has(f["developer"])) out.developer = readBool(f["developer"], path + ".developer");
  return out;
}
function decodeExtOpenParams(v, path = "params") {
  const f = readObject(v, path);
  return {
    task: decodeTaskLook(f["task"], path + ".task"),
    url: readString(f["url"], path + ".url"),
    placement: readEnum(f["placement"], path + ".placement", PlacementValues),
    load_wait_ms: readInt(f["load_wait_ms"], path + ".load_wait_ms")
  };
}
function decodeExtTabsParams(v, path = "params") {
  const f = readObject(v, path);
  return {
    task_id: readString(f["task_id"], path + ".task_id"),
    tab_ids: readList(f["tab_ids"], path + ".tab_ids", readInt)
  };
}
function decodeExtFinishParams(v, path = "params") {
  const f = readObject(v, path);
  return {
    task_id: readString(f["task_id"], path + ".task_id"),
    close: readList(f["close"], path + ".close", readInt)
  };
}
function decodeReconcileTab(v, path = "params") {
  const f = readObject(v, path);
  return {
    tab_id: readInt(f["tab_id"], path + ".tab_id"),
    group_id: readInt(f["group_id"], path + ".group_id"),
    revision_floor: readInt(f["revision_floor"], path + ".revision_floor")
  };
}
function decodeReconcileTask(v, path = "params") {
  const f = readObject(v, path);
  return {
    task: decodeTaskLook(f["task"], path + ".task"),
    tabs: readList(f["tabs"], path + ".tabs", decodeReconcileTab)
  };
}
function decodeReconcileParams(v, path = "params") {
  const f = readObject(v, path);
  return {
    tasks: readList(f["tasks"], path + ".tasks", decodeReconcileTask)
  };
}
function decodeOriginEntry(v, path = "params") {
  const f = readObject(v, path);
  return {
    scheme: readEnum(f["scheme"], path + ".scheme", OriginSchemeValues),
    host: readString(f["host"], path + ".host"),
    subdomains: readBool(f["subdomains"], path + ".subdomains"),
    port: readInt(f["port"], path + ".port")
  };
}
function decodeOriginPolicy(v, path = "params") {
  const f = readObject(v, path);
  return {
    allowed: readList(f["allowed"], path + ".allowed", decodeOriginEntry),
    denied: readList(f["denied"], path + ".denied", decodeOriginEntry)
  };
}
function decodeExtSnapshotParams(v, path = "params") {
  const f = readObject(v, path);
  return {
    task_id: readString(f["task_id"], path + ".task_id"),
    tab_id: readInt(f["tab_id"], path + ".tab_id"),
    mode: readEnum(f["mode"], path + ".mode", SnapshotModeValues),
    capture_chars: readInt(f["capture_chars"], path + ".capture_chars"),
    screenshot: readEnum(f["screenshot"], path + ".screenshot", ScreenshotKindValues)
  };
}
function decodeStep(v, path = "params") {
  const f = readObject(v, path);
  const out = {
    kind: readEnum(f["kind"], path + ".kind", StepKindValues)
  };
  if (has(f["ref"])) out.ref = readString(f["ref"], path + ".ref");
  if (has(f["text"])) out.text = readString(f["text"], path + ".text");
  if (has(f["keys"])) out.keys = readString(f["keys"], path + ".keys");
  if (has(f["values"])) out.values = readList(f["values"], path + ".values", readString);
  if (has(f["url"])) out.url = readString(f["url"], path + ".url");
  if (has(f["to_ref"])) out.to_ref = readString(f["to_ref"], path + ".to_ref");
  if (has(f["position"])) out.position = readEnum(f["position"], path + ".position", DropPositionValues);
  if (has(f["delta_x"])) out.delta_x = readInt(f["delta_x"], path + ".delta_x");
  if (has(f["delta_y"])) out.delta_y = readInt(f["delta_y"], path + ".delta_y");
  if (has(f["accept"])) out.accept = readBool(f["accept"], path + ".accept");
  if (has(f["prompt_text"])) out.prompt_text = readString(f["prompt_text"], path + ".prompt_text");
  if (has(f["wait"])) out.wait = decodeWaitCondition(f["wait"], path + ".wait");
  if (has(f["path"])) out.path = readString(f["path"], path + ".path");
  return out;
}
function decodeExtActParams(v, path = "params") {
  const f = readObject(v, path);
  const out = {
    task_id: readString(f["task_id"], path + ".task_id"),
    tab_id: readInt(f["tab_id"], path + ".tab_id"),
    expected_page_revision: readInt(f["expected_page_revision"], path + ".expected_page_revision"),
    actions: readList(f["actions"], path + ".actions", decodeStep)
  };
  if (has(f["actionable_timeout_ms"])) out.actionable_timeout_ms = readInt(f["actionable_timeout_ms"], path + ".actionable_timeout_ms");
  return out;
}
function decodeWaitCondition(v, path = "params") {
  const f = readObject(v, path);
  const out = {
    until: readEnum(f["until"], path + ".until", WaitUntilValues)
  };
  if (has(f["url"])) out.url = readString(f["url"], path + ".url");
  if (has(f["text"])) out.text = readString(f["text"], path + ".text");
  if (has(f["gone"])) out.gone = readBool(f["gone"], path + ".gone");
  if (has(f["ref"])) out.ref = readString(f["ref"], path + ".ref");
  if (has(f["state"])) out.state = readEnum(f["state"], path + ".state", WaitStateValues);
  if (has(f["idle_ms"])) out.idle_ms = readInt(f["idle_ms"], path + ".idle_ms");
  if (has(f["timeout_ms"])) out.timeout_ms = readInt(f["timeout_ms"], path + ".timeout_ms");
  return out;
}
function decodeExtWaitParams(v, path = "params") {
  const f = readObject(v, path);
  return {
    task_id: readString(f["task_id"], path + ".task_id"),
    tab_id: readInt(f["tab_id"], path + ".tab_id"),
    condition: decodeWaitCondition(f["condition"], path + ".condition")
  };
}
function decodeProfileParams(v, path = "params") {
  const f = readObject(v, path);
  const out = {
    op: readEnum(f["op"], path + ".op", ProfileOpValues)
  };
  if (has(f["query"])) out.query = readString(f["query"], path + ".query");
  if (has(f["id"])) out.id = readString(f["id"], path + ".id");
  if (has(f["parent_id"])) out.parent_id = readString(f["parent_id"], path + ".parent_id");
  if (has(f["index"])) out.index = readInt(f["index"], path + ".index");
  if (has(f["title"])) out.title = readString(f["title"], path + ".title");
  if (has(f["url"])) out.url = readString(f["url"], path + ".url");
  if (has(f["start_time_ms"])) out.start_time_ms = readInt(f["start_time_ms"], path + ".start_time_ms");
  if (has(f["end_time_ms"])) out.end_time_ms = readInt(f["end_time_ms"], path + ".end_time_ms");
  if (has(f["max_results"])) out.max_results = readInt(f["max_results"], path + ".max_results");
  if (has(f["idempotency_key"])) out.idempotency_key = readString(f["idempotency_key"], path + ".idempotency_key");
  return out;
}
function decodeExtProfileParams(v, path = "params") {
  const f = readObject(v, path);
  const out = {
    task: decodeTaskLook(f["task"], path + ".task"),
    params: decodeProfileParams(f["params"], path + ".params")
  };
  if (has(f["commit"])) out.commit = decodeExtProfileCommit(f["commit"], path + ".commit");
  return out;
}
function decodeExtProfileCommit(v, path = "params") {
  const f = readObject(v, path);
  return {
    review_handle_digest: readString(f["review_handle_digest"], path + ".review_handle_digest"),
    fingerprint: readString(f["fingerprint"], path + ".fingerprint")
  };
}
var NativeParamsDecoders = {
  reconcile: decodeReconcileParams,
  adopt: decodeExtAdoptParams,
  pausing: () => ({}),
  pause: () => ({}),
  unpause: () => ({}),
  open: decodeExtOpenParams,
  tabs: decodeExtTabsParams,
  finish: decodeExtFinishParams,
  snapshot: decodeExtSnapshotParams,
  act: decodeExtActParams,
  wait: decodeExtWaitParams,
  ping: () => ({}),
  commit: decodeExtCommitParams,
  handoff: decodeExtHandoffParams,
  credential_fill: decodeExtCredentialFillParams,
  developer: decodeExtDeveloperParams,
  profile: decodeExtProfileParams
};

// src/chrome/profile.ts
function realProfile() {
  return {
    bookmarks: {
      search: async (query) => (await chrome.bookmarks.search(query)).map(toNode),
      getTree: async () => (await chrome.bookmarks.getTree()).map(toNode),
      getSubTree: (id) => ifBookmarkExists(async () => {
        const [node] = await chrome.bookmarks.getSubTree(id);
        return node === void 0 ? void 0 : toNode(node);
      }),
      get: (id) => ifBookmarkExists(async () => {
        const [node] = await chrome.bookmarks.get(id);
        return node === void 0 ? void 0 : toNode(node);
      }),
      create: async (props) => toNode(await chrome.bookmarks.create(props)),
      update: async (id, changes) => toNode(await chrome.bookmarks.update(id, changes)),
      move: async (id, destination2) => toNode(await chrome.bookmarks.move(id, destination2)),
      remove: (id) => chrome.bookmarks.remove(id)
    },
    history: {
      search: async (q) => (await chrome.history.search(q)).map((h) => ({ id: h.id, url: h.url, title: h.title, lastVisitTime: h.lastVisitTime, visitCount: h.visitCount }))
    },
    sessions: {
      getRecentlyClosed: async (maxResults) => (await chrome.sessions.getRecentlyClosed({ maxResults })).map(toSession),
      getDevices: async () => (await chrome.sessions.getDevices()).map((d) => ({ deviceName: d.deviceName, sessions: d.sessions.map(toSession) }))
    },
    downloads: {
      search: async (q) => (await chrome.downloads.search({ ...q, orderBy: ["-startTime"] })).map(toDownload),
      cancel: (id) => chrome.downloads.cancel(id),
      pause: (id) => chrome.downloads.pause(id),
      resume: (id) => chrome.downloads.resume(id)
    }
  };
}
function toNode(n) {
  return {
    id: n.id,
    parentId: n.parentId,
    index: n.index,
    title: n.title,
    url: n.url,
    dateAdded: n.dateAdded,
    unmodifiable: n.unmodifiable === "managed" ? "managed" : void 0,
    children: n.children?.map(toNode)
  };
}
function toTab(t) {
  return { sessionId: t.sessionId, url: t.url, title: t.title };
}
function toSession(s) {
  return {
    lastModified: s.lastModified,
    tab: s.tab === void 0 ? void 0 : toTab(s.tab),
    window: s.window === void 0 ? void 0 : { sessionId: s.window.sessionId, tabs: s.window.tabs?.map(toTab) }
  };
}
function toDownload(d) {
  return {
    id: d.id,
    url: d.url,
    finalUrl: d.finalUrl,
    filename: d.filename,
    state: d.state,
    paused: d.paused,
    canResume: d.canResume,
    bytesReceived: d.bytesReceived,
    totalBytes: d.totalBytes,
    startTime: d.startTime,
    error: d.error
  };
}
async function ifBookmarkExists(f) {
  try {
    return await f();
  } catch (e) {
    if ((e instanceof Error ? e.message : String(e)).startsWith("Can't find bookmark")) return void 0;
    throw e;
  }
}

// src/chrome/real.ts
function realChrome() {
  return {
    runtime: {
      id: chrome.runtime.id,
      version: chrome.runtime.getManifest().version,
      popupUrl: chrome.runtime.getURL(chrome.runtime.getManifest().action?.default_popup ?? ""),
      sendMessage: (message) => chrome.runtime.sendMessage(message),
      onMessage: (handler) => chrome.runtime.onMessage.addListener(answer(handler)),
      onStartup: listen(chrome.runtime.onStartup, (l) => () => l())
    },
    nativePort: (name) => nativePort(chrome.runtime.connectNative(name)),
    tabs: {
      create: async (props) => toTab2(await chrome.tabs.create(props)),
      get: (tabId) => ifTabExists(async () => toTab2(await chrome.tabs.get(tabId))),
      activeIn: async (windowId) => {
        const [tab] = await chrome.tabs.query({ active: true, windowId });
        return tab === void 0 ? void 0 : toTab2(tab);
      },
      inGroup: async (groupId) => (await chrome.tabs.query({ groupId })).map(toTab2),
      remove: async (tabId) => await ifTabExists(async () => {
        await chrome.tabs.remove(tabId);
        return true;
      }) ?? false,
      group: (options) => {
        const [first, ...rest] = options.tabIds;
        if (first === void 0) return Promise.reject(new Error("tabs.group needs at least one tab"));
        const tabIds = [first, ...rest];
        return "groupId" in options ? chrome.tabs.group({ tabIds, groupId: options.groupId }) : chrome.tabs.group({ tabIds, createProperties: options.createProperties });
      },
      ungroup: (tabId) => chrome.tabs.ungroup(tabId),
      onCreated: listen(chrome.tabs.onCreated, (l) => (tab) => {
        if (tab.id !== void 0) l(toTab2(tab));
      }),
      onUpdated: listen(chrome.tabs.onUpdated, (l) => (tabId, change, tab) => {
        l(tabId, { url: change.url, status: change.status, groupId: change.groupId }, toTab2(tab));
      }),
      onRemoved: listen(chrome.tabs.onRemoved, (l) => (tabId) => l(tabId)),
      onAttached: listen(chrome.tabs.onAttached, (l) => (tabId, info) => l(tabId, info.newWindowId)),
      navigate: async (tabId, url) => {
        await chrome.tabs.update(tabId, { url });
      },
      reload: (tabId) => chrome.tabs.reload(tabId),
      goBack: (tabId) => chrome.tabs.goBack(tabId),
      goForward: (tabId) => chrome.tabs.goForward(tabId)
    },
    tabGroups: {
      update: async (groupId, look) => {
        await chrome.tabGroups.update(groupId, { title: look.title, color: groupColor(look), collapsed: look.collapsed });
      },
      retitle: async (groupId, title) => {
        await chrome.tabGroups.update(groupId, { title });
      },
      get: async (groupId) => {
        try {
          const g = await chrome.tabGroups.get(groupId);
          return { title: g.title ?? "", color: g.color };
        } catch {
          return void 0;
        }
      }
    },
    windows: {
      create: async (props) => {
        const w = await chrome.windows.create(props);
        const tab = w?.tabs?.[0];
        if (w?.id === void 0 || tab === void 0) throw new Error("windows.create returned no window or no tab");
        return { id: w.id, tab: toTab2(tab) };
      },
      lastFocusedNormal: async () => {
        try {
          return (await chrome.windows.getLastFocused({ windowTypes: ["normal"] })).id;
        } catch (e) {
          if (errorText(e).startsWith("No last-focused window")) return void 0;
          throw e;
        }
      }
    },
    userView: {
      onActivated: listen(chrome.tabs.onActivated, (l) => (info) => l(info.tabId, info.windowId)),
      onFocusChanged: listen(chrome.windows.onFocusChanged, (l) => (windowId) => l(windowId)),
      activeTabs: async () => (await chrome.tabs.query({ active: true })).flatMap((t) => t.id === void 0 ? [] : [{ tabId: t.id, windowId: t.windowId }]),
      focusedWindow: async () => {
        try {
          const w = await chrome.windows.getLastFocused();
          return w.focused && w.id !== void 0 ? w.id : chrome.windows.WINDOW_ID_NONE;
        } catch {
          return chrome.windows.WINDOW_ID_NONE;
        }
      },
      giveTabBack: async (tabId) => {
        await chrome.tabs.update(tabId, { active: true });
      },
      giveFocusBack: async (windowId) => {
        await chrome.windows.update(windowId, { focused: true });
      },
      openForUser: async (tabId, windowId) => {
        await chrome.tabs.update(tabId, { active: true });
        await chrome.windows.update(windowId, { focused: true });
      }
    },
    storageSession: {
      get: async (key) => (await chrome.storage.session.get(key))[key],
      set: (key, value) => chrome.storage.session.set({ [key]: value })
    },
    storageLocal: {
      get: async (key) => (await chrome.storage.local.get(key))[key],
      set: (key, value) => chrome.storage.local.set({ [key]: value })
    },
    webNavigation: {
      onCommitted: listen(chrome.webNavigation.onCommitted, navigation),
      onHistoryStateUpdated: listen(chrome.webNavigation.onHistoryStateUpdated, navigation),
      onReferenceFragmentUpdated: listen(chrome.webNavigation.onReferenceFragmentUpdated, navigation),
      onBeforeNavigate: listen(chrome.webNavigation.onBeforeNavigate, navigation),
      onDOMContentLoaded: listen(chrome.webNavigation.onDOMContentLoaded, navigation),
      onCompleted: listen(chrome.webNavigation.onCompleted, navigation),
      onErrorOccurred: listen(
        chrome.webNavigation.onErrorOccurred,
        (l) => (d) => l({ tabId: d.tabId, frameId: d.frameId, url: d.url, error: d.error })
      ),
      onCreatedNavigationTarget: listen(chrome.webNavigation.onCreatedNavigationTarget, (l) => (d) => l({ sourceTabId: d.sourceTabId, tabId: d.tabId, url: d.url }))
    },
    debugger: {
      attach: (tabId) => chrome.debugger.attach({ tabId }, "1.3"),
      detach: (tabId) => chrome.debugger.detach({ tabId }),
      // Chrome answers a command without a result (e.g. Page.enable) with
      // undefined; callers read fields, so it becomes an empty object.
      send: async (target, method, params) => await chrome.debugger.sendCommand(debuggee(target), method, params) ?? {},
      onEvent: listen(chrome.debugger.onEvent, (l) => (source, method, params) => {
        if (source.tabId !== void 0) l({ tabId: source.tabId, sessionId: source.sessionId }, method, params ?? {});
      }),
      onDetach: listen(chrome.debugger.onDetach, (l) => (source, reason) => {
        if (source.tabId !== void 0) l(source.tabId, reason);
      })
    },
    scripting: {
      injectFile: async (tabId, file) => {
        await chrome.scripting.executeScript({ target: { tabId, frameIds: [0] }, files: [file], world: "ISOLATED" });
      },
      callAgent: async (tabId, name, args) => {
        const [r] = await chrome.scripting.executeScript({
          target: { tabId, frameIds: [0] },
          world: "ISOLATED",
          // Serialized into the page: self-contained, no imports. The name
          // is src/shared/page-agent.ts's PAGE_AGENT_GLOBAL.
          func: (fn, fnArgs) => {
            const agent = Reflect.get(globalThis, "__agenttab");
            if (typeof agent !== "object" || agent === null) return { missing: true, value: null };
            const f = Reflect.get(agent, fn);
            return { missing: false, value: typeof f === "function" ? Reflect.apply(f, agent, fnArgs) : null };
          },
          args: [name, args]
        });
        const out = r?.result ?? { missing: true, value: null };
        return { missing: out.missing, value: out.value, documentId: r?.documentId ?? "" };
      },
      stopLoading: async (tabId) => {
        await chrome.scripting.executeScript({ target: { tabId, frameIds: [0] }, world: "ISOLATED", func: () => window.stop() });
      },
      runMain: async (tabId, func, args) => {
        const [r] = await chrome.scripting.executeScript({ target: { tabId, frameIds: [0] }, world: "MAIN", func, args });
        return r?.result;
      }
    },
    permissions: {
      contains: (permission) => chrome.permissions.contains({ permissions: [permission] }),
      request: (permission) => chrome.permissions.request({ permissions: [permission] }),
      remove: (permission) => chrome.permissions.remove({ permissions: [permission] }),
      onRemoved: listen(chrome.permissions.onRemoved, (l) => (p) => l(p.permissions ?? []))
    },
    action: {
      setBadgeText: (text) => chrome.action.setBadgeText({ text })
    },
    idle: {
      queryState: (thresholdSeconds) => chrome.idle.queryState(thresholdSeconds)
    },
    profile: realProfile(),
    alarms: {
      create: (name, delayMinutes) => chrome.alarms.create(name, { delayInMinutes: delayMinutes }),
      clear: async (name) => {
        await chrome.alarms.clear(name);
      },
      onAlarm: listen(chrome.alarms.onAlarm, (l) => (alarm) => l(alarm.name))
    }
  };
}
function listen(event2, adapt) {
  return (listener) => {
    const wrapped = adapt(listener);
    event2.addListener(wrapped);
    return () => event2.removeListener(wrapped);
  };
}
function navigation(l) {
  return (d) => l({ tabId: d.tabId, frameId: d.frameId, url: d.url });
}
function debuggee(t) {
  return t.sessionId === void 0 ? { tabId: t.tabId } : { tabId: t.tabId, sessionId: t.sessionId };
}
function nativePort(port) {
  return {
    postMessage: (m) => port.postMessage(m),
    disconnect: () => port.disconnect(),
    onMessage: listen(port.onMessage, (l) => (m) => l(m)),
    // lastError must be read inside the listener: Chrome clears it after,
    // and logs "Unchecked runtime.lastError" when nobody reads it.
    onDisconnect: listen(port.onDisconnect, (l) => () => l(chrome.runtime.lastError?.message))
  };
}
function answer(handler) {
  return (message, sender, sendResponse) => {
    const reply = handler(message, { id: sender.id, url: sender.url, tabId: sender.tab?.id });
    if (reply === void 0) return false;
    reply.then(sendResponse, (e) => sendResponse({ error: errorText(e) }));
    return true;
  };
}
function toTab2(t) {
  if (t.id === void 0) throw new Error("Chrome reported a tab without an id");
  return { id: t.id, windowId: t.windowId, groupId: t.groupId, url: t.url, pendingUrl: t.pendingUrl, title: t.title, status: t.status, active: t.active, openerTabId: t.openerTabId };
}
async function ifTabExists(f) {
  try {
    return await f();
  } catch (e) {
    if (errorText(e).startsWith("No tab with id")) return void 0;
    throw e;
  }
}
var GROUP_COLORS = ["grey", "blue", "red", "yellow", "green", "pink", "purple", "cyan", "orange"];
function isGroupColor(c) {
  return GROUP_COLORS.includes(c);
}
function groupColor(look) {
  if (!isGroupColor(look.color)) throw new Error(`"${look.color}" is not a tab group colour`);
  return look.color;
}
function errorText(e) {
  return e instanceof Error ? e.message : String(e);
}

// src/background/random.ts
function randomHex(bytes) {
  return hex(crypto.getRandomValues(new Uint8Array(bytes)));
}
async function sha256Hex(text) {
  return hex(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text))));
}
async function hmacHex(key, text) {
  const enc = new TextEncoder();
  const k = await crypto.subtle.importKey("raw", enc.encode(key), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return hex(new Uint8Array(await crypto.subtle.sign("HMAC", k, enc.encode(text))));
}
function hex(b) {
  return Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
}

// src/background/tabs/shown-origin.ts
function shownOrigin(tab) {
  let u;
  try {
    u = new URL(tab.url || tab.pendingUrl || "");
  } catch {
    return "";
  }
  if (u.origin !== "null") return u.origin;
  return u.host === "" ? u.protocol : `${u.protocol}//${u.host}`;
}

// src/background/challenges/challenges.ts
var Challenges = class {
  constructor(clock) {
    this.clock = clock;
  }
  clock;
  tabs = /* @__PURE__ */ new Map();
  /**
   * Records a scan of the tab's top document (sightings: what the page
   * agent's challenges() found, most prominent first) and answers the
   * result's challenge member: the one shown (present, or solved when its
   * response field holds a token), or, once, the one that went (resolved,
   * with how); undefined when there is none.
   */
  observe(tabId, url, sightings, context, revision, noticeOpen) {
    const seen = sightings[0];
    const was = this.tabs.get(tabId);
    const now = this.clock.now();
    if (seen === void 0) {
      if (was === void 0) return void 0;
      this.tabs.delete(tabId);
      return member(was, "resolved", now, resolvedBy(was, revision, noticeOpen, context));
    }
    const same = was !== void 0 && was.sighting.vendor === seen.vendor && was.sighting.product === seen.product;
    const current = same && was !== void 0 ? { ...was, sighting: seen, origin: shownOrigin({ url }), revision } : { challengeId: randomHex(16), sighting: seen, origin: shownOrigin({ url }), firstSeen: now, revision };
    this.tabs.set(tabId, current);
    return member(current, seen.tokenPresent ? "solved" : "present", now);
  }
  /** Whether a challenge was last seen on the tab. */
  has(tabId) {
    return this.tabs.has(tabId);
  }
  /** The tab closed or left its task: its record goes. */
  forget(tabId) {
    this.tabs.delete(tabId);
  }
};
function resolvedBy(was, revision, noticeOpen, context) {
  if (noticeOpen) return "handoff";
  if (revision !== was.revision) return "navigation";
  return context === "wait" ? "wait" : "observed";
}
function member(c, state, now, resolvedBy2) {
  const s = c.sighting;
  return {
    challenge_id: c.challengeId,
    vendor: s.vendor,
    product: s.product,
    kind: s.kind,
    interaction: s.interaction,
    state,
    confidence: s.confidence,
    ...resolvedBy2 === void 0 ? {} : { resolved_by: resolvedBy2 },
    origin: c.origin,
    elapsed_ms: Math.max(0, now - c.firstSeen),
    token_present: s.tokenPresent
  };
}

// src/background/clock.ts
var realClock = {
  now: () => Date.now(),
  after(ms, f) {
    const timer = setTimeout(f, ms);
    return () => clearTimeout(timer);
  }
};

// src/background/log.ts
var consoleLog = {
  info: (m) => console.info(`AgentTab: ${m}`),
  warn: (m) => console.warn(`AgentTab: ${m}`)
};
function errorText2(e) {
  return e instanceof Error ? e.message : String(e);
}

// src/background/native/failure.ts
var Failure = class extends Error {
  detail;
  constructor(code, outcome, message, recovery) {
    super(`${code}: ${message}`);
    this.name = "Failure";
    this.detail = { code, message, recovery, outcome };
  }
};
function failure(code, message, outcome) {
  const entry = ErrorCatalogue[code];
  return new Failure(code, outcome ?? entry.outcome, message, entry.recovery);
}

// src/chrome/api.ts
var NO_WINDOW = -1;
var NO_GROUP = -1;

// src/background/pagework/route.ts
var RESTRICTED_SCHEMES = /* @__PURE__ */ new Set(["chrome:", "chrome-untrusted:", "chrome-extension:", "devtools:", "view-source:"]);
function routeOf(url) {
  let u;
  try {
    u = new URL(url);
  } catch {
    return RouteTabOnly;
  }
  if (RESTRICTED_SCHEMES.has(u.protocol)) return RouteTabOnly;
  if (u.protocol === "about:") return u.pathname === "blank" ? RouteFull : RouteTabOnly;
  if (isWebStore(u)) return RouteTabOnly;
  return RouteFull;
}
function isWebStore(u) {
  if (u.protocol !== "https:" && u.protocol !== "http:") return false;
  if (u.hostname === "chromewebstore.google.com") return true;
  return u.hostname === "chrome.google.com" && u.pathname.startsWith("/webstore");
}

// src/background/tabs/ext-tab.ts
function extTab(tab, revision) {
  const url = tab.url || tab.pendingUrl || "";
  return {
    tab_id: tab.id,
    window_id: tab.windowId,
    group_id: tab.groupId,
    url,
    title: tab.title ?? "",
    route: routeOf(url),
    revision,
    loading: tab.status === "loading"
  };
}
function lossReason(tab, groupId) {
  if (tab === void 0) return RevokeClosed;
  if (tab.groupId === groupId) return void 0;
  return tab.groupId === NO_GROUP ? RevokeUngrouped : RevokeMovedOut;
}

// src/background/origins/origins.ts
var NO_POLICY = { allowed: [], denied: [] };
function constrained(p) {
  return p.allowed.length > 0 || p.denied.length > 0;
}
function refusal(p, url) {
  if (isLocalFile(url)) return { code: CodeLocalFileDenied, reason: isFile(url) ? LocalFileNoRoots : LocalFileViewSource };
  if (!constrained(p)) return void 0;
  let u;
  try {
    u = new URL(url);
  } catch {
    return { code: CodeOriginPolicyUnverifiable, reason: `${JSON.stringify(url)} does not parse as a URL` };
  }
  const scheme = u.protocol.slice(0, -1);
  if (scheme === "view-source") return refusal(p, url.slice(url.indexOf(":") + 1));
  if (scheme !== "http" && scheme !== "https") {
    if (p.allowed.length === 0) return void 0;
    return { code: CodeOriginPolicyDenied, reason: `a ${scheme}: page cannot match origins.allowed, which names only http and https origins` };
  }
  const host = u.hostname.replace(/\.$/, "");
  const port = u.port === "" ? defaultPort(scheme) : Number(u.port);
  const origin = `${scheme}://${host}${port === defaultPort(scheme) ? "" : `:${port}`}`;
  const denied = p.denied.find((e) => matches(e, scheme, host, port));
  if (denied !== void 0) return { code: CodeOriginPolicyDenied, reason: `${origin} is denied by the origins.denied entry ${entryText(denied)}` };
  if (p.allowed.length === 0 || p.allowed.some((e) => matches(e, scheme, host, port))) return void 0;
  return { code: CodeOriginPolicyDenied, reason: `${origin} is not in origins.allowed` };
}
function isLocalFile(url) {
  let u;
  try {
    u = new URL(url);
  } catch {
    return /^[\s\u0000-\u001f]*file:/i.test(url);
  }
  if (u.protocol === "file:") return true;
  return u.protocol === "view-source:" && isLocalFile(u.href.slice(u.protocol.length));
}
function isFile(url) {
  try {
    return new URL(url).protocol === "file:";
  } catch {
    return false;
  }
}
function withoutFragment(url) {
  const i = url.indexOf("#");
  return i < 0 ? url : url.slice(0, i);
}
function isWeb(url) {
  return /^https?:/i.test(url);
}
function matches(e, scheme, host, port) {
  if (e.scheme !== scheme || e.port !== 0 && e.port !== port) return false;
  return host === e.host || e.subdomains && host.endsWith(`.${e.host}`);
}
function entryText(e) {
  return `${e.scheme}://${e.subdomains ? "*." : ""}${e.host}${e.port === 0 ? "" : `:${e.port}`}`;
}
function defaultPort(scheme) {
  return scheme === "https" ? 443 : 80;
}

// src/background/tabs/task-group.ts
async function joinTaskGroup(ctx2, look, tabId, windowId) {
  const existing = ctx2.ownership.groupIn(look.task_id, windowId);
  if (existing !== void 0) return ctx2.chrome.tabs.group({ groupId: existing, tabIds: [tabId] });
  const groupId = await ctx2.chrome.tabs.group({ tabIds: [tabId], createProperties: { windowId } });
  await ctx2.chrome.tabGroups.update(groupId, { title: groupTitle(look), color: look.color, collapsed: false });
  return groupId;
}
function groupTitle(look) {
  return look.developer === true ? look.label + DeveloperMarker : look.label;
}
async function markDeveloper(ctx2, taskId) {
  const record = ctx2.ownership.task(taskId);
  if (record === void 0) return;
  if (record.look.developer !== true) {
    record.look = { ...record.look, developer: true };
    await ctx2.ownership.persist();
  }
  const title = groupTitle(record.look);
  for (const groupId of taskGroups(record)) {
    const group2 = await ctx2.chrome.tabGroups.get(groupId);
    if (group2 === void 0 || group2.title === title || !await isTaskGroup(ctx2, record.look, groupId)) continue;
    await ctx2.chrome.tabGroups.retitle(groupId, title).catch((e) => ctx2.log.warn(`marking group ${groupId} of task ${taskId}: ${errorText2(e)}`));
  }
}
function taskGroups(record) {
  return new Set([...record.tabs.values()].map((t) => t.groupId));
}
async function isTaskGroup(ctx2, look, groupId) {
  const group2 = await ctx2.chrome.tabGroups.get(groupId);
  const titled = group2?.title === look.label || group2?.title === look.label + DeveloperMarker;
  return group2 !== void 0 && titled && group2.color === look.color;
}
async function releaseStrays(ctx2, record) {
  for (const groupId of taskGroups(record)) {
    if (await ctx2.chrome.tabGroups.get(groupId) === void 0) continue;
    if (!await isTaskGroup(ctx2, record.look, groupId)) {
      ctx2.log.warn(`group ${groupId} does not look like task ${record.look.task_id}'s: its other tabs are left alone`);
      continue;
    }
    for (const tab of await ctx2.chrome.tabs.inGroup(groupId)) {
      if (ctx2.ownership.owner(tab.id) !== void 0) continue;
      await ctx2.chrome.tabs.ungroup(tab.id).catch((e) => ctx2.log.warn(`ungroup ${tab.id} from task group ${groupId}: ${errorText2(e)}`));
    }
  }
}

// src/background/when-ready.ts
function whenReady(ready2, log, what, work) {
  void ready2.then(work).catch((e) => log.warn(`${what}: ${errorText2(e)}`));
}

// src/background/tabs/children.ts
var SETTLE_MS = 3e3;
var ChildWatch = class {
  constructor(stopWatching) {
    this.stopWatching = stopWatching;
  }
  stopWatching;
  reports = [];
  pending = /* @__PURE__ */ new Set();
  /** Stops watching once the popups being taken in are settled (bounded); answers them. */
  async stop(clock) {
    if (this.pending.size > 0) {
      let cancel = () => void 0;
      const timeout = new Promise((resolve) => cancel = clock.after(SETTLE_MS, resolve));
      await Promise.race([Promise.allSettled([...this.pending]), timeout]);
      cancel();
    }
    this.stopWatching();
    return this.reports;
  }
};
var Children = class {
  /**
   * focus gives back the user's tab and window when Chrome activates a
   * child, or focuses its window, for a task (focus-guard.ts); unit tests
   * may leave it out.
   */
  constructor(log, focus2) {
    this.log = log;
    this.focus = focus2;
  }
  log;
  focus;
  watches = /* @__PURE__ */ new Map();
  /** Children already handled, so that Chrome's two reports take a tab in once. */
  seen = /* @__PURE__ */ new Set();
  watch(openerId) {
    const set = this.watches.get(openerId) ?? /* @__PURE__ */ new Set();
    this.watches.set(openerId, set);
    const w = new ChildWatch(() => {
      set.delete(w);
      if (set.size === 0) this.watches.delete(openerId);
    });
    set.add(w);
    return w;
  }
  /** Runs the taking-in of a popup of opener, and hands its report to the steps watching. */
  track(openerId, work) {
    const watching = [...this.watches.get(openerId) ?? []];
    const done = work.then(
      (r) => {
        if (r === void 0) return;
        for (const w of watching) w.reports.push(r);
      },
      (e) => this.log.warn(`a popup of tab ${openerId}: ${errorText2(e)}`)
    );
    for (const w of watching) {
      w.pending.add(done);
      void done.then(() => w.pending.delete(done));
    }
  }
  /** true the first time a child tab is reported. */
  first(childId) {
    if (this.seen.has(childId)) return false;
    this.seen.add(childId);
    return true;
  }
  forget(tabId) {
    this.seen.delete(tabId);
  }
};
function notOwned(tabId, url, why) {
  const f = failure(CodeChildNotOwned, `the page opened ${url || "a tab"}, but ${why}; it stays open and belongs to the user`);
  return { tab_id: tabId, url, owned: false, error: f.detail };
}
async function own(ctx2, look, openerId, tabId, groupId, made) {
  const tab = await ctx2.chrome.tabs.get(tabId);
  if (tab === void 0) return notOwned(tabId, "", "it was closed before it could be taken into the task");
  const url = tab.url || tab.pendingUrl || "";
  if (ctx2.ownership.task(look.task_id) === void 0) {
    if (made) await ctx2.chrome.tabs.remove(tabId).catch((e) => ctx2.log.warn(`closing popup ${tabId} of a finished task: ${errorText2(e)}`));
    else if (tab.groupId === groupId) await ctx2.chrome.tabs.ungroup(tabId).catch((e) => ctx2.log.warn(`ungroup ${tabId} of a finished task: ${errorText2(e)}`));
    return notOwned(made ? -1 : tabId, url, made ? "its task ended while it was being opened, so it was closed again" : "its task ended while it was being taken in");
  }
  if (tab.groupId !== groupId) return notOwned(made ? -1 : tabId, url, "it left the task's group before it could be taken in");
  const owned = ctx2.ownership.add(look, tabId, groupId, tab.windowId, "child");
  await ctx2.ownership.persist();
  const notice = { task_id: look.task_id, opener_tab_id: openerId, tab: extTab(tab, owned.revision) };
  ctx2.notify(EventChild, notice);
  await ctx2.origins.arm(tabId);
  return { tab_id: tabId, url: notice.tab.url, owned: true };
}
async function takeChild(ctx2, openerId, childId, url) {
  const owner = ctx2.ownership.owner(openerId);
  const look = owner === void 0 ? void 0 : ctx2.ownership.task(owner.taskId)?.look;
  if (look === void 0 || ctx2.ownership.owner(childId) !== void 0) return void 0;
  const child = await ctx2.chrome.tabs.get(childId);
  if (child === void 0) return void 0;
  const target = child.pendingUrl || child.url || url;
  const refused2 = isWeb(target) || isLocalFile(target) ? ctx2.origins.refused(target, OutcomeDispatched) : void 0;
  if (refused2 !== void 0) {
    return { tab_id: childId, url: target, owned: false, error: { ...refused2.detail, message: `the page opened ${target}, but ${refused2.detail.message}; the tab stays open and belongs to the user` } };
  }
  let groupId;
  try {
    groupId = await joinTaskGroup(ctx2, look, childId, child.windowId);
  } catch (e) {
    return notOwned(childId, url, `Chrome could not put it in the task's group (${errorText2(e)})`);
  }
  return own(ctx2, look, openerId, childId, groupId, false);
}
async function openChild(ctx2, openerId, url) {
  const owner = ctx2.ownership.owner(openerId);
  const look = owner === void 0 ? void 0 : ctx2.ownership.task(owner.taskId)?.look;
  if (owner === void 0 || look === void 0) return void 0;
  const refused2 = isWeb(url) || isLocalFile(url) ? ctx2.origins.refused(url) : void 0;
  if (refused2 !== void 0) return { tab_id: -1, url, owned: false, error: { ...refused2.detail, message: `the page asked to open ${url}, which was not opened: ${refused2.detail.message}` } };
  if (!isWeb(url)) return notOwned(-1, url, "AgentTab opens only http and https popups");
  const tab = await ctx2.chrome.tabs.create({ url, windowId: owner.tab.windowId, active: false });
  let groupId;
  try {
    groupId = await joinTaskGroup(ctx2, look, tab.id, tab.windowId);
  } catch (e) {
    await ctx2.chrome.tabs.remove(tab.id).catch(() => void 0);
    return notOwned(-1, url, `Chrome could not put it in the task's group (${errorText2(e)}), so it was closed again`);
  }
  return own(ctx2, look, openerId, tab.id, groupId, true);
}
function watchChildren(ctx2, ready2) {
  const { chrome: api2, log, children } = ctx2;
  const reported = (openerId, childId, url) => {
    whenReady(ready2, log, "a child tab", async () => {
      if (ctx2.ownership.owner(openerId) === void 0 || !children.first(childId)) return;
      children.track(openerId, takeChild(ctx2, openerId, childId, url));
      const child = await api2.tabs.get(childId);
      if (child !== void 0) children.focus?.child(childId, child.windowId);
    });
  };
  api2.tabs.onCreated((tab) => {
    if (tab.openerTabId !== void 0) reported(tab.openerTabId, tab.id, tab.pendingUrl || tab.url || "");
  });
  api2.webNavigation.onCreatedNavigationTarget((d) => reported(d.sourceTabId, d.tabId, d.url));
  api2.tabs.onRemoved((tabId) => children.forget(tabId));
}

// src/background/bounded.ts
var SCRIPT_CALL_MS = 1e4;
function bounded(clock, ms, timedOut, f) {
  return new Promise((resolve, reject) => {
    const cancel = clock.after(ms, () => reject(timedOut()));
    f().then(
      (v) => {
        cancel();
        resolve(v);
      },
      (e) => {
        cancel();
        reject(e instanceof Error ? e : new Error(String(e)));
      }
    );
  });
}
function pageBusy(what, outcome) {
  return new Failure(
    CodeChromeError,
    outcome,
    `the page did not answer ${what} within ${SCRIPT_CALL_MS / 1e3} s (its main thread is busy, or a JavaScript dialog holds it: without the debugger AgentTab cannot see or answer dialogs)`,
    "Ask the user to answer any dialog on the tab, then take a new browser_snapshot."
  );
}

// src/background/fields.ts
function isFields(v) {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

// src/background/cdp/read.ts
var ProtocolShapeError = class extends Error {
  constructor(what) {
    super(`Chrome answered without ${what}`);
    this.name = "ProtocolShapeError";
  }
};
function fieldsOf(v, what) {
  if (!isFields(v)) throw new ProtocolShapeError(what);
  return v;
}
function strField(f, key, what) {
  const v = f[key];
  if (typeof v !== "string") throw new ProtocolShapeError(`${what}.${key}`);
  return v;
}
function numField(f, key, what) {
  const v = f[key];
  if (typeof v !== "number" || !Number.isFinite(v)) throw new ProtocolShapeError(`${what}.${key}`);
  return v;
}
function optStr(f, key) {
  const v = f[key];
  return typeof v === "string" ? v : void 0;
}

// src/background/act/open-trap.ts
var MAX_POPUPS = 4;
var TRAP_LIFETIME_MS = 15e3;
function installOpenTrap(lifetime2, key) {
  const doc = document;
  const w = window;
  let original = w.open;
  const browsers = (f) => typeof f === "function" && /\{\s*\[native code\]\s*\}\s*$/.test(Function.prototype.toString.call(f));
  let until = 0;
  let timer;
  let requests = [];
  const abs = (u) => {
    try {
      return new URL(String(u), doc.baseURI).href;
    } catch {
      return String(u);
    }
  };
  const sameTab = (target) => {
    const t = String(target || "").toLowerCase();
    return t === "" || t === "_self" || t === "_parent" || t === "_top";
  };
  const standIn = (r) => {
    const loc = {
      get href() {
        return r.url;
      },
      set href(u) {
        r.url = abs(u);
      },
      assign(u) {
        r.url = abs(u);
      },
      replace(u) {
        r.url = abs(u);
      },
      toString() {
        return r.url;
      }
    };
    return {
      get location() {
        return loc;
      },
      set location(u) {
        r.url = abs(u);
      },
      get closed() {
        return r.closed;
      },
      close() {
        r.closed = true;
      },
      focus() {
      },
      blur() {
      },
      postMessage() {
      },
      opener: null
    };
  };
  const onClick = (e) => {
    if (e.defaultPrevented || Date.now() > until || e.button !== 0) return;
    const a = e.composedPath().find((n) => n instanceof HTMLAnchorElement || n instanceof HTMLAreaElement);
    if (a === void 0 || !a.hasAttribute("href") || sameTab(a.target) || a.hasAttribute("download")) return;
    e.preventDefault();
    requests.push({ url: a.href, closed: false });
  };
  const restore = () => {
    if (w.open === trap) w.open = original;
    w.removeEventListener("click", onClick);
  };
  const trap = {
    open(url, target, features) {
      if (Date.now() > until) {
        restore();
        return Reflect.apply(original, this, [url, target, features]);
      }
      if (target !== void 0 && target !== "" && sameTab(target)) return Reflect.apply(original, this, [url, target, features]);
      const r = { url: url === void 0 || url === "" ? "about:blank" : abs(url), closed: false };
      requests.push(r);
      return standIn(r);
    }
  }.open;
  const controller = {
    /** Sets the trap for one gesture; gone after ms even if nobody collects it (the worker stopped, a dialog held the page). */
    arm(ms) {
      requests = [];
      until = Date.now() + ms;
      if (w.open !== trap && browsers(w.open)) {
        original = w.open;
        w.open = trap;
      }
      w.removeEventListener("click", onClick);
      w.addEventListener("click", onClick);
      if (timer !== void 0) clearTimeout(timer);
      timer = setTimeout(() => {
        restore();
        if (typeof key === "string") Reflect.deleteProperty(w, key);
      }, ms);
      return true;
    },
    collect() {
      restore();
      until = 0;
      if (timer !== void 0) clearTimeout(timer);
      timer = void 0;
      const answer3 = requests.filter((r) => !r.closed).map((r) => ({ url: r.url }));
      requests = [];
      return answer3;
    }
  };
  if (typeof key !== "string") return controller;
  controller.arm(lifetime2);
  Object.defineProperty(w, key, { value: controller, configurable: true, enumerable: false });
  return true;
}
function collectOpenTrap(key) {
  const controller = Reflect.get(window, key);
  Reflect.deleteProperty(window, key);
  const collect = typeof controller === "object" && controller !== null ? Reflect.get(controller, "collect") : void 0;
  return typeof collect === "function" ? Reflect.apply(collect, controller, []) : [];
}
var ARM = `function (ms) { return this.arm(ms); }`;
var COLLECT = `function () { return this.collect(); }`;
var controllers = /* @__PURE__ */ new WeakMap();
async function installTrap(page, frame) {
  const sessionId = frame.sessionId;
  const send = (method, params) => page.session.send(method, params, { sessionId });
  let byFrame = controllers.get(page.tab);
  if (byFrame === void 0) {
    byFrame = /* @__PURE__ */ new Map();
    controllers.set(page.tab, byFrame);
  }
  const key = `${sessionId ?? ""}|${frame.doc.frameId}`;
  const arm = (objectId2) => send("Runtime.callFunctionOn", { functionDeclaration: ARM, objectId: objectId2, arguments: [{ value: TRAP_LIFETIME_MS }], returnByValue: true });
  const kept = byFrame.get(key);
  let controller;
  if (kept !== void 0 && kept.loaderId === frame.doc.loaderId) {
    const armed = await arm(kept.objectId).then(
      (r) => r["exceptionDetails"] === void 0,
      () => false
    );
    if (armed) controller = kept.objectId;
  }
  if (controller === void 0) {
    byFrame.delete(key);
    controller = await installController(page, frame);
    byFrame.set(key, { loaderId: frame.doc.loaderId, objectId: controller });
    if ((await arm(controller))["exceptionDetails"] !== void 0) throw new Error("the window.open trap did not arm");
  }
  const objectId = controller;
  return {
    async collect() {
      const r = await send("Runtime.callFunctionOn", { functionDeclaration: COLLECT, objectId, returnByValue: true });
      const value = fieldsOf(r["result"], "the trap's requests")["value"];
      return requestsIn(value);
    }
  };
}
async function installController(page, frame) {
  const sessionId = frame.sessionId;
  const send = (method, params) => page.session.send(method, params, { sessionId });
  const contextId = await page.tab.worlds.context(page.session, frame);
  const isolated = fieldsOf((await send("Runtime.evaluate", { expression: "document", contextId }))["result"], "document");
  const isolatedId = optStr(isolated, "objectId");
  const node = fieldsOf((await send("DOM.describeNode", { objectId: isolatedId }))["node"], "DOM.describeNode.node");
  send("Runtime.releaseObject", { objectId: isolatedId }).catch(() => void 0);
  const main = fieldsOf((await send("DOM.resolveNode", { backendNodeId: numField(node, "backendNodeId", "node") }))["object"], "DOM.resolveNode.object");
  const mainId = optStr(main, "objectId");
  const installed = await send("Runtime.callFunctionOn", { functionDeclaration: installOpenTrap.toString(), objectId: mainId, arguments: [{ value: TRAP_LIFETIME_MS }] });
  send("Runtime.releaseObject", { objectId: mainId }).catch(() => void 0);
  const controller = optStr(fieldsOf(installed["result"], "the trap"), "objectId");
  if (controller === void 0) throw new Error("the window.open trap did not install");
  return controller;
}
async function installScriptedTrap(api2, clock, tabId) {
  const key = `__agenttab_trap_${crypto.randomUUID().replaceAll("-", "")}`;
  const run2 = (what, f) => bounded(clock, SCRIPT_CALL_MS, () => pageBusy(what, OutcomeNotStarted), f);
  await run2("the window.open trap's installation", () => api2.scripting.runMain(tabId, installOpenTrap, [TRAP_LIFETIME_MS, key]));
  return { collect: async () => requestsIn(await run2("the window.open trap's collection", () => api2.scripting.runMain(tabId, collectOpenTrap, [key]))) };
}
function requestsIn(value) {
  return Array.isArray(value) ? value.filter(isRequest) : [];
}
function isRequest(v) {
  return typeof v === "object" && v !== null && typeof v.url === "string";
}
function trapError(e) {
  return `window.open trap: ${errorText2(e)}`;
}

// src/background/act/child-gesture.ts
async function trapped(ctx2, tabId, install, check, gesture2, required = false) {
  const arming = install().catch((e) => {
    if (required) throw new Failure(CodeChromeError, OutcomeNotStarted, `${trapError(e)}; the gesture was not dispatched`, "Take a new browser_snapshot and retry.");
    ctx2.log.warn(trapError(e));
    return void 0;
  });
  arming.catch(() => void 0);
  try {
    const checked = await check();
    const trap = await arming;
    const windowId = ctx2.ownership.owner(tabId)?.tab.windowId;
    const released = windowId === void 0 ? void 0 : ctx2.children.focus?.gesture(windowId);
    try {
      return await gesture2(checked, trap !== void 0);
    } finally {
      released?.();
    }
  } finally {
    const trap = await arming.catch(() => void 0);
    const requests = await trap?.collect().catch(() => []) ?? [];
    requests.forEach((r, i) => {
      const work = i < MAX_POPUPS ? openChild(ctx2, tabId, r.url) : Promise.resolve(notOwned(-1, r.url, `one gesture opens at most ${MAX_POPUPS} popups`));
      ctx2.children.track(tabId, work);
    });
  }
}

// src/background/agent-client/errors.ts
var FrameGone = class extends Error {
  constructor(what) {
    super(`the frame's document is gone: ${what}`);
    this.name = "FrameGone";
  }
};
var AgentError = class extends Error {
  constructor(message) {
    super(message);
    this.name = "AgentError";
  }
};
var AgentAnswerError = class extends AgentError {
  constructor(method, what) {
    super(`the page agent's ${method} answered off its contract: ${what}`);
    this.name = "AgentAnswerError";
  }
};

// src/background/act/pointer.ts
var SHOWN_LOOK_MS = 20;
var BACKGROUND_LOOK_MS = 10;
var STILL_PX = 1;
function sleep(clock, ms) {
  return new Promise((resolve) => clock.after(ms, resolve));
}
var REASONS = {
  detached: "no longer in the page",
  hidden: "hidden",
  transparent: "transparent (opacity 0)",
  disabled: "disabled",
  not_editable: "not editable",
  no_box: "not showing any part of itself (outside the viewport, or clipped by a box around it, such as a panel still opening)",
  re_aimed: "aimed at another page than when it was checked"
};
function notActionable(ref2, info, reason = info.reason ?? "no_box") {
  return failure(CodeTargetNotActionable, `${info.description || ref2} is ${REASONS[reason] ?? reason}: ${reason}`);
}
function covered(ref2, info, hit) {
  return failure(CodeTargetCovered, `${info.description || ref2} is covered by ${hit.covering ?? "another element"}`);
}
function moved(a, b) {
  return Math.abs(a.x - b.x) > STILL_PX || Math.abs(a.y - b.y) > STILL_PX || Math.abs(a.width - b.width) > STILL_PX || Math.abs(a.height - b.height) > STILL_PX;
}
function judge(ref2, { first, second, hit }) {
  const refused2 = (info) => ({ ok: false, failure: notActionable(ref2, info), lasting: info.reason === "detached" || info.reason === "re_aimed" });
  if (!first.ok) return refused2(first);
  if (second === void 0) throw new Error("the page agent's aim answered no second look");
  if (!second.ok) return refused2(second);
  if (second.moving || moved(first, second)) {
    const why = second.moving ? "is being moved by a running animation" : "moved between two looks (the page is shifting)";
    return { ok: false, failure: failure(CodeTargetMoving, `${second.description || ref2} ${why}`), lasting: false };
  }
  if (hit === void 0) throw new Error("the page agent's aim answered no hit test");
  if (!hit.ok) return { ok: false, failure: covered(ref2, second, hit), lasting: false };
  return { ok: true, info: second };
}
async function aim(page, ref2, located, progress) {
  const { frame, index } = located ?? await page.locate(ref2);
  const agent = page.agent(frame);
  const shown2 = await page.shown();
  let verdict = judge(ref2, await agent.aim(ref2, { frame: shown2, ms: shown2 ? SHOWN_LOOK_MS : BACKGROUND_LOOK_MS }));
  if (!verdict.ok) verdict = await waitUntilActionable(page, agent, ref2, shown2, verdict, progress);
  if (!verdict.ok) throw verdict.failure;
  const info = verdict.info;
  const offset = await page.offset(frame, index);
  return { frame, index, info, x: info.x + offset.x, y: info.y + offset.y };
}
var WAIT_PAUSES_MS = [0, 20, 50];
var WAIT_PAUSE_MS = 100;
async function waitUntilActionable(page, agent, ref2, shown2, refused2, progress) {
  const patience = progress?.patience;
  if (refused2.lasting || progress === void 0 || patience === void 0 || progress.waitedMs >= patience.timeoutMs) return refused2;
  const { clock } = patience;
  const started = clock.now();
  const until = started + patience.timeoutMs - progress.waitedMs;
  const looks = async () => {
    let last = refused2;
    for (let n = 0; ; n++) {
      const left = until - clock.now();
      if (left <= 0) return last;
      await sleep(clock, Math.min(WAIT_PAUSES_MS[n] ?? WAIT_PAUSE_MS, left));
      const verdict = judge(ref2, await agent.aim(ref2, { frame: true, ms: SHOWN_LOOK_MS }));
      if (verdict.ok || verdict.lasting) return verdict;
      last = verdict;
    }
  };
  try {
    const verdict = shown2 ? await looks() : await pumpFrames(page, clock, looks);
    if (verdict.ok || verdict.lasting) return verdict;
    const d = verdict.failure.detail;
    return { ...verdict, failure: new Failure(d.code, d.outcome, `${d.message} (after waiting ${Math.round(clock.now() - started)} ms)`, d.recovery) };
  } finally {
    progress.waitedMs += clock.now() - started;
  }
}
async function mouse(page, progress, type, at, extra = {}) {
  progress.dispatched = true;
  await page.session.send("Input.dispatchMouseEvent", { type, x: at.x, y: at.y, pointerType: "mouse", ...extra });
}
async function click(page, clock, progress, at, count3, confirmed) {
  progress.dispatched = true;
  const move = page.session.send("Input.dispatchMouseEvent", { type: "mouseMoved", x: at.x, y: at.y, pointerType: "mouse", button: "none", buttons: 0 });
  move.catch(() => void 0);
  for (let n = 1; n <= count3; n++) {
    await mouse(page, progress, "mousePressed", at, { button: "left", buttons: 1, clickCount: n });
    await mouse(page, progress, "mouseReleased", at, { button: "left", buttons: 0, clickCount: n });
  }
  progress.inputEnded = clock.now();
  await move;
  if (!confirmed) await handled(page, at);
}
async function handled(page, at) {
  try {
    await page.agent(at.frame).knows("e0");
  } catch (e) {
    if (!(e instanceof FrameGone)) throw e;
  }
}
async function pumpFrames(page, clock, f, fresh = false) {
  const session = page.session;
  let drawn = () => void 0;
  const frame = new Promise((resolve) => drawn = resolve);
  const stop = session.on("Page.screencastFrame", (sessionId, p) => {
    if (sessionId !== void 0) return;
    drawn();
    session.send("Page.screencastFrameAck", { sessionId: p["sessionId"] }).catch(() => void 0);
  });
  try {
    await session.send("Page.startScreencast", { format: "jpeg", quality: 1, maxWidth: 8, maxHeight: 8 });
    if (fresh) await Promise.race([frame, sleep(clock, FRESH_FRAME_MS)]);
    return await f();
  } finally {
    stop();
    await session.send("Page.stopScreencast").catch(() => void 0);
  }
}
var FRESH_FRAME_MS = 500;
async function routedClick(page, clock, progress, at, count3, confirmed = false) {
  if (page.session.children.size === 0) return click(page, clock, progress, at, count3, confirmed);
  return pumpFrames(page, clock, () => click(page, clock, progress, at, count3, confirmed), true);
}

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

// src/background/act/key-guard.ts
function sensitiveField(what, outcome = OutcomeNotStarted, refuses = "sends no keys or text into it") {
  return failure(CodeSensitiveField, `${what} is a password, one-time-code or payment-card field; AgentTab ${refuses}`, outcome);
}
var MAY_HAVE_REACHED = "sent text that may have reached it: the page moved focus there as the text went in";
var ROUNDS = 3;
async function refuseSensitiveFocus(page, progress, refuses = "sends no keys or text into it", ask = {}) {
  let known = ask.index;
  for (let round = 1; ; round++) {
    const index = known ?? await page.frames();
    let found;
    try {
      found = await Promise.all(
        [...index.frames.values()].map(async (frame) => sensitiveFocus(page, index, frame, await (ask.answer?.(frame) ?? page.agent(frame).focusedField())))
      );
    } catch (e) {
      if (round === ROUNDS || !(e instanceof FrameGone) && known === void 0) throw e;
      known = void 0;
      continue;
    }
    const hit = found.find((f) => f !== void 0);
    if (hit !== void 0) throw refusal2(hit, progress.dispatched ? OutcomeDispatched : OutcomeNotStarted, refuses);
    return;
  }
}
function refusal2(found, outcome, refuses, where = "") {
  if (!found.unseen) return sensitiveField(found.what, outcome, refuses);
  return sensitiveField(`whatever ${found.what} shows${where} (a frame AgentTab cannot look into)`, outcome, `${refuses}, as it may be one`);
}
async function sensitiveFocus(page, index, frame, f) {
  if (f.sensitive) return { what: f.description || "the focused field", unseen: false };
  if (!f.sealed && !f.frame) return void 0;
  return withElement(page, frame, (elements) => elements.focusedElement(), async (objectId) => {
    if (f.sealed) return sealedSensitive(page, index, frame, objectId, f.description);
    const childId = await childFrameOf(page, frame, objectId);
    if (childId === void 0 || index.frames.has(childId)) return void 0;
    return { what: f.description || "the focused frame", unseen: true };
  });
}
async function childFrameOf(page, frame, objectId) {
  const owner = await page.session.send("DOM.describeNode", { objectId, depth: 0 }, { sessionId: frame.sessionId });
  return optStr(fieldsOf(owner["node"], "DOM.describeNode.node"), "frameId");
}
async function withElement(page, frame, pick2, f) {
  const objectId = await pick2(page.elements(frame));
  if (objectId === void 0) return void 0;
  try {
    return await f(objectId);
  } finally {
    page.session.send("Runtime.releaseObject", { objectId }, { sessionId: frame.sessionId }).catch(() => void 0);
  }
}
async function sealedSensitive(page, index, frame, objectId, description) {
  const sessionId = frame.sessionId;
  const describe = async (target, depth) => fieldsOf((await page.session.send("DOM.describeNode", { ...target, depth, pierce: true }, { sessionId }))["node"], "DOM.describeNode.node");
  const inside = description || "a closed shadow root";
  for (const root of shadowRoots(await describe({ objectId }, 1))) {
    const backendNodeId = root["backendNodeId"];
    if (root["shadowRootType"] !== "closed" || typeof backendNodeId !== "number") continue;
    const held = heldIn(await describe({ backendNodeId }, -1), index);
    if (held === "field") return { what: `a field inside ${inside}`, unseen: false };
    if (held === "frame") return { what: `a frame inside ${inside}`, unseen: true };
  }
  return void 0;
}
function shadowRoots(node) {
  const roots = node["shadowRoots"];
  return Array.isArray(roots) ? roots.map((r) => fieldsOf(r, "shadowRoots[]")) : [];
}
function heldIn(node, index) {
  const name = node["localName"];
  if (typeof name === "string" && appliesTo(name) && isSensitiveField(attributesOf(node))) return "field";
  const frameId = node["frameId"];
  if (typeof frameId === "string" && !index.frames.has(frameId)) return "frame";
  const children = node["children"];
  const kids = Array.isArray(children) ? children.map((c) => fieldsOf(c, "children[]")) : [];
  let held;
  for (const kid of [...kids, ...shadowRoots(node)]) {
    held = heldIn(kid, index);
    if (held === "field") return held;
  }
  return held;
}
function attributesOf(node) {
  const raw = node["attributes"];
  const list = Array.isArray(raw) ? raw : [];
  const get = (name) => {
    for (let i = 0; i + 1 < list.length; i += 2) {
      const key = list[i];
      const value = list[i + 1];
      if (typeof key === "string" && key.toLowerCase() === name && typeof value === "string") return value;
    }
    return "";
  };
  return { type: get("type"), autocomplete: get("autocomplete"), name: get("name"), id: get("id") };
}

// src/background/act/keys.ts
var ALT = 1;
var CONTROL = 2;
var META = 4;
var SHIFT = 8;
var MODIFIERS = {
  Alt: { def: { key: "Alt", code: "AltLeft", keyCode: 18, location: 1 }, bit: ALT },
  Control: { def: { key: "Control", code: "ControlLeft", keyCode: 17, location: 1 }, bit: CONTROL },
  Meta: { def: { key: "Meta", code: "MetaLeft", keyCode: 91, location: 1 }, bit: META },
  Shift: { def: { key: "Shift", code: "ShiftLeft", keyCode: 16, location: 1 }, bit: SHIFT }
};
function fKey(n) {
  return { key: `F${n}`, code: `F${n}`, keyCode: 111 + n };
}
var NAMED = {
  Enter: { key: "Enter", code: "Enter", keyCode: 13, text: "\r" },
  Tab: { key: "Tab", code: "Tab", keyCode: 9 },
  Escape: { key: "Escape", code: "Escape", keyCode: 27 },
  Backspace: { key: "Backspace", code: "Backspace", keyCode: 8 },
  Delete: { key: "Delete", code: "Delete", keyCode: 46 },
  Insert: { key: "Insert", code: "Insert", keyCode: 45 },
  Space: { key: " ", code: "Space", keyCode: 32, text: " " },
  ArrowUp: { key: "ArrowUp", code: "ArrowUp", keyCode: 38 },
  ArrowDown: { key: "ArrowDown", code: "ArrowDown", keyCode: 40 },
  ArrowLeft: { key: "ArrowLeft", code: "ArrowLeft", keyCode: 37 },
  ArrowRight: { key: "ArrowRight", code: "ArrowRight", keyCode: 39 },
  Home: { key: "Home", code: "Home", keyCode: 36 },
  End: { key: "End", code: "End", keyCode: 35 },
  PageUp: { key: "PageUp", code: "PageUp", keyCode: 33 },
  PageDown: { key: "PageDown", code: "PageDown", keyCode: 34 },
  CapsLock: { key: "CapsLock", code: "CapsLock", keyCode: 20 },
  ContextMenu: { key: "ContextMenu", code: "ContextMenu", keyCode: 93 },
  F1: fKey(1),
  F2: fKey(2),
  F3: fKey(3),
  F4: fKey(4),
  F5: fKey(5),
  F6: fKey(6),
  F7: fKey(7),
  F8: fKey(8),
  F9: fKey(9),
  F10: fKey(10),
  F11: fKey(11),
  F12: fKey(12)
};
var ALIASES = KeyAliases;
var PUNCTUATION = [
  ["`", "~", "Backquote", 192],
  ["-", "_", "Minus", 189],
  ["=", "+", "Equal", 187],
  ["[", "{", "BracketLeft", 219],
  ["]", "}", "BracketRight", 221],
  ["\\", "|", "Backslash", 220],
  [";", ":", "Semicolon", 186],
  ["'", '"', "Quote", 222],
  [",", "<", "Comma", 188],
  [".", ">", "Period", 190],
  ["/", "?", "Slash", 191]
];
var SHIFTED_DIGITS = ")!@#$%^&*(";
function charKey(c) {
  const lower = c.toLowerCase();
  if (lower.length === 1 && lower >= "a" && lower <= "z") {
    return { key: c, code: `Key${lower.toUpperCase()}`, keyCode: lower.toUpperCase().charCodeAt(0), text: c };
  }
  if (c >= "0" && c <= "9") return { key: c, code: `Digit${c}`, keyCode: 48 + Number(c), text: c };
  const shiftedDigit = SHIFTED_DIGITS.indexOf(c);
  if (shiftedDigit >= 0) return { key: c, code: `Digit${shiftedDigit}`, keyCode: 48 + shiftedDigit, text: c };
  for (const [plain, shifted2, code, keyCode] of PUNCTUATION) {
    if (c === plain || c === shifted2) return { key: c, code, keyCode, text: c };
  }
  return { key: c, code: "", keyCode: 0, text: c };
}
function lookup(table, name) {
  const canonical = (ALIASES[name.toLowerCase()] ?? name).toLowerCase();
  return Object.entries(table).find(([k]) => k.toLowerCase() === canonical)?.[1];
}
function namedKey(name) {
  return lookup(NAMED, name);
}
function parseChord(s) {
  if (s === "") return "keys is empty";
  const parts = s === "+" ? ["+"] : s.endsWith("++") ? [...s.slice(0, -2).split("+"), "+"] : s.split("+");
  const last = parts.pop();
  if (last === void 0 || last === "") return `${JSON.stringify(s)} does not end with a key`;
  const modifiers = [];
  let bits = 0;
  for (const part of parts) {
    const m = lookup(MODIFIERS, part);
    if (m === void 0) return `${JSON.stringify(part)} in ${JSON.stringify(s)} is not a modifier (Control, Shift, Alt, Meta)`;
    if ((bits & m.bit) !== 0) return `${JSON.stringify(s)} names ${m.def.key} twice`;
    bits |= m.bit;
    modifiers.push(m.def);
  }
  const asModifier = lookup(MODIFIERS, last);
  if (asModifier !== void 0) return { modifiers, bits, key: asModifier.def };
  const named = namedKey(last);
  if (named !== void 0) return { modifiers, bits, key: named };
  if ([...last].length === 1) return { modifiers, bits, key: charKey(last) };
  return `${JSON.stringify(last)} is not a key name (Enter, Tab, Escape, ArrowDown, F5, …) or a single character`;
}
function event(type, def, modifiers, text) {
  const e = { type, key: def.key, code: def.code, windowsVirtualKeyCode: def.keyCode, modifiers };
  if (text !== void 0) {
    e.text = text;
    e.unmodifiedText = text;
  }
  if (def.location !== void 0) e.location = def.location;
  return e;
}
function keyEvents(chord) {
  const out = [];
  let held = 0;
  for (const m of chord.modifiers) {
    held |= lookup(MODIFIERS, m.key)?.bit ?? 0;
    out.push(event("rawKeyDown", m, held));
  }
  const k = chord.key;
  const shortcut = (chord.bits & (CONTROL | ALT | META)) !== 0;
  let text = shortcut ? void 0 : k.text;
  if (text !== void 0 && (chord.bits & SHIFT) !== 0 && text.length === 1) text = text.toUpperCase();
  const key = text !== void 0 && k.text !== void 0 && k.text.length === 1 && k.key.length === 1 ? { ...k, key: text } : k;
  out.push(event("rawKeyDown", key, chord.bits));
  if (text !== void 0) out.push(event("char", key, chord.bits, text));
  out.push(event("keyUp", key, chord.bits));
  for (const m of [...chord.modifiers].reverse()) {
    held &= ~(lookup(MODIFIERS, m.key)?.bit ?? 0);
    out.push(event("keyUp", m, held));
  }
  return out;
}
function shifted(c) {
  return c >= "A" && c <= "Z" || SHIFTED_DIGITS.includes(c) || PUNCTUATION.some(([, s]) => s === c);
}
function typed(text, multiline) {
  const out = [];
  const put = (c) => {
    const last = out[out.length - 1];
    if (last !== void 0 && "text" in last) last.text += c;
    else out.push({ text: c });
  };
  for (const c of text.replace(/\r\n?/g, "\n")) {
    if (c === "\n") {
      if (multiline) out.push({ key: { modifiers: [], bits: 0, key: NAMED.Enter } });
      else put(c);
      continue;
    }
    const key = c === " " ? NAMED.Space : charKey(c);
    if (key.code === "") put(c);
    else out.push({ key: { modifiers: [], bits: shifted(c) ? SHIFT : 0, key } });
  }
  return out;
}
function gatedKeyEvents(chord) {
  const events = keyEvents(chord);
  const i = events.findIndex((e) => e.type === "char");
  const char = events[i];
  return char === void 0 ? events : [...events.slice(0, i - 1), { ...char, type: "keyDown" }, ...events.slice(i + 1)];
}

// src/background/act/key-press.ts
async function pressChord(page, progress, chord, ask = {}) {
  const events = keyEvents(chord);
  const down = /* @__PURE__ */ new Set();
  const id = (e) => `${e.code} ${e.key}`;
  for (const [i, e] of events.entries()) {
    if (e.type !== "keyUp") {
      try {
        await refuseSensitiveFocus(page, progress, void 0, ask);
      } catch (refused2) {
        for (const up of events.slice(i).filter((u) => u.type === "keyUp" && down.has(id(u)))) await page.session.send("Input.dispatchKeyEvent", up);
        throw refused2;
      }
    }
    progress.dispatched = true;
    await page.session.send("Input.dispatchKeyEvent", e);
    if (e.type === "rawKeyDown") down.add(id(e));
  }
}

// src/background/act/read-back.ts
var QUOTED_MAX = 80;
function core(s) {
  return s.normalize("NFC").toLowerCase().replace(/[^\p{L}\p{N}]/gu, "");
}
function readBack(asked, held) {
  if (held.value === void 0) return held.length === asked.length ? "unknown" : "different";
  if (held.value === asked) return "same";
  const want = core(asked);
  if (want !== core(held.value)) return "different";
  return want !== "" || held.value.trim() === asked.trim() ? "formatted" : "different";
}
function shown(held) {
  if (held.value === void 0) return `${held.length} character${held.length === 1 ? "" : "s"}`;
  const v = held.value.length <= QUOTED_MAX ? held.value : held.value.slice(0, QUOTED_MAX - 1) + "…";
  return JSON.stringify(v);
}
var FORMATS = {
  date: "yyyy-mm-dd (2010-05-20)",
  time: "hh:mm or hh:mm:ss on a 24-hour clock (13:45)",
  "datetime-local": "yyyy-mm-ddThh:mm (2010-05-20T13:45)",
  month: "yyyy-mm (2010-05)",
  week: "yyyy-Www (2010-W20)",
  color: "#rrggbb (#ff0000)",
  range: "a number within its min, max and step"
};
function notAccepted(what, held, picker, became) {
  const format = picker === void 0 ? "" : ` (a ${picker} field takes ${FORMATS[picker] ?? "its value format"}${became !== void 0 && became !== "" ? `; the browser made the value ${JSON.stringify(became)}` : ""})`;
  const why = picker === void 0 ? "; the page limits, reformats or rejects what it takes" : "";
  return failure(CodeValueNotAccepted, `${what} did not take the value${format}: it holds ${shown(held)}${why}`);
}

// src/background/act/type-keys.ts
var SEEN_GRACE_MS = 30;
var KEYS_AHEAD = 2;
var KeysCheck = class {
  seen;
  answered = false;
  checked;
  constructor(page, progress, located, count3, read2) {
    const agent = page.agent(located.frame);
    this.checked = refuseSensitiveFocus(page, progress, void 0, {
      index: located.index,
      answer: (frame) => inFrame(frame, located) ? agent.keysSeen(count3, read2).then((s) => {
        this.seen = s;
        return s.focused;
      }) : void 0
    });
    this.checked.then(
      () => this.answered = true,
      () => this.answered = true
    );
  }
  /** After the keys' commands were answered (acked): true when the field's frame answered too, within the grace. */
  async answeredAfter(acked, clock) {
    try {
      await acked;
    } catch (e) {
      await this.checked.catch(() => void 0);
      throw e;
    }
    let cancel = () => void 0;
    const grace = new Promise((resolve) => {
      cancel = clock.after(SEEN_GRACE_MS, () => resolve(false));
    });
    const answered = await Promise.race([this.checked.then(() => true, () => true), grace]);
    cancel();
    return answered;
  }
};
function inFrame(frame, located) {
  return frame.doc.frameId === located.frame.doc.frameId;
}
async function typeKeys(page, clock, progress, located, ref2, what, text, multiline) {
  const ask = { index: located.index };
  const parts = typed(text, multiline);
  const total = [...text.replace(/\r\n?/g, "\n")].length;
  let done = 0;
  let ups = 0;
  let slow = false;
  let last;
  const send = (e) => page.session.send("Input.dispatchKeyEvent", e);
  const run2 = async (keys, read2) => {
    const check = new KeysCheck(page, progress, located, ups + keys.length, read2);
    let sent = 0;
    const flying = [];
    for (const chord of keys) {
      if (flying.length >= KEYS_AHEAD) await flying.shift()?.catch(() => void 0);
      if (check.answered) break;
      progress.dispatched = true;
      flying.push(Promise.all(gatedKeyEvents(chord).map(send)));
      sent++;
    }
    const acked = Promise.all(flying);
    ups += sent;
    if (!await check.answeredAfter(acked, clock)) {
      slow = true;
      await refuseSensitiveFocus(page, progress, void 0, ask);
      return sent;
    }
    await check.checked;
    const seen = check.seen;
    if (seen !== void 0 && seen.seen && seen.onField && seen.strayed === void 0) {
      if (seen.value !== void 0) last = seen.value;
      return sent;
    }
    await refuseSensitiveFocus(page, progress, void 0, ask);
    if (seen === void 0 || seen.strayed !== void 0 || !seen.onField) {
      const where = seen?.strayed ?? (seen?.focused.description || "elsewhere");
      throw failure(CodeFocusLost, `the page moved focus from ${what} to ${where} while it was typed into; ${done + sent} of ${total} characters went in, none elsewhere`, OutcomeDispatched);
    }
    slow = true;
    return sent;
  };
  try {
    await refuseSensitiveFocus(page, progress, void 0, { index: located.index, answer: (frame) => page.agent(frame).armKeys(inFrame(frame, located) ? ref2 : null) });
    for (let i = 0; i < parts.length; ) {
      const part = parts[i];
      if (part === void 0) break;
      last = void 0;
      progress.dispatched = true;
      if ("text" in part) {
        await page.session.send("Input.insertText", { text: part.text });
        await refuseSensitiveFocus(page, progress, MAY_HAVE_REACHED, ask);
        done += [...part.text].length;
        i++;
      } else if (slow) {
        await pressChord(page, progress, part.key, ask);
        done++;
        i++;
      } else {
        const keys = [];
        for (let j = i; j < parts.length && (ups > 0 || j === i); j++) {
          const p = parts[j];
          if (p === void 0 || "text" in p) break;
          keys.push(p.key);
        }
        const sent = await run2(keys, i + keys.length === parts.length);
        done += sent;
        i += sent;
        if (sent === 0) slow = true;
      }
    }
  } finally {
    for (const frame of located.index.frames.values()) page.agent(frame).disarmKeys().catch(() => void 0);
  }
  return last ?? await page.agent(located.frame).keyValue(ref2);
}

// src/background/act/typing.ts
function focusLost(what, outcome) {
  return failure(CodeFocusLost, `focus is not on ${what}; nothing was typed`, outcome);
}
async function typeInto(page, clock, progress, ref2, located, text, mode) {
  const agent = page.agent(located.frame);
  const info = await agent.keyTarget(ref2, mode);
  const what = info.description || ref2;
  if (info.sensitive) throw sensitiveField(what);
  if (!info.ok) throw notActionable(ref2, info);
  if (info.editable === false) throw notActionable(ref2, info, "not_editable");
  if (info.picker !== void 0) return pick(agent, progress, ref2, what, info.picker, text);
  const held = info.ready ?? await focusField(page, clock, progress, ref2, located, info, mode);
  const ask = { index: located.index };
  if (mode === "type") {
    const after2 = await typeKeys(page, clock, progress, located, ref2, what, text, info.multiline === true);
    const want = (held.value ?? "") + text;
    const verdict2 = readBack(want, after2);
    const chars = `${[...text].length} character${[...text].length === 1 ? "" : "s"}`;
    if (verdict2 === "same") return { outcome: OutcomeConfirmed, note: `typed ${chars} into ${what}` };
    if (verdict2 === "formatted") return { outcome: OutcomeConfirmed, note: `typed ${chars} into ${what}, which formatted it: it holds ${shown(after2)}` };
    if (info.byFocus === true) return { outcome: OutcomeDispatched, note: `typed ${chars} into ${what}, an editor's hidden input (the editor takes the keys; its field holds ${shown(after2)})` };
    return { outcome: OutcomeDispatched, note: `typed ${chars} into ${what}; the field now holds ${shown(after2)} (the page may limit or reformat it)` };
  }
  if (text === "") {
    if (held.length > 0) await pressChord(page, progress, { modifiers: [], bits: 0, key: { key: "Delete", code: "Delete", keyCode: 46 } }, ask);
  } else {
    await refuseSensitiveFocus(page, progress, void 0, ask);
    progress.dispatched = true;
    await page.session.send("Input.insertText", { text });
  }
  const after = await agent.keyValue(ref2);
  const verdict = readBack(text, after);
  if (text !== "" && verdict === "different") await refuseSensitiveFocus(page, progress, MAY_HAVE_REACHED, ask);
  const did = text === "" ? `cleared ${what}` : `filled ${what} with ${[...text].length} character${[...text].length === 1 ? "" : "s"}`;
  if (verdict === "same" || verdict === "unknown") return { outcome: OutcomeConfirmed, note: did };
  if (verdict === "formatted") return { outcome: OutcomeConfirmed, note: `${did}, which it formatted: it holds ${shown(after)}` };
  if (info.byFocus === true) return { outcome: OutcomeDispatched, note: `${did}, an editor's hidden input (the editor takes the text; its field holds ${shown(after)})` };
  throw notAccepted(what, after);
}
async function focusField(page, clock, progress, ref2, located, info, mode) {
  const agent = page.agent(located.frame);
  if (info.byFocus === true) progress.dispatched = true;
  else await routedClick(page, clock, progress, await aim(page, ref2, located, progress), 1);
  const ready2 = await agent.keyReady(ref2, mode, info.byFocus === true);
  if (!ready2.focused || ready2.held === void 0) throw focusLost(info.description || ref2, OutcomeDispatched);
  return ready2.held;
}
async function pick(agent, progress, ref2, what, picker, value) {
  progress.dispatched = true;
  const r = await agent.pickValue(ref2, value);
  if (r.done === "refused") throw sensitiveField(what, OutcomeNotStarted);
  if (r.done === "not_accepted") throw notAccepted(what, r.held, picker, r.became);
  const note = r.held.value !== void 0 && r.held.value !== value ? `, which reads ${shown(r.held)}` : "";
  return { outcome: OutcomeConfirmed, note: `set ${what} to the value given${note}` };
}
async function press(page, progress, keys, ref2) {
  const chord = parseChord(keys);
  if (typeof chord === "string") throw new Error(chord);
  let into = "the focused element";
  if (ref2 !== void 0) {
    const agent = page.agent((await page.locate(ref2)).frame);
    const info = await agent.keyTarget(ref2, "press");
    into = info.description || ref2;
    if (info.sensitive) throw sensitiveField(into);
    if (!info.ok) throw notActionable(ref2, info);
    if (!(await agent.keyReady(ref2, "press", true)).focused) throw focusLost(into, OutcomeNotStarted);
  }
  await pressChord(page, progress, chord);
  return { outcome: OutcomeDispatched, note: `pressed ${keys} in ${into}` };
}

// src/background/cdp/frames.ts
async function readTree(session, sessionId, rootParent) {
  const r = await session.send("Page.getFrameTree", {}, { sessionId });
  const out = [];
  const walk = (node, parent) => {
    const frame = fieldsOf(node["frame"], "frameTree.frame");
    const frameId = strField(frame, "id", "frame");
    out.push({ doc: { frameId, loaderId: strField(frame, "loaderId", "frame") }, url: strField(frame, "url", "frame"), sessionId, parent });
    const children = node["childFrames"];
    if (!Array.isArray(children)) return;
    for (const c of children) walk(fieldsOf(c, "childFrames[]"), { frameId, sessionId });
  };
  walk(fieldsOf(r["frameTree"], "frameTree"), rootParent);
  return out;
}
async function readIndex(session) {
  const trees = await Promise.all([
    readTree(session, void 0, void 0),
    ...[...session.children.values()].map(
      (c) => (
        // A child session that ends while it is read (its frame navigated
        // away) simply has no frames now.
        readTree(session, c.sessionId, { frameId: c.parentFrameId, sessionId: c.parentSessionId }).catch(() => [])
      )
    )
  ]);
  const frames = /* @__PURE__ */ new Map();
  for (const tree of trees) for (const e of tree) frames.set(e.doc.frameId, e);
  const top = trees[0]?.[0];
  if (top === void 0) throw new Error("Page.getFrameTree returned no top frame");
  return { top, frames };
}

// src/shared/page-agent.ts
var PAGE_AGENT_GLOBAL = "__agenttab";
var PAGE_AGENT_WORLD = "agenttab";
var LISTENED_GLOBAL = "__agenttabListened";
var NO_EFFECT = Object.freeze({ effect: null, rule: null, descriptor: "", preview: Object.freeze({ control: "", fields: [] }) });

// src/background/pagework/listeners.ts
var PRESS_TYPES = /* @__PURE__ */ new Set(["click", "auxclick", "dblclick", "mousedown", "mouseup", "pointerdown", "pointerup", "touchstart", "touchend"]);
var MAX_ELEMENTS = 3e3;
var MAX_NODES = 300;
var DELEGATION_TYPES = 20;
var GROUP = "agenttab-listeners";
var DOCUMENT = `document.getElementsByTagName("*").length <= ${MAX_ELEMENTS} ? document : null`;
var REPORT = `function (...elements) {
  globalThis.${LISTENED_GLOBAL} = elements;
}`;
async function reportListeners(session, frame, contextId) {
  const opts = { sessionId: frame.sessionId };
  try {
    const doc = await mainDocument(session, frame, contextId);
    const nodes = doc === void 0 ? [] : pressTargets((await session.send("DOMDebugger.getEventListeners", { objectId: doc, depth: -1, pierce: false }, opts))["listeners"]);
    const resolved = await Promise.all(
      nodes.map(
        (backendNodeId) => session.send("DOM.resolveNode", { backendNodeId, executionContextId: contextId, objectGroup: GROUP }, opts).then((r) => optStr(fieldsOf(r["object"], "object"), "objectId")).catch(() => void 0)
      )
    );
    const args = resolved.filter((id) => id !== void 0).map((objectId) => ({ objectId }));
    await session.send("Runtime.callFunctionOn", { functionDeclaration: REPORT, executionContextId: contextId, arguments: args, returnByValue: true }, opts);
  } catch {
  } finally {
    session.send("Runtime.releaseObjectGroup", { objectGroup: GROUP }, opts).catch(() => void 0);
  }
}
async function mainDocument(session, frame, contextId) {
  const opts = { sessionId: frame.sessionId };
  if (frame.parent === void 0 || frame.parent.sessionId !== frame.sessionId) {
    const doc = await session.send("Runtime.evaluate", { expression: DOCUMENT, objectGroup: GROUP }, opts);
    return optStr(fieldsOf(doc["result"], "result"), "objectId");
  }
  const iso = await session.send("Runtime.evaluate", { expression: DOCUMENT, contextId, objectGroup: GROUP }, opts);
  const isoId = optStr(fieldsOf(iso["result"], "result"), "objectId");
  if (isoId === void 0) return void 0;
  const described = await session.send("DOM.describeNode", { objectId: isoId }, opts);
  const backendNodeId = fieldsOf(described["node"], "DOM.describeNode.node")["backendNodeId"];
  const main = await session.send("DOM.resolveNode", { backendNodeId, objectGroup: GROUP }, opts);
  return optStr(fieldsOf(main["object"], "object"), "objectId");
}
function pressTargets(listeners) {
  if (!Array.isArray(listeners)) return [];
  const types = /* @__PURE__ */ new Map();
  for (const l of listeners) {
    if (typeof l !== "object" || l === null) continue;
    const node = Reflect.get(l, "backendNodeId");
    const type = Reflect.get(l, "type");
    if (typeof node !== "number" || typeof type !== "string") continue;
    let set = types.get(node);
    if (set === void 0) types.set(node, set = /* @__PURE__ */ new Set());
    set.add(type);
  }
  const out = [];
  for (const [node, set] of types) {
    if (set.size >= DELEGATION_TYPES) continue;
    if (![...set].some((t) => PRESS_TYPES.has(t))) continue;
    out.push(node);
    if (out.length >= MAX_NODES) break;
  }
  return out;
}

// src/background/cdp/network.ts
var NETWORK_ENABLE = { maxTotalBufferSize: 0, maxResourceBufferSize: 0 };
var NetworkTracker = class {
  constructor(clock) {
    this.clock = clock;
    this.quietSince = clock.now();
  }
  clock;
  inflight = /* @__PURE__ */ new Set();
  quietSince;
  /** Follows the session's Network events (the top frame's and its iframes' sessions). */
  follow(session) {
    const key = (sessionId, p) => `${sessionId ?? ""}|${String(p["requestId"])}`;
    const done = (sessionId, p) => {
      if (this.inflight.delete(key(sessionId, p)) && this.inflight.size === 0) this.quietSince = this.clock.now();
    };
    session.on("Network.requestWillBeSent", (sessionId, p) => {
      this.inflight.add(key(sessionId, p));
    });
    session.on("Network.loadingFinished", done);
    session.on("Network.loadingFailed", done);
  }
  /** Requests in flight now, and for how long none has been (0 while some are). */
  state() {
    return { inflight: this.inflight.size, quietMs: this.inflight.size > 0 ? 0 : this.clock.now() - this.quietSince };
  }
};

// src/background/cdp/session.ts
var COMMAND_MS = 1e4;
var CommandTimeout = class extends Error {
  constructor(method, ms) {
    super(`${method} got no answer within ${ms} ms`);
    this.method = method;
    this.name = "CommandTimeout";
  }
  method;
};
var DialogOpened = class extends Error {
  constructor(dialog) {
    super(`a JavaScript ${dialog.type} dialog is open`);
    this.dialog = dialog;
    this.name = "DialogOpened";
  }
  dialog;
};
var DETACHED = /Detached while handling command|Debugger is not attached/;
var REFUSED_MIDWAY = /Cannot access a (chrome|chrome-extension|chrome-untrusted|devtools):\/\/ URL/;
var DebuggerDetached = class extends Error {
  constructor(reason) {
    super(`the debugger was detached from the tab (${reason})`);
    this.reason = reason;
    this.name = "DebuggerDetached";
  }
  reason;
};
var TabSession = class {
  constructor(api2, clock, tabId, log, refusedMidway = () => void 0) {
    this.api = api2;
    this.clock = clock;
    this.tabId = tabId;
    this.log = log;
    this.refusedMidway = refusedMidway;
    this.network = new NetworkTracker(clock);
  }
  api;
  clock;
  tabId;
  log;
  refusedMidway;
  dialog;
  children = /* @__PURE__ */ new Map();
  /** The tab's requests in flight since the attach (network.ts). */
  network;
  listeners = /* @__PURE__ */ new Map();
  interrupts = /* @__PURE__ */ new Set();
  gone;
  get detached() {
    return this.gone !== void 0;
  }
  /**
   * Sends a command and resolves with its result object. Rejects with
   * CommandTimeout, DialogOpened, DebuggerDetached or Chrome's error.
   */
  send(method, params = {}, opts = {}) {
    if (this.gone !== void 0) return Promise.reject(this.gone);
    if (this.dialog !== void 0 && opts.duringDialog !== true) return Promise.reject(new DialogOpened(this.dialog.info));
    const ms = opts.timeoutMs ?? COMMAND_MS;
    return new Promise((resolve, reject) => {
      let cancelTimer = () => void 0;
      const finish2 = () => {
        cancelTimer();
        this.interrupts.delete(interrupt);
      };
      const interrupt = (e) => {
        if (e instanceof DialogOpened && opts.duringDialog === true) return;
        finish2();
        reject(e);
      };
      this.interrupts.add(interrupt);
      cancelTimer = this.clock.after(ms, () => interrupt(new CommandTimeout(method, ms)));
      this.api.debugger.send({ tabId: this.tabId, sessionId: opts.sessionId }, method, params).then(
        (result) => {
          finish2();
          resolve(fieldsOf(result, `a result for ${method}`));
        },
        (e) => {
          finish2();
          const error = e instanceof Error ? e : new Error(errorText2(e));
          if (REFUSED_MIDWAY.test(error.message)) {
            this.refusedMidway(error);
            reject(new DebuggerDetached(error.message));
          } else if (DETACHED.test(error.message)) {
            reject(new DebuggerDetached(error.message));
          } else {
            reject(error);
          }
        }
      );
    });
  }
  /** Listens to one event of this tab, from any of its sessions. */
  on(method, listener) {
    let set = this.listeners.get(method);
    if (set === void 0) {
      set = /* @__PURE__ */ new Set();
      this.listeners.set(method, set);
    }
    set.add(listener);
    return () => set.delete(listener);
  }
  /** Delivers one event of this tab (Debuggers routes chrome.debugger.onEvent here). */
  handle(sessionId, method, params) {
    const p = fieldsOf(params, `${method} params`);
    try {
      this.track(sessionId, method, p);
    } catch (e) {
      this.log.warn(`debugger event ${method}: ${errorText2(e)}`);
    }
    for (const l of [...this.listeners.get(method) ?? []]) l(sessionId, p);
  }
  /** The attachment is over: every pending and later command fails. */
  end(reason) {
    if (this.gone !== void 0) return;
    this.gone = new DebuggerDetached(reason);
    for (const i of [...this.interrupts]) i(this.gone);
  }
  track(sessionId, method, p) {
    switch (method) {
      case "Page.javascriptDialogOpening": {
        const info = { type: strField(p, "type", method), message: strField(p, "message", method) };
        const prompt = optStr(p, "defaultPrompt");
        if (info.type === "prompt" && prompt !== void 0) info.default_prompt = prompt;
        this.dialog = { info, sessionId };
        for (const i of [...this.interrupts]) i(new DialogOpened(info));
        return;
      }
      case "Page.javascriptDialogClosed":
        this.dialog = void 0;
        return;
      case "Target.attachedToTarget": {
        const info = fieldsOf(p["targetInfo"], `${method}.targetInfo`);
        if (strField(info, "type", "targetInfo") !== "iframe") return;
        const child = {
          sessionId: strField(p, "sessionId", method),
          frameId: strField(info, "targetId", "targetInfo"),
          parentSessionId: sessionId,
          parentFrameId: optStr(info, "parentFrameId") ?? ""
        };
        this.children.set(child.sessionId, child);
        return;
      }
      case "Target.detachedFromTarget": {
        const gone = optStr(p, "sessionId");
        if (gone !== void 0) this.children.delete(gone);
        return;
      }
    }
  }
};

// src/background/notices/blackout.ts
async function handedOff(ctx2, tabId) {
  if (!ctx2.notices.openFor(tabId)) return false;
  const tab = await ctx2.chrome.tabs.get(tabId);
  if (tab === void 0 || !tab.active) return false;
  return await ctx2.chrome.userView.focusedWindow() === tab.windowId;
}
async function refuseWhileHandedOff(ctx2, tabId, meanwhile) {
  if (await handedOff(ctx2, tabId)) {
    throw failure(CodeHandoffInProgress, `the user is on this tab for the handoff you requested (its notice is open and it is the active tab of the focused window); ${meanwhile}`);
  }
}

// src/background/tabs/revoke.ts
async function revoke(ctx2, tabId, reason, report) {
  const owner = ctx2.ownership.drop(tabId);
  if (owner === void 0) return void 0;
  const revocation = { task_id: owner.taskId, tab_id: tabId, reason };
  ctx2.challenges.forget(tabId);
  await ctx2.pages.release(tabId);
  await ctx2.ownership.persist();
  if (report === "event") ctx2.notify(EventRevoked, revocation);
  return revocation;
}

// src/background/pagework/page-work.ts
function notOwned2() {
  return failure(CodeNotOwned, "the task does not own this tab (it was closed, or moved out of the task's group)");
}
async function ownedPage(ctx2, taskId, tabId) {
  const owner = ctx2.ownership.owner(tabId);
  if (owner?.taskId !== taskId) throw notOwned2();
  const tab = await ctx2.chrome.tabs.get(tabId);
  const lost = lossReason(tab, owner.tab.groupId);
  if (tab === void 0 || lost !== void 0) {
    await revoke(ctx2, tabId, lost ?? RevokeClosed, "event");
    throw notOwned2();
  }
  return { owned: owner.tab, tab, url: tab.url || tab.pendingUrl || "" };
}
async function admitPageWork(ctx2, tabId, url) {
  const unreadable = ctx2.origins.unreadableFile(tabId, url);
  if (unreadable !== void 0) throw failure(CodeLocalFileDenied, unreadable);
  if (routeOf(url) === RouteTabOnly) throw failure(CodeBrowserRestrictedOrigin, "Chrome does not let extensions read or drive this browser-owned page");
  await refuseWhileHandedOff(ctx2, tabId, "AgentTab does not read or drive it meanwhile");
}
function dialogFailure(d, outcome = OutcomeNotStarted) {
  return failure(CodeDialogOpen, `a JavaScript ${d.type} dialog is open: ${JSON.stringify(d.message)}; the page is blocked until it is answered`, outcome);
}
function readFailure(e, code = CodeSnapshotFailed) {
  if (e instanceof Failure) return e;
  if (e instanceof DialogOpened) return dialogFailure(e.dialog);
  if (e instanceof DebuggerDetached) {
    return failure(CodeDebuggerUnavailable, errorText2(e));
  }
  if (e instanceof FrameGone) {
    return new Failure(code, OutcomeNotStarted, "the page navigated while AgentTab read it", "Retry once the page has loaded (browser_wait until load).");
  }
  if (e instanceof CommandTimeout) {
    return new Failure(code, OutcomeNotStarted, `the page did not answer in time (${e.message})`, "Retry; if the page stays busy, reload it.");
  }
  return new Failure(code, OutcomeNotStarted, `AgentTab could not read the page: ${errorText2(e)}`, "Retry; if it keeps failing, reload the page.");
}

// src/background/pagework/refs.ts
function sameDoc(a, b) {
  return a.frameId === b.frameId && a.loaderId === b.loaderId;
}
var REF = new RegExp(RefPattern);
function refNumber(ref2) {
  return REF.test(ref2) ? Number(ref2.slice(1)) : void 0;
}
var SHOWN_REF = /\[ref=e([1-9][0-9]{0,14})\]/g;
function refsIn(text) {
  return Array.from(text.matchAll(SHOWN_REF), (m) => Number(m[1]));
}
var RefBook = class {
  owners = /* @__PURE__ */ new Map();
  /** Files the refs that doc's snapshot showed under doc. */
  record(doc, ids) {
    for (const id of ids) this.owners.set(id, doc);
  }
  /** The document that showed ref, if any did. */
  locate(ref2) {
    const n = refNumber(ref2);
    return n === void 0 ? void 0 : this.owners.get(n);
  }
  /** Forgets the refs of documents for which keep is false (they are gone). */
  prune(keep) {
    const verdicts = /* @__PURE__ */ new Map();
    for (const [id, doc] of this.owners) {
      let keepIt = verdicts.get(doc);
      if (keepIt === void 0) {
        keepIt = keep(doc);
        verdicts.set(doc, keepIt);
      }
      if (!keepIt) this.owners.delete(id);
    }
  }
  clear() {
    this.owners.clear();
  }
};

// src/background/pagework/screenshot.ts
var NUDGE_MS = 100;
var MAX_REQUESTS = 20;
var SHOT_MS = 8e3;
var MAX_FULL_PAGE_PX = 16384;
async function screenshot(session, clock, kind) {
  let params = { format: "png" };
  if (kind === "full_page") {
    const metrics = await session.send("Page.getLayoutMetrics");
    const size = fieldsOf(metrics["cssContentSize"], "Page.getLayoutMetrics.cssContentSize");
    const width = Math.ceil(numField(size, "width", "cssContentSize"));
    const height = Math.min(Math.ceil(numField(size, "height", "cssContentSize")), MAX_FULL_PAGE_PX);
    params = { format: "png", captureBeyondViewport: true, clip: { x: 0, y: 0, width, height, scale: 1 } };
  }
  return new Promise((resolve, reject) => {
    const stops = [];
    let settled2 = false;
    let sent = 0;
    let failed = 0;
    const settle = (f) => {
      if (settled2) return;
      settled2 = true;
      for (const stop of stops) stop();
      f();
    };
    const request = () => {
      if (settled2) return;
      sent++;
      session.send("Page.captureScreenshot", params, { timeoutMs: SHOT_MS }).then(
        (r) => settle(() => resolve(strField(r, "data", "Page.captureScreenshot"))),
        (e) => {
          failed++;
          const final = e instanceof DialogOpened || e instanceof DebuggerDetached || failed === sent && sent >= MAX_REQUESTS;
          if (final) settle(() => reject(e));
        }
      );
      if (sent < MAX_REQUESTS) stops.push(clock.after(NUDGE_MS, request));
    };
    stops.push(clock.after(SHOT_MS, () => settle(() => reject(new CommandTimeout("Page.captureScreenshot", SHOT_MS)))));
    request();
  });
}

// src/background/pagework/debugger-snapshot.ts
var FRAME_SNAPSHOT_MS = 2e4;
var MIN_BUILD_CHARS = 2e3;
var MAX_FRAME_DEPTH = 8;
var LATE_ATTACH_MS = 100;
function debuggerSnapshot(clock, page, p) {
  return page.tab.exclusive(async () => {
    try {
      if (page.session.dialog !== void 0) throw dialogFailure(page.session.dialog.info);
      const index = await page.frames();
      const built = await new Builder(page, p.mode, clock).frame(index, index.top, "", Math.max(MIN_BUILD_CHARS, p.capture_chars), 0);
      pruneBook(page, index);
      page.persist();
      let text = built.lines.join("\n");
      let truncated = built.truncated;
      if (text.length > p.capture_chars) {
        text = text.slice(0, p.capture_chars);
        truncated = true;
      }
      if (text === "") {
        throw new Failure(CodeSnapshotFailed, OutcomeNotStarted, "the page agent found no content in the page", "Wait for the page to load (browser_wait until load), then take the snapshot again.");
      }
      const owned = page.owned();
      const result = {
        url: built.url,
        title: built.title,
        revision: owned.revision,
        ref_epoch: owned.refEpoch,
        text,
        truncated,
        // The frames' own counts of what maxChars cut; frames left out
        // for lack of room are not counted.
        total: Math.max(text.length, built.total),
        served_by: RouteDebugger
      };
      if (built.clipped.texts > 0) result.clipped = built.clipped;
      if (p.screenshot !== "none") result.screenshot_png = await screenshot(page.session, clock, p.screenshot);
      return result;
    } catch (e) {
      throw readFailure(e);
    }
  });
}
var Builder = class {
  constructor(page, mode, clock) {
    this.page = page;
    this.mode = mode;
    this.clock = clock;
  }
  page;
  mode;
  clock;
  /**
   * Scans the frame's press listeners for the page agent, unless its
   * document has not changed since the last scan (page/mutations.ts): the
   * scan costs 2.6–6.8 ms of a small snapshot (docs/benchmarks.md), the
   * count one call.
   */
  async listeners(frame) {
    const key = `${frame.sessionId ?? ""}|${frame.doc.frameId}`;
    const before = this.page.tab.scanned.get(key);
    const mutations = await this.page.agent(frame).mutations();
    if (before !== void 0 && before.loaderId === frame.doc.loaderId && before.mutations === mutations) return;
    await reportListeners(this.page.session, frame, await this.page.tab.worlds.context(this.page.session, frame));
    this.page.tab.scanned.set(key, { loaderId: frame.doc.loaderId, mutations });
  }
  /** One frame's lines with its child frames spliced in under their iframe lines. */
  async frame(index, frame, indent, budget, depth) {
    const owned = this.page.owned();
    const request = { mode: this.mode, nextId: owned.nextRef, maxChars: budget, indent };
    if (this.mode !== SnapshotReadable) await this.listeners(frame);
    const snap = await this.page.agent(frame, { timeoutMs: FRAME_SNAPSHOT_MS }).snapshot(request);
    owned.nextRef = Math.max(owned.nextRef, snap.nextId);
    this.page.tab.book.record(frame.doc, refsIn(snap.text));
    const lines = snap.text === "" ? [] : snap.text.split("\n");
    let truncated = snap.truncated;
    let used = snap.text.length;
    let total = snap.totalChars ?? snap.text.length;
    const clipped2 = { texts: snap.clipped?.texts ?? 0, chars: snap.clipped?.chars ?? 0 };
    const inserts = [];
    for (const f of snap.frames) {
      const room = budget - used - 1;
      if (room <= 0) {
        truncated = true;
        break;
      }
      const childIndent = (/^\s*/.exec(lines[f.line - 1] ?? "")?.[0] ?? indent) + "  ";
      const child = await this.childLines(index, frame, f.ref, childIndent, room, depth);
      truncated ||= child.truncated;
      clipped2.texts += child.clipped.texts;
      clipped2.chars += child.clipped.chars;
      const length = child.lines.join("\n").length + 1;
      used += length;
      total += Math.max(length, child.total + 1);
      inserts.push({ at: f.line, lines: child.lines });
    }
    for (const ins of inserts.reverse()) lines.splice(ins.at, 0, ...ins.lines);
    return { lines, truncated, total, clipped: clipped2, title: snap.title, url: snap.url };
  }
  async childLines(index, parent, ref2, indent, budget, depth) {
    const note = (why) => ({ lines: [`${indent}- text: [frame not readable: ${why}]`], truncated: false, total: 0, clipped: { texts: 0, chars: 0 } });
    if (depth + 1 > MAX_FRAME_DEPTH) return note("nested too deep");
    let child;
    try {
      child = await this.childFrame(index, parent, ref2);
    } catch (e) {
      if (e instanceof FrameGone) return note("it navigated while it was read");
      throw e;
    }
    if (typeof child === "string") return note(child);
    try {
      const built = await this.frame(index, child, indent, budget, depth + 1);
      return { lines: built.lines, truncated: built.truncated, total: built.total, clipped: built.clipped };
    } catch (e) {
      if (e instanceof FrameGone) return note("it navigated while it was read");
      throw e;
    }
  }
  /** The frame an <iframe> ref shows: DOM.describeNode of the element gives its frame id. */
  async childFrame(index, parent, ref2) {
    const session = this.page.session;
    const objectId = await this.page.elements(parent).element(ref2);
    if (objectId === void 0) return "the iframe is gone";
    const described = await session.send("DOM.describeNode", { objectId }, { sessionId: parent.sessionId });
    session.send("Runtime.releaseObject", { objectId }, { sessionId: parent.sessionId }).catch(() => void 0);
    const frameId = optStr(fieldsOf(described["node"], "DOM.describeNode.node"), "frameId");
    if (frameId === void 0) return "it has no document";
    const known = index.frames.get(frameId);
    if (known !== void 0) return known;
    await new Promise((resolve) => this.clock.after(LATE_ATTACH_MS, resolve));
    const fresh = await readIndex(session);
    for (const [id, e] of fresh.frames) index.frames.set(id, e);
    return fresh.frames.get(frameId) ?? "it is cross-origin and Chrome gave AgentTab no session for it";
  }
};
function pruneBook(page, index) {
  page.tab.book.prune((doc) => index.frames.get(doc.frameId)?.doc.loaderId === doc.loaderId);
}

// src/background/pagework/page-route.ts
function routeServes(name, kind) {
  return (StepRules[kind].routes ?? []).includes(name);
}
function routed(kind) {
  return (StepRules[kind].routes ?? []).length > 0;
}

// src/background/pagework/wait-seen.ts
function refSeen(ref2, state, want) {
  const shown2 = state === "visible" || state === "enabled" || state === "disabled";
  const ok = want === "hidden" ? !shown2 : want === "enabled" ? state === "enabled" : shown2;
  return { ok, seen: `${ref2} is ${state}` };
}
function textSeen(present, gone) {
  return { ok: present !== gone, seen: present ? "text present" : "text not present" };
}

// src/background/pagework/debugger-route.ts
var DebuggerRoute = class {
  constructor(ctx2, page) {
    this.ctx = ctx2;
    this.page = page;
  }
  ctx;
  page;
  name = RouteDebugger;
  lacksUserActivation = false;
  serves(kind) {
    return routeServes(this.name, kind);
  }
  refuse(what) {
    return failure(CodeInternal, `protocol.StepRules gives the debugger route no ${what}`, OutcomeNotStarted);
  }
  snapshot(p) {
    return debuggerSnapshot(this.ctx.clock, this.page, p);
  }
  // A route serves one step (choose-route.ts onRoute), which locates its
  // ref more than once: the challenge guard and Commit review before the
  // input (act/prepare.ts), then the input. Within a step a ref's frame
  // cannot change (refs are unique per document), and a document that went
  // meanwhile fails the agent call itself; each frame-tree read and knows()
  // call costs a DevTools round trip (issue 12: the guard added about 5 ms
  // to a gen500 click before this).
  located = /* @__PURE__ */ new Map();
  locate(ref2) {
    let target = this.located.get(ref2);
    if (target === void 0) {
      target = this.page.locate(ref2).then((at) => new DebuggerTarget(this.ctx, this.page, ref2, at));
      this.located.set(ref2, target);
    }
    return target;
  }
  async top() {
    return this.page.agent((await this.page.frames()).top);
  }
  /** Text in any frame's visible text (or, with gone, in none). */
  textProbe(text, gone) {
    const page = this.page;
    return async () => {
      const index = await page.frames();
      let present = false;
      for (const frame of index.frames.values()) {
        try {
          if (await page.agent(frame).hasText(text)) {
            present = true;
            break;
          }
        } catch (e) {
          if (!(e instanceof FrameGone)) throw e;
        }
      }
      return textSeen(present, gone);
    };
  }
  /** An element's state; an element whose document is gone counts as gone. */
  async refProbe(ref2, want) {
    const page = this.page;
    const { frame } = await page.locate(ref2);
    return async () => {
      const index = await page.frames();
      const now = index.frames.get(frame.doc.frameId);
      let state;
      if (now?.doc.loaderId !== frame.doc.loaderId) state = "gone";
      else {
        try {
          state = await page.agent(now).state(ref2);
        } catch (e) {
          if (!(e instanceof FrameGone)) throw e;
          state = "gone";
        }
      }
      return refSeen(ref2, state, want);
    };
  }
  debugger() {
    return this.page;
  }
};
var DebuggerTarget = class {
  constructor(ctx2, page, ref2, located) {
    this.ctx = ctx2;
    this.page = page;
    this.ref = ref2;
    this.located = located;
    this.agent = page.agent(located.frame);
  }
  ctx;
  page;
  ref;
  located;
  agent;
  async click(count3, progress) {
    const page = this.page;
    return trapped(
      this.ctx,
      page.tabId,
      () => installTrap(page, this.located.frame),
      () => aim(page, this.ref, this.located, progress),
      async (at, armed) => {
        await routedClick(page, this.ctx.clock, progress, at, count3, armed);
        return at.info;
      }
    );
  }
  setValue(text, mode, progress) {
    return typeInto(this.page, this.ctx.clock, progress, this.ref, this.located, text, mode);
  }
};

// src/background/act/kinds.ts
function isStepKind(k) {
  return Object.hasOwn(StepRules, k);
}
var STEP_KINDS = Object.keys(StepRules).filter(isStepKind);

// src/background/agent-client/answers.ts
var AnswerShape = class extends Error {
  constructor(what) {
    super(what);
    this.name = "AnswerShape";
  }
};
function fields(v, what) {
  if (!isFields(v)) throw new AnswerShape(`${what} is not an object`);
  return v;
}
function num(f, key, what) {
  const v = f[key];
  if (typeof v !== "number" || !Number.isFinite(v)) throw new AnswerShape(`${what}.${key} is not a number`);
  return v;
}
function str(f, key, what) {
  const v = f[key];
  if (typeof v !== "string") throw new AnswerShape(`${what}.${key} is not a string`);
  return v;
}
function optStr2(f, key) {
  const v = f[key];
  return typeof v === "string" ? v : void 0;
}
function bool(v) {
  if (typeof v !== "boolean") throw new AnswerShape("the answer is not true or false");
  return v;
}
function count(v) {
  if (typeof v !== "number" || !Number.isSafeInteger(v) || v < 0) throw new AnswerShape("the answer is not a count");
  return v;
}
function optBool(v) {
  return v === void 0 || v === null ? void 0 : bool(v);
}
function optString(v) {
  if (v === void 0 || v === null) return null;
  if (typeof v !== "string") throw new AnswerShape("the answer is not a string or null");
  return v;
}
function frameSnapshot(v) {
  const f = fields(v, "the snapshot");
  const frames = f["frames"];
  if (!Array.isArray(frames)) throw new AnswerShape("the snapshot's frames are not a list");
  if (typeof f["truncated"] !== "boolean") throw new AnswerShape("the snapshot's truncated is not true or false");
  const snap = {
    text: str(f, "text", "the snapshot"),
    truncated: f["truncated"],
    nextId: num(f, "nextId", "the snapshot"),
    frames: frames.map((x) => {
      const g = fields(x, "a frame of the snapshot");
      return { ref: str(g, "ref", "frame"), line: num(g, "line", "frame") };
    }),
    title: str(f, "title", "the snapshot"),
    url: str(f, "url", "the snapshot")
  };
  if (typeof f["totalChars"] === "number") snap.totalChars = f["totalChars"];
  if (f["clipped"] !== void 0) {
    const c = fields(f["clipped"], "the snapshot's clipped");
    snap.clipped = { texts: num(c, "texts", "clipped"), chars: num(c, "chars", "clipped") };
  }
  return snap;
}
var NOT_ACTIONABLE = {
  detached: true,
  hidden: true,
  transparent: true,
  disabled: true,
  not_editable: true,
  no_box: true,
  re_aimed: true
};
function isNotActionable(v) {
  return typeof v === "string" && Object.hasOwn(NOT_ACTIONABLE, v);
}
function targetInfo(v) {
  const f = fields(v, "the target");
  const info = {
    ok: f["ok"] === true,
    x: num(f, "x", "target"),
    y: num(f, "y", "target"),
    width: num(f, "width", "target"),
    height: num(f, "height", "target"),
    sensitive: f["sensitive"] === true,
    description: optStr2(f, "description") ?? ""
  };
  if (isNotActionable(f["reason"])) info.reason = f["reason"];
  if (typeof f["editable"] === "boolean") info.editable = f["editable"];
  if (f["moving"] === true) info.moving = true;
  return info;
}
function hitTest(v) {
  const f = fields(v, "the hit test");
  const covering = optStr2(f, "covering");
  return covering === void 0 ? { ok: f["ok"] === true } : { ok: f["ok"] === true, covering };
}
function aimLooks(v) {
  const f = fields(v, "the aim");
  const looks = { first: targetInfo(f["first"]) };
  if (f["second"] !== void 0) looks.second = targetInfo(f["second"]);
  if (f["hit"] !== void 0) looks.hit = hitTest(f["hit"]);
  return looks;
}
function position(v) {
  const f = fields(v, "the scroll position");
  return { x: num(f, "x", "position"), y: num(f, "y", "position") };
}
function selection(v) {
  const f = fields(v, "the selection");
  const selected = Array.isArray(f["selected"]) ? f["selected"].filter((s) => typeof s === "string") : [];
  const error = optStr2(f, "error");
  return error === void 0 ? { ok: f["ok"] === true, selected } : { ok: f["ok"] === true, selected, error };
}
var ELEMENT_STATES = { visible: true, hidden: true, enabled: true, disabled: true, gone: true };
function isElementState(v) {
  return typeof v === "string" && Object.hasOwn(ELEMENT_STATES, v);
}
function elementState(v) {
  if (isElementState(v)) return v;
  throw new AnswerShape(`${JSON.stringify(v) ?? "undefined"} is not an element state`);
}
function focusedField(v) {
  const f = fields(v, "the field");
  return { sensitive: f["sensitive"] === true, description: optStr2(f, "description") ?? "", sealed: f["sealed"] === true, frame: f["frame"] === true };
}
function fieldValue(v) {
  const f = fields(v, "the field's value");
  const length = num(f, "length", "the field's value");
  const value = optStr2(f, "value");
  return value === void 0 ? { length } : { length, value };
}
function keyTarget(v) {
  const f = fields(v, "the key target");
  const info = targetInfo(v);
  if (f["byFocus"] === true) info.byFocus = true;
  const picker = optStr2(f, "picker");
  if (picker !== void 0) info.picker = picker;
  if (f["multiline"] === true) info.multiline = true;
  if (f["ready"] !== void 0) info.ready = fieldValue(f["ready"]);
  return info;
}
function keyReady(v) {
  const f = fields(v, "the key field");
  return f["held"] === void 0 ? { focused: f["focused"] === true } : { focused: f["focused"] === true, held: fieldValue(f["held"]) };
}
var PICKED = { set: true, refused: true, not_accepted: true };
function isPickDone(v) {
  return typeof v === "string" && Object.hasOwn(PICKED, v);
}
function pickResult(v) {
  const f = fields(v, "the picked value");
  const done = f["done"];
  if (!isPickDone(done)) throw new AnswerShape("the picked value's done is not set, refused or not_accepted");
  const r = { done, held: fieldValue(f["held"]) };
  const became = optStr2(f, "became");
  if (became !== void 0) r.became = became;
  return r;
}
function credentialTarget(v) {
  const f = fields(v, "the credential field");
  const r = { fit: f["fit"] === true, description: str(f, "description", "the credential field"), focused: f["focused"] === true };
  const why = optStr2(f, "why");
  if (why !== void 0) r.why = why;
  return r;
}
function credentialHeld(v) {
  const f = fields(v, "the credential field");
  return { holds: f["holds"] === true, focused: f["focused"] === true };
}
function keysSeen(v) {
  const f = fields(v, "the keys seen");
  const r = { seen: f["seen"] === true, onField: f["onField"] === true, focused: focusedField(f["focused"]) };
  const strayed = optStr2(f, "strayed");
  if (strayed !== void 0) r.strayed = strayed;
  if (f["value"] !== void 0) r.value = fieldValue(f["value"]);
  return r;
}
function effectReport(v) {
  const f = fields(v, "effect");
  const p = fields(f["preview"], "effect.preview");
  const list = p["fields"];
  if (!Array.isArray(list)) throw new AnswerShape("effect.preview.fields is not a list");
  const effect = optString(f["effect"]);
  if (effect !== null && !EffectValues.some((e) => e === effect)) throw new AnswerShape(`effect ${JSON.stringify(effect)} is not a protocol Effect`);
  return {
    effect,
    rule: optString(f["rule"]),
    descriptor: str(f, "descriptor", "effect"),
    preview: {
      control: str(p, "control", "effect.preview"),
      fields: list.map((x) => {
        const g = fields(x, "effect.preview.fields[]");
        return { label: str(g, "label", "field"), value: str(g, "value", "field"), sensitive: bool(g["sensitive"]) };
      })
    }
  };
}
function oneOf(f, key, values) {
  const v = values.find((x) => x === f[key]);
  if (v === void 0) throw new AnswerShape(`challenge.${key} is not one of ${values.join(", ")}`);
  return v;
}
var CATALOG_ID = /^[a-z0-9_]{1,40}$/;
function catalogId(f, key) {
  const v = str(f, key, "challenge");
  if (!CATALOG_ID.test(v)) throw new AnswerShape(`challenge.${key} is not a catalog id`);
  return v;
}
function challengeSightings(v) {
  if (!Array.isArray(v)) throw new AnswerShape("challenges is not a list");
  return v.map((x) => {
    const f = fields(x, "challenge");
    return {
      vendor: catalogId(f, "vendor"),
      product: catalogId(f, "product"),
      kind: oneOf(f, "kind", ChallengeKindValues),
      interaction: oneOf(f, "interaction", ChallengeInteractionValues),
      confidence: oneOf(f, "confidence", ChallengeConfidenceValues),
      tokenPresent: bool(f["tokenPresent"])
    };
  });
}
var ANSWERS = {
  snapshot: frameSnapshot,
  target: targetInfo,
  hitTest,
  aim: aimLooks,
  focus: bool,
  select: selection,
  checked: optBool,
  scrollBy: position,
  hasText: bool,
  state: elementState,
  domClick: targetInfo,
  domSetValue: targetInfo,
  navigationTarget: optString,
  keyTarget,
  keyReady,
  keyValue: fieldValue,
  pickValue: pickResult,
  armKeys: focusedField,
  keysSeen,
  disarmKeys: bool,
  focusedField,
  fieldAt: focusedField,
  knows: bool,
  mutations: count,
  effect: effectReport,
  challenges: challengeSightings,
  inChallenge: bool,
  credentialTarget,
  credentialHolds: credentialHeld
};

// src/background/agent-client/client.ts
function isValueMethod(k) {
  return Object.hasOwn(ANSWERS, k);
}
var VALUE_METHODS = Object.keys(ANSWERS).filter(isValueMethod);
var ELEMENT_METHODS = { element: true, focusedElement: true, elementAt: true };
function isElementMethod(k) {
  return Object.hasOwn(ELEMENT_METHODS, k);
}
function answer2(name, value) {
  try {
    return ANSWERS[name](value);
  } catch (e) {
    if (e instanceof AnswerShape) throw new AgentAnswerError(name, e.message);
    throw e;
  }
}
function agentClient(send) {
  const client = {};
  for (const name of VALUE_METHODS) client[name] = async (...args) => answer2(name, await send(name, args));
  return client;
}
function elementClient(send) {
  const client = {};
  for (const name of Object.keys(ELEMENT_METHODS).filter(isElementMethod)) client[name] = (...args) => send(name, args);
  return client;
}

// src/background/cdp/agent.ts
var CALL = `function (name, args) {
  const agent = globalThis.${PAGE_AGENT_GLOBAL};
  if (agent === undefined) return { missing: true };
  const value = agent[name].apply(agent, args);
  return value instanceof Promise ? value.then((v) => ({ value: v })) : { value };
}`;
var MISSING = "AgentTab's page agent is not installed";
var ELEMENT = `function (name, args) {
  const agent = globalThis.${PAGE_AGENT_GLOBAL};
  if (agent === undefined) throw new Error(${JSON.stringify(MISSING)});
  return agent[name].apply(agent, args);
}`;
async function preinstall(session, sessionId, source) {
  await session.send("Page.addScriptToEvaluateOnNewDocument", { source, worldName: PAGE_AGENT_WORLD, runImmediately: true }, { sessionId, duringDialog: true });
}
function contextGone(e) {
  const t = errorText2(e);
  return t.includes("Cannot find context") || t.includes("context was destroyed") || t.includes("No frame with given id") || t.includes("No frame for given id") || t.includes("Inspected target navigated or closed");
}
function exceptionText(r) {
  const d = r["exceptionDetails"];
  if (d === void 0) return void 0;
  const f = fieldsOf(d, "exceptionDetails");
  const ex = f["exception"];
  const described = typeof ex === "object" && ex !== null && "description" in ex ? ex.description : void 0;
  return typeof described === "string" ? described.split("\n")[0] ?? "" : optStr(f, "text") ?? "exception";
}
function worldKey(frame) {
  return `${frame.sessionId ?? ""}|${frame.doc.frameId}|${frame.doc.loaderId}`;
}
var Worlds = class {
  constructor(source) {
    this.source = source;
  }
  source;
  contexts = /* @__PURE__ */ new Map();
  /** Installations in progress or done by this worker, per world (the same key as contexts). */
  installs = /* @__PURE__ */ new Map();
  clear() {
    this.contexts.clear();
    this.installs.clear();
  }
  /** The execution context of the frame's world (the agent may still be missing there: see call). */
  context(session, frame) {
    const key = worldKey(frame);
    let ctx2 = this.contexts.get(key);
    if (ctx2 === void 0) {
      ctx2 = this.world(session, frame);
      this.contexts.set(key, ctx2);
      ctx2.catch(() => this.contexts.delete(key));
    }
    return ctx2;
  }
  /** The typed client of the frame's page agent, through this session (opts for every call it makes). */
  agent(session, frame, opts = {}) {
    return agentClient((name, args) => this.call(session, frame, name, args, opts));
  }
  /** The frame's page agent's element functions, answered with remote object ids. */
  elements(session, frame) {
    return elementClient((name, args) => this.elementOf(session, frame, name, args));
  }
  /** Calls one function of the frame's agent and returns its raw (JSON) answer: the client's transport. */
  async call(session, frame, name, args, opts) {
    const send = (contextId) => session.send(
      "Runtime.callFunctionOn",
      { functionDeclaration: CALL, executionContextId: contextId, arguments: [{ value: name }, { value: args }], returnByValue: true, awaitPromise: true },
      { ...opts, sessionId: frame.sessionId }
    );
    const missing = (r2) => exceptionText(r2) === void 0 && fieldsOf(fieldsOf(r2["result"], "result")["value"], `${name}'s answer`)["missing"] === true;
    const r = await this.invoke(session, frame, send, missing);
    const thrown = exceptionText(r);
    if (thrown !== void 0) throw new AgentError(`the page agent's ${name} failed: ${thrown}`);
    return fieldsOf(fieldsOf(r["result"], "result")["value"], `${name}'s answer`)["value"];
  }
  /** The remote object id of the element the agent's function name answers with args, or undefined when it answers none. */
  async elementOf(session, frame, name, args) {
    const send = (contextId) => session.send(
      "Runtime.callFunctionOn",
      { functionDeclaration: ELEMENT, executionContextId: contextId, arguments: [{ value: name }, { value: args }], returnByValue: false, objectGroup: PAGE_AGENT_WORLD },
      { sessionId: frame.sessionId }
    );
    const r = await this.invoke(session, frame, send, (r2) => exceptionText(r2)?.includes(MISSING) === true);
    const thrown = exceptionText(r);
    if (thrown !== void 0) throw new AgentError(`the page agent's ${name} failed: ${thrown}`);
    return optStr(fieldsOf(r["result"], "result"), "objectId");
  }
  /**
   * Sends one call into the frame's world; when its answer says the agent
   * is missing (a document created before the attachment, which preinstall
   * did not reach), installs it and sends the call once more.
   */
  async invoke(session, frame, send, missing) {
    const contextId = await this.context(session, frame);
    const r = await this.run(frame, () => send(contextId));
    if (!missing(r)) return r;
    await this.install(session, frame, contextId);
    const again = await this.run(frame, () => send(contextId));
    if (missing(again)) {
      this.forget(frame);
      throw new FrameGone("the page agent is missing from its world");
    }
    return again;
  }
  forget(frame) {
    this.contexts.delete(worldKey(frame));
    this.installs.delete(worldKey(frame));
  }
  async run(frame, f) {
    try {
      return await f();
    } catch (e) {
      if (!contextGone(e)) throw e;
      this.forget(frame);
      throw new FrameGone(errorText2(e));
    }
  }
  /** The frame's world (made now, or the one preinstall or an earlier call made: the same name gives the same context). */
  async world(session, frame) {
    const world = await this.run(
      frame,
      () => session.send(
        "Page.createIsolatedWorld",
        { frameId: frame.doc.frameId, worldName: PAGE_AGENT_WORLD, grantUniveralAccess: false },
        { sessionId: frame.sessionId }
      )
    );
    return numField(world, "executionContextId", "Page.createIsolatedWorld");
  }
  /** Evaluates the agent in the world, once per world however many calls find it missing together. */
  install(session, frame, contextId) {
    const key = worldKey(frame);
    let done = this.installs.get(key);
    if (done === void 0) {
      done = this.evaluate(session, frame, contextId);
      this.installs.set(key, done);
      done.catch(() => this.installs.delete(key));
    }
    return done;
  }
  async evaluate(session, frame, contextId) {
    const r = await this.run(
      frame,
      () => session.send("Runtime.evaluate", { expression: this.source, contextId, returnByValue: true }, { sessionId: frame.sessionId })
    );
    const thrown = exceptionText(r);
    if (thrown !== void 0) throw new AgentError(`the page agent did not install: ${thrown}`);
  }
};

// src/background/cdp/debuggers.ts
var IDLE_DETACH_MS = 6e4;
var REFUSAL_RETRY_MS = 3e4;
var SETUP_MS = 3e3;
var Debuggers = class {
  constructor(api2, clock, log) {
    this.api = api2;
    this.clock = clock;
    this.log = log;
    api2.debugger.onEvent((source, method, params) => {
      const session = this.live.get(source.tabId);
      if (session === void 0) {
        if (method === "Fetch.requestPaused") void this.api.debugger.detach(source.tabId).catch(() => void 0);
        return;
      }
      session.handle(source.sessionId, method, params);
      for (const w of [...this.watchers]) w(source.tabId, source.sessionId, method, params);
    });
    api2.debugger.onDetach((tabId, reason) => this.forget(tabId, reason));
    api2.webNavigation.onCommitted((d) => {
      if (d.frameId === 0) this.refusals.delete(d.tabId);
    });
  }
  api;
  clock;
  log;
  tabs = /* @__PURE__ */ new Map();
  live = /* @__PURE__ */ new Map();
  watchers = /* @__PURE__ */ new Set();
  /** Tabs where Chrome refused the debugger: when, and the answer to repeat. */
  refusals = /* @__PURE__ */ new Map();
  setups = [];
  sessionSetups = [];
  /** Why no tab may be attached now (the Cancel on Chrome's debugging banner); main.ts sets it. */
  attachRefusal = () => void 0;
  /**
   * Refuses every new attachment while refusal answers a Failure: after
   * the user clicked Cancel on Chrome's "started debugging this browser"
   * banner, AgentTab never attaches again by itself (not for page work,
   * not for the origin guard's holds) until the user resumes (issue 12).
   */
  refuseAttachWhile(refusal3) {
    this.attachRefusal = refusal3;
  }
  /** Runs f with the tab's session, attaching first when there is none; the idle timer waits while f runs. */
  async use(tabId, f) {
    const entry = this.entry(tabId);
    entry.busy++;
    entry.cancelIdle();
    try {
      return await f(await entry.session);
    } finally {
      entry.busy--;
      if (entry.busy === 0 && !entry.held && this.tabs.get(tabId) === entry) this.armIdle(tabId, entry);
    }
  }
  /** Attaches when needed and keeps the attachment until release; fails like use() when Chrome refuses. */
  async hold(tabId) {
    const entry = this.entry(tabId);
    entry.held = true;
    entry.cancelIdle();
    return entry.session;
  }
  /** Whether the tab's attachment is held (or being made for a hold). */
  held(tabId) {
    return this.tabs.get(tabId)?.held === true;
  }
  /** The tabs whose attachments are held. */
  heldTabs() {
    return [...this.tabs].filter(([, e]) => e.held).map(([tabId]) => tabId);
  }
  /** Lets a held attachment go idle again (detached IDLE_DETACH_MS after its last command). */
  unhold(tabId) {
    const entry = this.tabs.get(tabId);
    if (entry === void 0 || !entry.held) return;
    entry.held = false;
    if (entry.busy === 0) this.armIdle(tabId, entry);
  }
  /** Adds a step every new attachment runs after its own set-up; a failure fails the attachment. */
  onAttach(setUp) {
    this.setups.push(setUp);
  }
  /**
   * Adds a step every session of an attached tab runs with its own set-up:
   * the tab's own (sessionId undefined; a failure fails the attachment) and
   * each out-of-process iframe's (a failure is logged).
   */
  onSession(setUp) {
    this.sessionSetups.push(setUp);
  }
  /** Listens to the events of every attached tab, including sessions attached later. */
  watch(listener) {
    this.watchers.add(listener);
    return () => this.watchers.delete(listener);
  }
  /** The tab's session when one is attached (for state a read may report, like an open dialog). */
  current(tabId) {
    return this.live.get(tabId);
  }
  /** Detaches at once (finish, revocation); work still running fails with DebuggerDetached. */
  /** Detaches every tab (the user turned automation off, DESIGN.md "Automation switch"). */
  async releaseAll() {
    await Promise.all([...this.tabs.keys()].map((tabId) => this.release(tabId)));
  }
  async release(tabId) {
    const entry = this.tabs.get(tabId);
    if (entry === void 0) return;
    this.forget(tabId, "released");
    await this.api.debugger.detach(tabId).catch(() => void 0);
  }
  /** Chrome's remembered refusal on the tab, while it still stands (until REFUSAL_RETRY_MS or a navigation). */
  refusal(tabId) {
    const refused2 = this.refusals.get(tabId);
    if (refused2 === void 0 || this.clock.now() - refused2.at >= REFUSAL_RETRY_MS) return void 0;
    const d = refused2.failure.detail;
    const ago = Math.round((this.clock.now() - refused2.at) / 1e3);
    return new Failure(d.code, d.outcome, `${d.message} (${ago} s ago; not tried again until ${REFUSAL_RETRY_MS / 1e3} s have passed or the tab navigates)`, d.recovery);
  }
  /** The tab's entry, attaching for a new one; a refusal is repeated until REFUSAL_RETRY_MS or a navigation. */
  entry(tabId) {
    const existing = this.tabs.get(tabId);
    if (existing !== void 0) return existing;
    const refused2 = this.attachRefusal() ?? this.refusal(tabId);
    if (refused2 !== void 0) throw refused2;
    const entry = { session: this.attach(tabId), busy: 0, cancelIdle: () => void 0, held: false };
    this.tabs.set(tabId, entry);
    entry.session.catch(() => {
      if (this.tabs.get(tabId) === entry) this.tabs.delete(tabId);
    });
    return entry;
  }
  forget(tabId, reason) {
    this.tabs.get(tabId)?.cancelIdle();
    this.tabs.delete(tabId);
    this.live.get(tabId)?.end(reason);
    this.live.delete(tabId);
  }
  armIdle(tabId, entry) {
    entry.cancelIdle = this.clock.after(IDLE_DETACH_MS, () => {
      if (this.live.get(tabId)?.dialog !== void 0) return this.armIdle(tabId, entry);
      if (this.tabs.get(tabId) === entry && entry.busy === 0 && !entry.held) void this.release(tabId);
    });
  }
  async attach(tabId) {
    const refuse = (e) => {
      const failure2 = unavailable(e);
      this.refusals.set(tabId, { at: this.clock.now(), failure: failure2 });
      return failure2;
    };
    try {
      await this.api.debugger.attach(tabId);
    } catch (e) {
      if (!errorText2(e).includes("already attached")) throw refuse(e);
      try {
        await this.api.debugger.detach(tabId);
        await this.api.debugger.attach(tabId);
      } catch (again) {
        throw refuse(again);
      }
    }
    this.refusals.delete(tabId);
    const session = new TabSession(this.api, this.clock, tabId, this.log, (e) => {
      this.refusals.set(tabId, { at: this.clock.now(), failure: unavailable(e) });
      if (this.live.get(tabId) === session) void this.release(tabId);
    });
    this.live.set(tabId, session);
    session.network.follow(session);
    session.on("Target.attachedToTarget", (_parent, p) => {
      const child = typeof p["sessionId"] === "string" ? p["sessionId"] : void 0;
      if (child !== void 0 && session.children.has(child)) void this.setUpChild(session, child);
    });
    try {
      await Promise.all([
        session.send("Page.enable", {}, { timeoutMs: SETUP_MS }),
        // notes/chromium.md Trap 1: without focus emulation every
        // mouseMoved on a background tab takes about 5 s.
        session.send("Emulation.setFocusEmulationEnabled", { enabled: true }),
        session.send("Target.setAutoAttach", AUTO_ATTACH),
        session.send("Network.enable", NETWORK_ENABLE),
        ...this.sessionSetups.map((setUp) => setUp(session, void 0))
      ]);
      for (const setUp of this.setups) await setUp(session);
    } catch (e) {
      this.forget(tabId, "setup failed");
      await this.api.debugger.detach(tabId).catch(() => void 0);
      if (e instanceof CommandTimeout) {
        throw new Failure(
          CodeDialogOpen,
          OutcomeNotStarted,
          "the page does not answer: a JavaScript dialog it opened while AgentTab was not attached may be waiting, or the page is busy",
          "Ask the user to answer the dialog in Chrome, or reload or close the tab."
        );
      }
      throw unavailable(e);
    }
    return session;
  }
  // Out-of-process iframes: Page.enable reports their dialogs; auto-attach
  // reaches the iframes nested in them.
  async setUpChild(session, sessionId) {
    try {
      await Promise.all([
        session.send("Page.enable", {}, { sessionId, duringDialog: true }),
        session.send("Target.setAutoAttach", AUTO_ATTACH, { sessionId, duringDialog: true }),
        session.send("Network.enable", NETWORK_ENABLE, { sessionId, duringDialog: true }),
        ...this.sessionSetups.map((setUp) => setUp(session, sessionId))
      ]);
    } catch (e) {
      this.log.warn(`setting up an iframe session: ${errorText2(e)}`);
    }
  }
};
var AUTO_ATTACH = { autoAttach: true, waitForDebuggerOnStart: false, flatten: true, filter: [{ type: "iframe", exclude: false }] };
function unavailable(e) {
  return new Failure(
    CodeDebuggerUnavailable,
    OutcomeNotStarted,
    `Chrome refused to attach AgentTab's debugger to the tab: ${errorText2(e)}`,
    `Close DevTools or another debugging extension on this tab, or open the page in a new task tab; AgentTab tries the debugger again after ${REFUSAL_RETRY_MS / 1e3} s or the tab's next navigation.`
  );
}

// src/background/downloads/downloads.ts
var LOG_SIZE = 20;
var RECENT_MS = 1e4;
function isState(s) {
  return s === "inProgress" || s === "completed" || s === "canceled";
}
function num2(v) {
  return typeof v === "number" && Number.isFinite(v) ? v : 0;
}
var DownloadLog = class {
  constructor(clock) {
    this.clock = clock;
  }
  clock;
  starts = /* @__PURE__ */ new Map();
  /** Takes the download events of a tab's debugger session. */
  onEvent(tabId, method, params) {
    if (!isFields(params) || typeof params["guid"] !== "string") return;
    const guid = params["guid"];
    if (method === "Page.downloadWillBegin" && typeof params["url"] === "string") {
      const name = typeof params["suggestedFilename"] === "string" ? params["suggestedFilename"] : "";
      this.record(tabId, { guid, url: params["url"], suggestedName: name, at: this.clock.now(), state: "inProgress", receivedBytes: 0, totalBytes: 0, taken: false });
    } else if (method === "Page.downloadProgress") {
      const start = this.starts.get(tabId)?.find((s) => s.guid === guid);
      const state = params["state"];
      if (start === void 0 || !isState(state)) return;
      start.state = state;
      start.receivedBytes = num2(params["receivedBytes"]);
      start.totalBytes = num2(params["totalBytes"]);
    }
  }
  record(tabId, start) {
    const list = this.starts.get(tabId) ?? [];
    list.push(start);
    if (list.length > LOG_SIZE) list.shift();
    this.starts.set(tabId, list);
  }
  /** The oldest start of the tab since `since` that no wait reported yet; it is taken. */
  take(tabId, since) {
    const found = this.starts.get(tabId)?.find((s) => !s.taken && s.at >= since);
    if (found !== void 0) found.taken = true;
    return found;
  }
  forget(tabId) {
    this.starts.delete(tabId);
  }
};
var STATES = { inProgress: DownloadInProgress, completed: DownloadComplete, canceled: DownloadCanceled };
function downloadInfo(d) {
  return { id: d.guid, file_name: d.suggestedName, url: d.url, bytes: d.receivedBytes, state: STATES[d.state] };
}
function finished(d) {
  return d.state !== "inProgress";
}

// src/background/pagework/page-tab.ts
var NAVIGATION_START = /* @__PURE__ */ new Set(["Page.frameRequestedNavigation", "Page.frameStartedNavigating", "Page.navigatedWithinDocument"]);
var PageTab = class {
  book = new RefBook();
  worlds;
  topLoader;
  /** The top frame's id (the tab's target id), once read. */
  topFrame;
  /** The epoch and id counter Page.persist last wrote ("epoch:next"). */
  written;
  /**
   * Per frame, the document and its page agent's mutation count at the
   * last listener scan (listeners.ts): an unchanged document is not
   * scanned again.
   */
  scanned = /* @__PURE__ */ new Map();
  snapshots = Promise.resolve();
  constructor(source) {
    this.worlds = new Worlds(source);
  }
  /** Runs f after the tab's earlier snapshots: each takes ids from the tab's one counter. */
  exclusive(f) {
    const run2 = this.snapshots.then(f);
    this.snapshots = run2.then(
      () => void 0,
      () => void 0
    );
    return run2;
  }
};
var Pages = class {
  constructor(api2, clock, log, ownership2, agentSource) {
    this.api = api2;
    this.ownership = ownership2;
    this.agentSource = agentSource;
    this.debuggers = new Debuggers(api2, clock, log);
    this.debuggers.onSession((session, sessionId) => preinstall(session, sessionId, agentSource));
    this.downloads = new DownloadLog(clock);
    this.debuggers.watch((tabId, _sessionId, method, params) => this.downloads.onEvent(tabId, method, params));
  }
  api;
  ownership;
  agentSource;
  debuggers;
  /** Downloads the owned tabs' pages started (downloads.ts). */
  downloads;
  tabs = /* @__PURE__ */ new Map();
  /** The tab's refs (the scripting route records its snapshots' refs here too). */
  refBook(tabId) {
    return this.tabFor(tabId).book;
  }
  tabFor(tabId) {
    let tab = this.tabs.get(tabId);
    if (tab === void 0) {
      tab = new PageTab(this.agentSource);
      this.tabs.set(tabId, tab);
    }
    return tab;
  }
  /** Runs f on the tab's page through the debugger (attached on first use). The caller checked ownership and route. */
  use(tabId, f) {
    const state = this.tabFor(tabId);
    return this.debuggers.use(tabId, (session) => f(new Page(session, state, this.ownership, tabId, this.api)));
  }
  /**
   * Calls began when the page asks to navigate its top frame. The
   * DevTools events arrive with the input's acknowledgement (measured in
   * Chromium 156: 0–2 ms after a submit button's mouseReleased), while
   * webNavigation.onBeforeNavigate takes 8–40 ms to reach the worker.
   */
  onNavigationStart(tabId, began) {
    return this.debuggers.watch((id, sessionId, method, params) => {
      if (id !== tabId || sessionId !== void 0 || !NAVIGATION_START.has(method) || !isFields(params)) return;
      const top = this.tabs.get(tabId)?.topFrame;
      if (top === void 0 || params["frameId"] !== top) return;
      const disposition = params["disposition"];
      if (disposition === void 0 || disposition === "currentTab") began();
    });
  }
  /** Calls opened when the page opens a JavaScript dialog (a beforeunload holds a navigation). */
  onDialog(tabId, opened) {
    return this.debuggers.watch((id, _sessionId, method) => {
      if (id === tabId && method === "Page.javascriptDialogOpening") opened();
    });
  }
  /** The tab's attached session, if any (an open dialog is reported from it). */
  session(tabId) {
    return this.debuggers.current(tabId);
  }
  /** Forgets every tab's page and detaches from all of them. */
  async releaseAll() {
    await Promise.all([...this.tabs.keys()].map((tabId) => this.release(tabId)));
    await this.debuggers.releaseAll();
  }
  /** Forgets the tab and detaches at once (finish, revocation, close). */
  async release(tabId) {
    this.tabs.delete(tabId);
    this.downloads.forget(tabId);
    await this.debuggers.release(tabId);
  }
};
var Page = class {
  constructor(session, tab, ownership2, tabId, api2) {
    this.session = session;
    this.tab = tab;
    this.ownership = ownership2;
    this.tabId = tabId;
    this.api = api2;
  }
  session;
  tab;
  ownership;
  tabId;
  api;
  /**
   * Whether the tab is the one its window shows, so its page renders
   * frames. A task's tabs are normally in the background, where Chrome
   * renders none (notes/chromium.md); page/target.ts aim times its second
   * look by this.
   */
  async shown() {
    return (await this.api.tabs.get(this.tabId))?.active === true;
  }
  /** The tab's ownership record; the tab may be revoked while work runs. */
  owned() {
    const owner = this.ownership.owner(this.tabId);
    if (owner === void 0) {
      throw failure(CodeNotOwned, "the tab is no longer owned by the task");
    }
    return owner.tab;
  }
  /**
   * Every frame, read now; a new top document advances the ref epoch.
   * Read every time, not kept between calls: observed in a loaded e2e run,
   * a kept index still named a same-process iframe's first document after
   * it had committed its second, whose Page.frameNavigated was still on
   * its way; the snapshot's refs were then booked under the gone document
   * (stale_ref on the next click). Page.getFrameTree answers after the
   * renderer's own events, so a fresh read never misses a commit.
   */
  async frames() {
    const index = await readIndex(this.session);
    this.tab.topFrame = index.top.doc.frameId;
    const loader = index.top.doc.loaderId;
    if (this.tab.topLoader !== loader) {
      const owned = this.owned();
      owned.refEpoch++;
      this.tab.topLoader = loader;
      this.tab.book.clear();
      this.tab.worlds.clear();
      this.persist();
    }
    return index;
  }
  /**
   * Writes the tab's epoch and id counter with the ownership record when
   * they changed since this worker last wrote them: a snapshot of a page
   * it showed before hands out no new ids, and two storage writes per
   * snapshot bought nothing. Not awaited: losing it costs only stale refs.
   */
  persist() {
    const owned = this.ownership.owner(this.tabId)?.tab;
    const written = owned === void 0 ? void 0 : `${owned.refEpoch}:${owned.nextRef}`;
    if (written !== void 0 && written === this.tab.written) return;
    this.tab.written = written;
    this.ownership.persist().catch(() => void 0);
  }
  /** The page agent of a frame (opts: for each of its calls, such as a longer timeout). */
  agent(frame, opts = {}) {
    return this.tab.worlds.agent(this.session, frame, opts);
  }
  /** The page agent's element functions in a frame (remote objects: the debugger's alone). */
  elements(frame) {
    return this.tab.worlds.elements(this.session, frame);
  }
  /** The frame whose current document showed ref and whose page agent still knows it; else stale_ref. */
  async locate(ref2) {
    const doc = this.tab.book.locate(ref2);
    const index = await this.frames();
    const frame = doc === void 0 ? void 0 : index.frames.get(doc.frameId);
    if (doc === void 0 || frame === void 0 || frame.doc.loaderId !== doc.loaderId) {
      throw staleRef(ref2, doc === void 0 ? "no snapshot of the current page showed it" : "the document it belonged to is gone");
    }
    if (!await this.agent(frame).knows(ref2)) throw staleRef(ref2, "its document no longer knows it");
    return { frame, index };
  }
  /**
   * Where the frame's viewport starts in the top frame's viewport: the sum
   * of the content boxes of the iframes it sits in. Input events go to the
   * tab in top-frame coordinates; Chrome routes them into the frame.
   */
  async offset(frame, index) {
    let x = 0;
    let y = 0;
    for (let cur = frame; cur.parent !== void 0; ) {
      const parent = cur.parent;
      const owner = await this.session.send("DOM.getFrameOwner", { frameId: cur.doc.frameId }, { sessionId: parent.sessionId });
      const box = await this.session.send("DOM.getBoxModel", { backendNodeId: numField(owner, "backendNodeId", "DOM.getFrameOwner") }, { sessionId: parent.sessionId });
      const content = fieldsOf(box["model"], "DOM.getBoxModel.model")["content"];
      if (!Array.isArray(content) || typeof content[0] !== "number" || typeof content[1] !== "number") throw new ProtocolShapeError("an iframe's content box");
      x += content[0];
      y += content[1];
      const next = index.frames.get(parent.frameId);
      if (next === void 0) throw staleRef("", "its frame is gone");
      cur = next;
    }
    return { x, y };
  }
};
function staleRef(ref2, why) {
  return failure(CodeStaleRef, ref2 === "" ? `the element's frame changed: ${why}` : `ref ${ref2} is stale: ${why}`);
}

// src/background/pagework/scripting-agent.ts
var TOP = "scripting:top";
var FRAME_REMOVED = /Frame with ID \d+ was removed|frame was removed|No frame with id/i;
var INPUT = /* @__PURE__ */ new Set(["domClick", "domSetValue", "select", "focus", "scrollBy", "credentialTarget"]);
var TopDocument = class {
  constructor(ctx2, tabId) {
    this.ctx = ctx2;
    this.tabId = tabId;
    this.agent = agentClient((name, args) => this.call(name, args));
  }
  ctx;
  tabId;
  agent;
  /**
   * The document (Chrome's documentId, under TOP) that gave the latest
   * answer: refs are bound to it, and a call that meets another document
   * than the ref's answers for that other one.
   */
  doc;
  async call(name, args) {
    const api2 = this.ctx.chrome.scripting;
    const r = await bounded(this.ctx.clock, SCRIPT_CALL_MS, () => pageBusy(`the scripting route's ${name}`, INPUT.has(name) ? OutcomeUnknown : OutcomeNotStarted), async () => {
      const first = await api2.callAgent(this.tabId, name, [...args]);
      if (!first.missing) return first;
      await api2.injectFile(this.tabId, "page-agent.js");
      return api2.callAgent(this.tabId, name, [...args]);
    }).catch((e) => {
      if (FRAME_REMOVED.test(errorText2(e))) throw new FrameGone(errorText2(e));
      throw e;
    });
    this.doc = { frameId: TOP, loaderId: r.documentId };
    return r.value;
  }
};

// src/background/pagework/scripting-route.ts
var ScriptingRoute = class {
  constructor(ctx2, tabId) {
    this.ctx = ctx2;
    this.tabId = tabId;
    this.document = new TopDocument(ctx2, tabId);
  }
  ctx;
  tabId;
  name = RouteScripting;
  lacksUserActivation = true;
  document;
  serves(kind) {
    return routeServes(this.name, kind);
  }
  refuse(what) {
    return new Failure(
      CodeDebuggerUnavailable,
      OutcomeNotStarted,
      `Chrome refuses the debugger on this tab, and ${what} needs it (the scripting route serves top-frame snapshots, text or ref waits and the steps ${scriptedKinds()} only)`,
      "Open the page in a new task tab, or ask the user to close what holds the tab (DevTools, another extension's frame)."
    );
  }
  /** A top-frame snapshot (frames are listed, not entered). */
  async snapshot(p) {
    if (p.screenshot !== "none") throw this.refuse("screenshots of a background tab");
    const owned = this.owned();
    const request = { mode: p.mode, nextId: owned.nextRef, maxChars: Math.max(2e3, p.capture_chars), indent: "" };
    const snap = await this.document.agent.snapshot(request);
    owned.nextRef = Math.max(owned.nextRef, snap.nextId);
    this.ctx.pages.refBook(this.tabId).record(this.answered(), refsIn(snap.text));
    await this.ctx.ownership.persist();
    const text = snap.text.length > p.capture_chars ? snap.text.slice(0, p.capture_chars) : snap.text;
    return {
      ...snap.clipped === void 0 ? {} : { clipped: snap.clipped },
      url: snap.url,
      title: snap.title,
      revision: owned.revision,
      ref_epoch: owned.refEpoch,
      text,
      truncated: snap.truncated || text.length < snap.text.length,
      total: Math.max(text.length, snap.totalChars ?? snap.text.length),
      served_by: RouteScripting,
      lacks_user_activation: true
    };
  }
  async locate(ref2) {
    await this.bound(ref2);
    return new ScriptingTarget(this.ctx, this.tabId, this.document.agent, ref2, (what) => this.refuse(what));
  }
  async top() {
    return this.document.agent;
  }
  /** A text wait on the top document; a document being replaced shows nothing this round. */
  textProbe(text, gone) {
    return async () => textSeen(await whileThere(this.document.agent.hasText(text)) === true, gone);
  }
  /** A ref wait on the top document; the ref's document gone counts as the element gone. */
  async refProbe(ref2, want) {
    const bound = await this.bound(ref2);
    return async () => {
      const state = await whileThere(this.document.agent.state(ref2));
      return refSeen(ref2, state !== void 0 && this.document.doc?.loaderId === bound.loaderId ? state : "gone", want);
    };
  }
  debugger(what) {
    throw this.refuse(what);
  }
  owned() {
    const owner = this.ctx.ownership.owner(this.tabId);
    if (owner === void 0) throw notOwned2();
    return owner.tab;
  }
  /** The document of the call just answered. */
  answered() {
    const doc = this.document.doc;
    if (doc === void 0) throw new Error("the scripting route read no document");
    return doc;
  }
  /** The ref must come from a scripting-route snapshot of the current top document. */
  async bound(ref2) {
    const doc = this.ctx.pages.refBook(this.tabId).locate(ref2);
    if (doc === void 0 || doc.frameId !== TOP) throw staleRef(ref2, "no scripting-route snapshot of the current page showed it");
    const known = await this.document.agent.knows(ref2);
    if (this.answered().loaderId !== doc.loaderId || !known) throw staleRef(ref2, "the document it belonged to is gone");
    return doc;
  }
};
var ScriptingTarget = class {
  constructor(ctx2, tabId, agent, ref2, refuse) {
    this.ctx = ctx2;
    this.tabId = tabId;
    this.agent = agent;
    this.ref = ref2;
    this.refuse = refuse;
  }
  ctx;
  tabId;
  agent;
  ref;
  refuse;
  /**
   * A DOM click with the window.open trap around it, installed in the
   * page's main world for this gesture only (spec 000): without it a
   * target=_blank link opens an active tab (observed in Chromium 156, even
   * without user activation), and window.open is blocked for want of it.
   */
  async click(count3, progress) {
    if (count3 !== 1) throw this.refuse("a double click");
    const { ctx: ctx2, tabId, agent, ref: ref2 } = this;
    const to = await this.clickable();
    return trapped(
      ctx2,
      tabId,
      () => installScriptedTrap(ctx2.chrome, ctx2.clock, tabId),
      async () => void 0,
      async () => {
        const info = await agent.domClick(ref2, to);
        if (!info.ok) throw notActionable(ref2, info);
        progress.dispatched = true;
        return info;
      },
      true
    );
  }
  async setValue(text, mode, progress) {
    const ref2 = this.ref;
    const info = await this.agent.domSetValue(ref2, text, mode === "type");
    if (info.sensitive) throw sensitiveField(info.description || ref2);
    if (!info.ok) throw notActionable(ref2, info, info.reason ?? "not_editable");
    progress.dispatched = true;
    return { outcome: OutcomeConfirmed, note: `${mode === "type" ? "typed into" : "set"} ${info.description || ref2}` };
  }
  /**
   * The debugger route's checks before pointer input that the scripting
   * route can make (shown, enabled, not covered), and the origin policy on
   * the link or form the click would follow: without the debugger nothing
   * can hold that request once it is sent (origin-guard.ts). Answers where
   * the click would go, which the click checks again in the page.
   */
  async clickable() {
    const { agent, ref: ref2 } = this;
    const info = await agent.target(ref2);
    if (!info.ok) throw notActionable(ref2, info);
    const hit = await agent.hitTest(ref2, info.x, info.y);
    if (!hit.ok) throw covered(ref2, info, hit);
    const to = await agent.navigationTarget(ref2);
    if (to !== null && isWeb(to)) this.ctx.origins.check(to);
    return to;
  }
};
function scriptedKinds() {
  return STEP_KINDS.filter((kind) => routeServes(RouteScripting, kind)).join(", ");
}
async function whileThere(p) {
  try {
    return await p;
  } catch (e) {
    if (e instanceof FrameGone) return void 0;
    throw e;
  }
}

// src/background/pagework/choose-route.ts
function scriptingGranted(ctx2) {
  return ctx2.chrome.permissions.contains("scripting");
}
function debuggerRefused(e) {
  return e instanceof Failure && e.detail.code === CodeDebuggerUnavailable;
}
async function onRoute(ctx2, tabId, work, undone = () => true) {
  try {
    return await ctx2.pages.use(tabId, (page) => work(new DebuggerRoute(ctx2, page)));
  } catch (e) {
    if (!debuggerRefused(e) || !undone() || !await scriptingGranted(ctx2)) throw e;
    return work(new ScriptingRoute(ctx2, tabId));
  }
}

// src/background/challenges/scan.ts
async function scanChallenges(ctx2, at) {
  let sightings;
  try {
    await admitPageWork(ctx2, at.tabId, at.url);
  } catch {
    return void 0;
  }
  try {
    const scan = async (route) => (await route.top()).challenges();
    sightings = at.route === void 0 ? await onRoute(ctx2, at.tabId, scan) : await scan(at.route);
  } catch (e) {
    ctx2.log.info(`the challenge scan of tab ${at.tabId} failed: ${errorText2(e)}`);
    return void 0;
  }
  return ctx2.challenges.observe(at.tabId, at.url, sightings, at.context, at.revision, ctx2.notices.openFor(at.tabId));
}

// src/background/act/receipts.ts
var Progress = class {
  /** Without patience (unit tests), a target that is not actionable is refused at once. */
  constructor(patience) {
    this.patience = patience;
  }
  patience;
  dispatched = false;
  /** How long the step has waited for its targets so far (the receipt's waited_ms); its patience bounds the total. */
  waitedMs = 0;
  /**
   * When Chrome acknowledged the step's last input, where the step knows
   * it (a click's release): its navigation grace counts from there
   * (act/navigation.ts GRACE_MS), not from after the checks that follow.
   */
  inputEnded;
};
function withWait(receipt, progress) {
  return progress.waitedMs > 0 ? { ...receipt, waited_ms: Math.round(progress.waitedMs) } : receipt;
}
function notStarted(index, step) {
  return { index, kind: step.kind, outcome: OutcomeNotStarted };
}
async function runSteps(steps, run2) {
  const out = [];
  let stopped2 = false;
  for (const [index, step] of steps.entries()) {
    if (stopped2) {
      out.push(notStarted(index, step));
      continue;
    }
    const receipt = await run2(step, index);
    out.push(receipt);
    stopped2 = receipt.error !== void 0 || receipt.outcome === OutcomeStaged;
  }
  return out;
}
function stepFailure(e, progress) {
  if (e instanceof Failure) return e;
  const sent = progress.dispatched;
  if (e instanceof DialogOpened) return dialogFailure(e.dialog, sent ? OutcomeDispatched : OutcomeNotStarted);
  if (e instanceof FrameGone && !sent) {
    return failure(CodeStaleRef, "the element's document went away (the frame navigated)");
  }
  if (e instanceof DebuggerDetached) {
    return failure(CodeDebuggerUnavailable, errorText2(e), sent ? OutcomeUnknown : OutcomeNotStarted);
  }
  const code = e instanceof AgentError ? CodeInternal : CodeChromeError;
  const why = e instanceof CommandTimeout ? `Chrome did not answer in time: ${e.message}` : errorText2(e);
  return new Failure(
    code,
    sent ? OutcomeUnknown : OutcomeNotStarted,
    sent ? `the step was sent, but its result is unknown: ${why}` : `the step could not start: ${why}`,
    sent ? "Take a new browser_snapshot to see what happened before repeating the step." : "Retry the step; if it keeps failing, take a new browser_snapshot."
  );
}

// src/background/origins/origin-guard.ts
function stopFailure(stop, outcome, message) {
  const code = isLocalFile(stop.url) ? CodeLocalFileDenied : CodeOriginPolicyDenied;
  return failure(code, message, outcome);
}
var DOCUMENTS = { urlPattern: "*", resourceType: "Document", requestStage: "Request" };
var LOCAL_FILES = { urlPattern: "file:*", requestStage: "Request" };
var NO_HOST = () => Promise.resolve({ code: CodeLocalFileDenied, reason: LocalFileNoRoots });
var OriginGuard = class {
  constructor(api2, debuggers, ownership2, log, askHost2 = NO_HOST) {
    this.api = api2;
    this.debuggers = debuggers;
    this.ownership = ownership2;
    this.log = log;
    this.askHost = askHost2;
    debuggers.onAttach((session) => this.intercept(session));
    debuggers.watch((tabId, sessionId, method, params) => {
      if (method === "Fetch.requestPaused") void this.decide(tabId, sessionId, params);
    });
    api2.webNavigation.onCommitted((d) => {
      if (d.frameId !== 0) return;
      this.committed(d.tabId, d.url);
      if (ownership2.owner(d.tabId) === void 0) this.admitted.delete(d.tabId);
      else if (refusal(this.policy, d.url) === void 0) {
        this.admitted.set(d.tabId, d.url);
        this.returning.delete(d.tabId);
      }
      if (this.holding && ownership2.owner(d.tabId) !== void 0 && !debuggers.held(d.tabId)) void this.arm(d.tabId);
      void this.unguarded(d.tabId, d.url, true);
    });
    api2.tabs.onRemoved((tabId) => {
      this.admitted.delete(tabId);
      this.checkedRequest.delete(tabId);
      this.checkedPage.delete(tabId);
      this.returning.delete(tabId);
      this.unreported.delete(tabId);
    });
    api2.webNavigation.onBeforeNavigate((d) => {
      if (d.frameId === 0) void this.unguarded(d.tabId, d.url, false);
    });
  }
  api;
  debuggers;
  ownership;
  log;
  askHost;
  policy = NO_POLICY;
  /** The welcome's local_files: policy.json admits local folders, which the host decides on. */
  localFiles = false;
  /** Per tab, the last top-frame file: document request the host admitted, with the attachment that paused it. */
  checkedRequest = /* @__PURE__ */ new Map();
  /** Per tab, the file: document that committed from a checked request, with that attachment (readableFile). */
  checkedPage = /* @__PURE__ */ new Map();
  /** The top frame's id per intercepting session: only its requests are navigations of the tab. */
  topFrames = /* @__PURE__ */ new WeakMap();
  listeners = /* @__PURE__ */ new Map();
  /**
   * Stops no step was watching for, per tab, with the task that owned the
   * tab then, until that task's next result for it (protocol OriginStop).
   */
  unreported = /* @__PURE__ */ new Map();
  /** The last top-frame page each owned tab committed that the policy admits: where a late stop takes it back. */
  admitted = /* @__PURE__ */ new Map();
  /**
   * Tabs a late stop is sending back to their admitted page: a refused
   * commit before that page commits again (it now redirects to a refused
   * origin, say) sends the tab to about:blank instead of around again.
   */
  returning = /* @__PURE__ */ new Set();
  get constrained() {
    return constrained(this.policy);
  }
  /** Whether the guard holds the debugger on every owned tab: origin lists constrain, or local folders are admitted. */
  get holding() {
    return this.constrained || this.localFiles;
  }
  /**
   * Takes the policy the host's welcome carries. A welcome without a
   * readable one never gets here: its decoding (host-connection.ts)
   * refuses the connection, since running unguarded on a policy nobody
   * could read would fail open.
   */
  welcomed(welcome) {
    this.set(welcome.origins, welcome.local_files).catch((e) => this.log.warn(`origin policy: ${errorText2(e)}`));
  }
  /**
   * The host's policy: attachments and holds follow it. A new host may
   * admit other folders, so no local page counts as checked any more.
   */
  async set(policy, localFiles = false) {
    this.policy = policy;
    this.localFiles = localFiles;
    this.checkedRequest.clear();
    this.checkedPage.clear();
    for (const tabId of this.ownedTabs()) {
      const session = this.debuggers.current(tabId);
      if (session !== void 0) await this.intercept(session).catch((e) => this.log.warn(`origin guard, tab ${tabId}: ${errorText2(e)}`));
    }
    await this.sync();
  }
  /**
   * Holds every owned tab while the guard holds tabs (origin lists
   * constrain navigation, or local folders are admitted), and lets go of
   * holds that no longer apply (a tab reconciliation revoked is detached
   * at once: attachments are for owned tabs only).
   */
  async sync() {
    for (const tabId of this.debuggers.heldTabs()) {
      if (this.ownership.owner(tabId) === void 0) await this.debuggers.release(tabId);
      else if (!this.holding) this.debuggers.unhold(tabId);
    }
    if (this.holding) await Promise.all(this.ownedTabs().map((tabId) => this.arm(tabId)));
  }
  /**
   * Attaches the guard to an owned tab while it holds tabs, and
   * resolves once it intercepts; a refusal leaves it
   * unguarded (logged). A hold already being made is awaited, not skipped:
   * an open's first load must not start before the guard is in place
   * (the blank tab's own commit may have begun the hold a moment before).
   */
  async arm(tabId) {
    if (!this.holding || this.ownership.owner(tabId) === void 0) return;
    const tab = await this.api.tabs.get(tabId);
    const url = tab === void 0 ? "" : tab.url || tab.pendingUrl || "";
    if (tab === void 0 || url !== "" && routeOf(url) === RouteTabOnly) return;
    try {
      await this.debuggers.hold(tabId);
    } catch (e) {
      this.log.warn(`origin guard: tab ${tabId} is not guarded: ${errorText2(e)}`);
    }
  }
  /** Throws refused(url) when there is one: for web targets (a reload, a scripted click's link). */
  check(url) {
    const f = this.refused(url);
    if (f !== void 0) throw f;
  }
  /**
   * Throws when an explicit target (a navigate step, a history
   * destination) is not admitted: a plain local file is the host's to
   * decide when local folders are admitted, anything else check's.
   */
  async admit(url) {
    if (!this.localFiles || !isFile(url)) return this.check(url);
    const r = await this.askHost(url);
    if (r !== void 0) throw failure(r.code, r.reason);
  }
  /**
   * The failure of a target the policy does not admit, or undefined;
   * outcome says how far the work got. Decided here alone, so a local
   * file is refused (a popup toward one, say): only admit asks the host.
   */
  refused(url, outcome = OutcomeNotStarted) {
    const r = this.localFiles && isFile(url) ? { code: CodeLocalFileDenied, reason: LocalFilePopup } : refusal(this.policy, url);
    if (r === void 0) return void 0;
    const message = r.code === CodeOriginPolicyUnverifiable ? `the URL cannot be checked against the origin policy: ${r.reason}` : r.reason;
    return failure(r.code, message, outcome);
  }
  /** Calls stopped for each navigation of the tab the guard stops, until the returned function is called. */
  onStop(tabId, stopped2) {
    const set = this.listeners.get(tabId) ?? /* @__PURE__ */ new Set();
    this.listeners.set(tabId, set);
    set.add(stopped2);
    return () => {
      set.delete(stopped2);
      if (set.size === 0) this.listeners.delete(tabId);
    };
  }
  /**
   * Why page work may not read the tab's local page, or undefined when it
   * may (or url is no local file): the host admitted its document's
   * request, paused on the attachment the tab still has, so every file
   * the page loaded since was asked about too.
   */
  unreadableFile(tabId, url) {
    if (!isLocalFile(url)) return void 0;
    if (!this.localFiles) return refusal(NO_POLICY, url)?.reason;
    const page = this.checkedPage.get(tabId);
    const session = this.debuggers.current(tabId);
    const same = page !== void 0 && page.session === session && !page.session.detached && withoutFragment(page.url) === withoutFragment(url);
    return same ? void 0 : LocalFileUnchecked;
  }
  /** Records which local page a top-frame commit shows, and whether its request was checked on this attachment. */
  committed(tabId, url) {
    const request = this.checkedRequest.get(tabId);
    this.checkedRequest.delete(tabId);
    this.checkedPage.delete(tabId);
    const session = this.debuggers.current(tabId);
    if (request === void 0 || session === void 0 || !isFile(url) || request.session !== session || session.detached) return;
    if (withoutFragment(request.url) === withoutFragment(url)) this.checkedPage.set(tabId, { session, url });
  }
  /** Whether the tab's document requests pause in Fetch (the debugger guard). */
  intercepting(tabId) {
    const session = this.debuggers.current(tabId);
    return session !== void 0 && this.topFrames.has(session);
  }
  /**
   * The guard without the debugger: a refused top-frame navigation of an
   * owned tab nothing intercepts is stopped before it commits when
   * window.stop() still can, else taken back after its commit. A refused
   * commit on an intercepting tab escaped Fetch (a page restored from the
   * back-forward cache by the page's own history.back() makes no request)
   * and is taken back the same way.
   */
  async unguarded(tabId, url, committed) {
    const local = isLocalFile(url);
    if (!local && (!this.constrained || !isWeb(url)) || this.ownership.owner(tabId) === void 0) return;
    if (!committed && this.intercepting(tabId)) return;
    if (committed && this.localFiles && isFile(url) && this.unreadableFile(tabId, url) === void 0) return;
    const r = this.localFiles && isFile(url) ? await this.askHost(url) : refusal(this.policy, url);
    if (r === void 0) return;
    const reload = committed || local;
    const showing = reload && !committed ? (await this.api.tabs.get(tabId))?.url : void 0;
    const last = this.admitted.get(tabId) ?? (showing || void 0);
    const back = last !== void 0 && !this.returning.has(tabId) && refusal(this.policy, last) === void 0 ? last : "about:blank";
    if (back !== "about:blank" && this.admitted.get(tabId) === void 0) this.admitted.set(tabId, back);
    const how = `${committed ? "it committed before it could be stopped; " : ""}AgentTab loaded ${back} again`;
    const stop = { url, reason: reload ? `${r.reason} (${how})` : r.reason, ...reload ? { late: true } : {} };
    this.log.info(`origin guard (no debugger) stopped tab ${tabId}: ${stop.reason}`);
    this.tell(tabId, stop);
    try {
      if (!reload) await this.api.scripting.stopLoading(tabId);
      else {
        if (committed && back !== "about:blank") this.returning.add(tabId);
        await this.api.tabs.navigate(tabId, back);
      }
    } catch (e) {
      this.log.warn(`origin guard, tab ${tabId}: ${errorText2(e)}`);
    }
  }
  /**
   * Tells the steps watching the tab; with none watching, the owner's next
   * result for the tab reports it. A late stop replaces the earlier report
   * of the same navigation (window.stop() came too late for it).
   */
  tell(tabId, stop) {
    const watching = [...this.listeners.get(tabId) ?? []];
    for (const l of watching) l(stop);
    const taskId = this.ownership.owner(tabId)?.taskId;
    if (watching.length > 0 || taskId === void 0) return;
    const earlier = (this.unreported.get(tabId) ?? []).filter((u) => !(stop.late === true && u.stop.url === stop.url && u.stop.late !== true));
    this.unreported.set(tabId, [...earlier, { taskId, stop }].slice(-MaxOriginStops));
  }
  /**
   * The stops no step reported since the last call, for the task's next
   * result on the tab; empties the list. Stops from when another task
   * owned the tab are dropped, never shown to the new owner.
   */
  takeUnreported(tabId, taskId) {
    const stops = (this.unreported.get(tabId) ?? []).filter((u) => u.taskId === taskId).map((u) => u.stop);
    this.unreported.delete(tabId);
    return stops;
  }
  ownedTabs() {
    return this.ownership.taskIds().flatMap((id) => [...this.ownership.task(id)?.tabs.keys() ?? []]);
  }
  /**
   * Starts the interception on an attachment while the guard holds tabs:
   * document requests under origin lists, file: requests of any type
   * while local folders are admitted, or both; with neither it ends the
   * interception. Prerendering is switched off with it: a prerendered page
   * loads in a frame of its own and is shown without a new request, so the
   * top frame's interception would never see it. (Chromium 156 accepts
   * Page.setPrerenderingAllowed; these headless runs never prerender, so
   * its effect was not observed here.)
   */
  async intercept(session) {
    if (!this.holding) {
      if (!this.topFrames.delete(session)) return;
      await Promise.all([session.send("Fetch.disable", {}, { duringDialog: true }), session.send("Page.setPrerenderingAllowed", { isAllowed: true })]);
      return;
    }
    const top = session.send("Page.getFrameTree").then((r) => strField(fieldsOf(fieldsOf(r["frameTree"], "frameTree")["frame"], "frameTree.frame"), "id", "frame"));
    this.topFrames.set(session, top);
    const patterns = [...this.constrained ? [DOCUMENTS] : [], ...this.localFiles ? [LOCAL_FILES] : []];
    await Promise.all([top, session.send("Fetch.enable", { patterns }, { duringDialog: true }), session.send("Page.setPrerenderingAllowed", { isAllowed: false })]);
  }
  /**
   * Answers one paused request: let it go, stop a top-frame navigation
   * the policy refuses, or fail a local file the host refuses in a frame
   * or as a subresource. A request paused in an iframe's own session
   * (interception is only enabled on the tab's) is decided the same way:
   * an unanswered one would hang its frame.
   */
  async decide(tabId, sessionId, params) {
    const session = this.debuggers.current(tabId);
    if (session === void 0) return;
    let requestId;
    let url;
    let frameId;
    let document2;
    try {
      const p = fieldsOf(params, "Fetch.requestPaused");
      requestId = strField(p, "requestId", "Fetch.requestPaused");
      url = strField(fieldsOf(p["request"], "Fetch.requestPaused.request"), "url", "request");
      frameId = strField(p, "frameId", "Fetch.requestPaused");
      document2 = strField(p, "resourceType", "Fetch.requestPaused") === "Document";
    } catch (e) {
      this.log.warn(`origin guard: ${errorText2(e)}`);
      return;
    }
    let topId;
    try {
      topId = await this.topFrames.get(session);
    } catch (e) {
      if (session.detached) return;
      this.log.warn(`origin guard, tab ${tabId}: the top frame's id is unknown (${errorText2(e)}); every document request of the tab's own session counts as its navigation`);
    }
    const top = document2 && sessionId === void 0 && (topId === void 0 || frameId === topId);
    const owned = this.ownership.owner(tabId) !== void 0;
    if (isLocalFile(url)) {
      const r2 = this.localFiles && isFile(url) ? await this.askHost(url) : refusal(this.policy, url);
      if (r2 === void 0 && top && topId !== void 0) this.checkedRequest.set(tabId, { session, url });
      return this.answer(tabId, session, sessionId, requestId, r2 === void 0 ? void 0 : { url, reason: r2.reason }, top && owned);
    }
    const r = top && owned ? refusal(this.policy, url) : void 0;
    return this.answer(tabId, session, sessionId, requestId, r === void 0 ? void 0 : { url, reason: r.reason }, true);
  }
  /**
   * Sends the answer to a paused request: let it go, or refuse it. A
   * refused navigation of the tab is stopped with an empty 204 and
   * reported; anything else refused (a frame's document, a subresource)
   * fails as blocked and is only logged.
   */
  async answer(tabId, session, sessionId, requestId, stop, navigation2) {
    let method = "Fetch.continueRequest";
    let answer3 = { requestId };
    if (stop !== void 0 && navigation2) {
      this.log.info(`origin guard stopped tab ${tabId}: ${stop.reason}`);
      this.tell(tabId, stop);
      [method, answer3] = ["Fetch.fulfillRequest", { requestId, responseCode: 204 }];
    } else if (stop !== void 0) {
      this.log.info(`origin guard refused a load of tab ${tabId}: ${stop.reason}`);
      [method, answer3] = ["Fetch.failRequest", { requestId, errorReason: "BlockedByClient" }];
    }
    await session.send(method, answer3, { sessionId, duringDialog: true }).catch((e) => this.log.warn(`origin guard, ${method} on tab ${tabId}: ${errorText2(e)}`));
  }
};

// src/background/act/validate.ts
function invalid(message, recovery = "Fix the step and send the batch again; nothing was run.") {
  return new Failure(CodeInvalidParams, OutcomeNotStarted, message, recovery);
}
function needRef(ref2, what) {
  if (ref2 === void 0 || ref2 === "") throw invalid(`${what} needs a ref`);
  if (refNumber(ref2) === void 0) throw invalid(`${what}: ${JSON.stringify(ref2)} is not a ref (refs look like "e12" in a snapshot)`);
}
var NAVIGABLE = new Set(NavigableSchemes.map((s) => `${s}:`));
function checkNavigateUrl(raw, what) {
  const bad = (why) => failure(CodeInvalidURL, `${what}: url ${why}`);
  if (raw === "") throw bad("is required");
  if (raw.length > MaxURLBytes) throw bad(`is longer than ${MaxURLBytes} characters`);
  if (isLocalFile(raw) && !isFile(raw)) throw failure(CodeLocalFileDenied, `${what}: url: ${LocalFileViewSource}`);
  let u;
  try {
    u = new URL(raw.trim());
  } catch {
    throw bad("does not parse");
  }
  if (u.protocol === "file:") return;
  if (!NAVIGABLE.has(u.protocol)) throw bad(`has scheme ${JSON.stringify(u.protocol.slice(0, -1))}, which AgentTab does not navigate to`);
  if ((u.protocol === "http:" || u.protocol === "https:") && u.hostname === "") throw bad("has no host");
  if (u.protocol === "view-source:") {
    const inner = u.href.slice(u.protocol.length);
    if (/^view-source:/i.test(inner.trim())) throw bad("nests view-source: inside view-source:");
    checkNavigateUrl(inner, what);
  }
}
function count2(v, name, def, max, what) {
  if (v === void 0) return def;
  if (!Number.isInteger(v) || v < 1 || v > max) throw invalid(`${what}: ${name} must be between 1 and ${max}, or omitted for ${def}; it was ${v}`);
  return v;
}
function checkWait(c, what) {
  const timeoutMs = count2(c.timeout_ms, "timeout_ms", DefaultWaitMs, MaxWaitMs, what);
  let idleMs = DefaultIdleMs;
  switch (c.until) {
    case "network_idle":
      idleMs = count2(c.idle_ms, "idle_ms", DefaultIdleMs, MaxIdleMs, what);
      break;
    case "download":
      break;
    case "url":
      if ((c.url ?? "") === "") throw invalid(`${what}: until url needs url`);
      break;
    case "text":
      if ((c.text ?? "") === "") throw invalid(`${what}: until text needs text`);
      break;
    case "ref":
      needRef(c.ref, `${what}: until ref`);
      waitState(c, what);
      break;
    case "load":
    case "navigation":
      break;
  }
  if (c.idle_ms !== void 0 && c.until !== "network_idle") throw invalid(`${what}: idle_ms is only for until network_idle`);
  return { timeoutMs, idleMs };
}
function waitState(c, what) {
  const s = c.state ?? "";
  if (s === "") return WaitVisible;
  const found = WaitStateValues.find((w) => w === s);
  if (found !== void 0) return found;
  throw invalid(`${what}: state must be one of ${WaitStateValues.map((w) => JSON.stringify(w)).join(", ")}`);
}
function given(s) {
  return Object.entries(s).filter(([k, v]) => k !== "kind" && k !== "ref" && v !== void 0).map(([k]) => k);
}
function unknownKind(kind) {
  throw invalid(`${JSON.stringify(kind)} is not a step kind`);
}
function checkStep(s, index) {
  const what = `step ${index} (${s.kind})`;
  if (!isStepKind(s.kind)) throw invalid(`${what}: ${JSON.stringify(s.kind)} is not a step kind`);
  const rule = StepRules[s.kind];
  if (rule.ref === RefRequired || s.ref !== void 0) {
    if (rule.ref === RefNone) throw invalid(`${what} takes no ref`);
    needRef(s.ref, what);
  }
  if (s.to_ref !== void 0) needRef(s.to_ref, `${what} to_ref`);
  const fields2 = given(s);
  const needs = rule.needs ?? [];
  const takes = rule.takes ?? [];
  for (const f of needs) if (!fields2.includes(f)) throw invalid(`${what} needs ${f}`);
  for (const f of fields2) if (!needs.includes(f) && !takes.includes(f)) throw invalid(`${what} takes no ${f}; see the browser_act schema for each kind's fields`);
  switch (s.kind) {
    case "type":
      if ((s.text ?? "") === "") throw invalid(`${what} needs text (use fill or clear to empty a field)`);
      return;
    case "press": {
      const c = parseChord(s.keys ?? "");
      if (typeof c === "string") throw invalid(`${what}: ${c}`);
      return;
    }
    case "select":
      if ((s.values ?? []).length === 0) throw invalid(`${what} needs values (option labels or values)`);
      return;
    case "scroll":
      if (s.ref === void 0 && (s.delta_x ?? 0) === 0 && (s.delta_y ?? 0) === 0) {
        throw invalid(`${what} needs a ref to scroll into view, or delta_x/delta_y`);
      }
      return;
    case "navigate":
      checkNavigateUrl(s.url ?? "", what);
      return;
    case "wait":
      if (s.wait !== void 0) checkWait(s.wait, what);
      return;
    case "click":
    case "double_click":
    case "hover":
    case "focus":
    case "fill":
    case "clear":
    case "check":
    case "uncheck":
    case "drag":
    case "dialog":
    case "reload":
    case "back":
    case "forward":
    case "close":
    case "upload_file":
      return;
    default:
      return unknownKind(s.kind);
  }
}
function checkSteps(steps) {
  if (steps.length === 0 || steps.length > MaxSteps) throw invalid(`a batch has 1 to ${MaxSteps} steps, not ${steps.length}`);
  steps.forEach(checkStep);
}

// src/background/origins/userinfo.ts
var AUTHORITY_END = /[/?#"\\ \t\r\n]/;
var CREDENTIAL_SCHEMES = /* @__PURE__ */ new Set(["http", "https", "ws", "wss", "ftp"]);
function trailingScheme(text) {
  const m = /[A-Za-z0-9+.-]*$/.exec(text);
  return (m?.[0] ?? "").toLowerCase();
}
function withoutUserinfo(s) {
  let out = "";
  let rest = s;
  for (let i = rest.indexOf("://"); i >= 0; i = rest.indexOf("://")) {
    out += rest.slice(0, i + 3);
    rest = rest.slice(i + 3);
    const end = rest.search(AUTHORITY_END);
    const authority = end < 0 ? rest : rest.slice(0, end);
    const at = authority.lastIndexOf("@");
    const credential = authority.slice(0, at).includes(":") || CREDENTIAL_SCHEMES.has(trailingScheme(out.slice(0, -3)));
    if (at >= 0 && credential) rest = rest.slice(at + 1);
  }
  return out + rest;
}

// src/background/pagework/glob.ts
function matchUrl(rawPattern, rawUrl) {
  const pattern = withoutUserinfo(rawPattern);
  const url = withoutUserinfo(rawUrl);
  if (!pattern.includes("*")) return pattern === url;
  const re = pattern.split("*").map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join(".*");
  return new RegExp(`^${re}$`, "s").test(url);
}

// src/background/pagework/wait-net.ts
function networkIdleProbe(page, idleMs) {
  return async () => {
    const { inflight, quietMs } = page.session.network.state();
    if (inflight > 0) return { ok: false, seen: `${inflight} request${inflight === 1 ? "" : "s"} in flight` };
    return { ok: quietMs >= idleMs, seen: `no request in flight for ${quietMs} ms` };
  };
}
function downloadProbe(log, tabId, startedAt) {
  let start;
  return async () => {
    start ??= log.take(tabId, startedAt - RECENT_MS);
    if (start === void 0) return { ok: false, seen: "no download started by this tab" };
    const download = downloadInfo(start);
    const size = start.totalBytes > 0 ? ` of ${start.totalBytes}` : "";
    return { ok: finished(start), seen: `${download.file_name || download.url}: ${download.state}, ${download.bytes}${size} bytes`, download };
  };
}

// src/background/pagework/wait.ts
var POLL_MS = 100;
async function waitFor(ctx2, taskId, tabId, c, scan = true) {
  const { timeoutMs, idleMs } = checkWait(c, "condition");
  const started = ctx2.clock.now();
  const first = await ownedPage(ctx2, taskId, tabId);
  const loop = (probe, pageWork = false) => poll(ctx2, taskId, tabId, timeoutMs, probe, pageWork);
  const onPage2 = (work) => onRoute(ctx2, tabId, work).catch((e) => {
    throw readFailure(e, CodeChromeError);
  });
  let outcome;
  let servedBy;
  switch (c.until) {
    case "text":
    case "ref": {
      await admitPageWork(ctx2, tabId, first.url);
      const want = c.until === "ref" ? waitState(c, "condition") : "visible";
      outcome = await onPage2(async (route) => {
        servedBy = route.name;
        return loop(c.until === "text" ? route.textProbe(c.text ?? "", c.gone === true) : await route.refProbe(c.ref ?? "", want), true);
      });
      break;
    }
    case "navigation": {
      let navigated = false;
      const mine = (d) => {
        if (d.tabId === tabId && d.frameId === 0) navigated = true;
      };
      const stops = [ctx2.chrome.webNavigation.onCommitted(mine), ctx2.chrome.webNavigation.onHistoryStateUpdated(mine), ctx2.chrome.webNavigation.onReferenceFragmentUpdated(mine)];
      try {
        outcome = await loop(async () => ({ ok: navigated, seen: navigated ? "a navigation committed" : "no navigation since the wait began" }));
      } finally {
        for (const s of stops) s();
      }
      break;
    }
    case "load":
      outcome = await loop(async () => {
        const tab = await ctx2.chrome.tabs.get(tabId);
        return { ok: tab?.status === "complete", seen: tab?.status === "complete" ? "loaded" : "loading" };
      });
      break;
    case "url": {
      const pattern = c.url ?? "";
      outcome = await loop(async () => {
        const url = (await ctx2.chrome.tabs.get(tabId))?.url ?? "";
        return { ok: matchUrl(pattern, url), seen: url };
      });
      break;
    }
    case "network_idle":
      await admitPageWork(ctx2, tabId, first.url);
      servedBy = RouteDebugger;
      outcome = await onPage2((route) => loop(networkIdleProbe(route.debugger("a network_idle wait"), idleMs), true));
      break;
    case "download":
      await admitPageWork(ctx2, tabId, first.url);
      servedBy = RouteDebugger;
      outcome = await onPage2((route) => {
        route.debugger("a download wait");
        return loop(downloadProbe(ctx2.pages.downloads, tabId, started), true);
      });
      break;
  }
  const end = await ownedPage(ctx2, taskId, tabId);
  const challenge = scan ? await scanChallenges(ctx2, { tabId, url: end.url, revision: end.owned.revision, context: "wait" }) : void 0;
  return {
    satisfied: outcome.ok,
    elapsed_ms: ctx2.clock.now() - started,
    url: end.url,
    title: end.tab.title ?? "",
    revision: end.owned.revision,
    last_seen: outcome.seen,
    ...outcome.download === void 0 ? {} : { download: outcome.download },
    ...servedBy === void 0 ? {} : { served_by: servedBy },
    ...challenge === void 0 ? {} : { challenge }
  };
}
function poll(ctx2, taskId, tabId, timeoutMs, probe, pageWork) {
  const api2 = ctx2.chrome;
  return new Promise((resolve, reject) => {
    let timedOut = false;
    let wake = () => void 0;
    const nudge = (id) => {
      if (id === tabId) wake();
    };
    const stops = [
      ctx2.clock.after(timeoutMs, () => {
        timedOut = true;
        wake();
      }),
      api2.tabs.onUpdated((id) => nudge(id)),
      api2.webNavigation.onCommitted((d) => nudge(d.tabId)),
      api2.webNavigation.onHistoryStateUpdated((d) => nudge(d.tabId)),
      api2.webNavigation.onReferenceFragmentUpdated((d) => nudge(d.tabId)),
      api2.webNavigation.onDOMContentLoaded((d) => nudge(d.tabId)),
      api2.webNavigation.onCompleted((d) => nudge(d.tabId)),
      api2.webNavigation.onErrorOccurred((d) => nudge(d.tabId))
    ];
    const finish2 = (f) => {
      for (const s of stops) s();
      f();
    };
    const round = async () => {
      for (; ; ) {
        if (ctx2.ownership.owner(tabId)?.taskId !== taskId) throw notOwned2();
        if (pageWork) await refuseWhileHandedOff(ctx2, tabId, "AgentTab does not read the page meanwhile, so the wait ended");
        const seen = await probe();
        if (seen.ok || timedOut) return finish2(() => resolve(seen));
        await new Promise((next) => {
          const cancel = ctx2.clock.after(POLL_MS, () => next());
          wake = () => {
            cancel();
            wake = () => void 0;
            next();
          };
        });
      }
    };
    round().catch((e) => finish2(() => reject(e)));
  });
}

// src/background/act/drop-guard.ts
async function refuseSensitivePoint(page, index, at, way, outcome) {
  const found = await sensitiveAt(page, index, index.top, at);
  if (found !== void 0) throw refusal2(found, outcome, way === "into" ? "drops no text into it" : "drags no text out of it", " under the pointer");
}
async function sensitiveAt(page, index, frame, at) {
  const offset = await page.offset(frame, index);
  const x = at.x - offset.x;
  const y = at.y - offset.y;
  const f = await page.agent(frame).fieldAt(x, y);
  if (f.sensitive) return { what: f.description || "the field under the pointer", unseen: false };
  if (!f.sealed && !f.frame) return void 0;
  return withElement(page, frame, (elements) => elements.elementAt(x, y), async (objectId) => {
    if (f.sealed) return sealedSensitive(page, index, frame, objectId, f.description);
    const childId = await childFrameOf(page, frame, objectId);
    if (childId === void 0) return void 0;
    const child = index.frames.get(childId);
    if (child === void 0) return { what: f.description || "the frame", unseen: true };
    return sensitiveAt(page, index, child, at);
  });
}

// src/background/act/drop-point.ts
var EDGE_SHARE = 0.25;
var COLUMN = { horizontal: false, reversed: false };
async function dropPoint(page, to, toRef, position2) {
  if (position2 === void 0 || position2 === DropCenter) return { x: to.x, y: to.y };
  const axis = await listAxis(page, to, toRef);
  const toward = position2 === DropBefore !== axis.reversed ? -1 : 1;
  const shift = toward * (0.5 - EDGE_SHARE) * (axis.horizontal ? to.info.width : to.info.height);
  return axis.horizontal ? { x: to.x + shift, y: to.y } : { x: to.x, y: to.y + shift };
}
async function listAxis(page, to, toRef) {
  const read2 = await withElement(
    page,
    to.frame,
    (elements) => elements.element(toRef),
    (objectId) => page.session.send("Runtime.callFunctionOn", { functionDeclaration: axisAt.toString(), objectId, returnByValue: true }, { sessionId: to.frame.sessionId })
  );
  if (read2 === void 0) return COLUMN;
  const v = fieldsOf(fieldsOf(read2["result"], "the list axis")["value"], "the list axis's value");
  return typeof v["horizontal"] === "boolean" && typeof v["reversed"] === "boolean" ? { horizontal: v["horizontal"], reversed: v["reversed"] } : COLUMN;
}
function axisAt() {
  const box = this.getBoundingClientRect();
  const neighbours = [
    [this.previousElementSibling, (e) => e.previousElementSibling, -1],
    [this.nextElementSibling, (e) => e.nextElementSibling, 1]
  ];
  for (const [first, next, side] of neighbours) {
    let el = first;
    while (el !== null && el.getClientRects().length === 0) el = next(el);
    if (el === null) continue;
    const r = el.getBoundingClientRect();
    const sameRow = r.top < box.bottom && r.bottom > box.top;
    const sameColumn = r.left < box.right && r.right > box.left;
    if (sameRow === sameColumn) continue;
    const d = sameRow ? r.left + r.right - box.left - box.right : r.top + r.bottom - box.top - box.bottom;
    return { horizontal: sameRow, reversed: d * side < 0 };
  }
  return { horizontal: false, reversed: false };
}

// src/background/act/drag.ts
var DRAG_MOVES = 5;
var MOVE_PAUSE_MS = 10;
var REST_MS = 60;
var SETTLE_MS2 = 1e3;
var SETTLE_LOOK_MS = 50;
async function drag(page, clock, progress, ref2, toRef, position2) {
  const from = await aim(page, ref2, void 0, progress);
  if (from.info.sensitive) throw sensitiveField(from.info.description || ref2, OutcomeNotStarted, "drags no text out of it");
  const to = await aim(page, toRef, void 0, progress);
  if (to.info.sensitive) throw sensitiveField(to.info.description || toRef, OutcomeNotStarted, "drops no text into it");
  const again = await page.agent(from.frame).target(ref2);
  if (!again.ok || moved(from.info, again)) {
    throw notActionable(ref2, from.info, "no_box");
  }
  const drop = await dropPoint(page, to, toRef, position2);
  await refuseSensitivePoint(page, to.index, from, "out of", OutcomeNotStarted);
  await refuseSensitivePoint(page, to.index, drop, "into", OutcomeNotStarted);
  const across = !await sameList(page, from, ref2, to, toRef);
  const follow = async () => {
    if (!across) return void 0;
    let now = await page.agent(to.frame).target(toRef);
    for (const end = clock.now() + SETTLE_MS2; now.ok && clock.now() < end; ) {
      await sleep(clock, SETTLE_LOOK_MS);
      const next = await page.agent(to.frame).target(toRef);
      const still = !moved(now, next);
      now = next;
      if (still) break;
    }
    if (!now.ok || !moved(to.info, now)) return void 0;
    const there = await dropPoint(page, { ...to, info: now, x: now.x + to.x - to.info.x, y: now.y + to.y - to.info.y }, toRef, position2);
    await refuseSensitivePoint(page, to.index, there, "into", OutcomeDispatched);
    return there;
  };
  const html5 = await gesture(page, clock, progress, from, drop, follow);
  const where = position2 === void 0 || position2 === DropCenter ? "onto" : position2;
  return `${html5 ? "dropped" : "dragged"} ${where} ${to.info.description || toRef}${html5 ? " (HTML5 drag and drop)" : ""}`;
}
async function gesture(page, clock, progress, from, first, follow) {
  let drop = first;
  let data;
  const stop = page.session.on("Input.dragIntercepted", (_s, p) => {
    data = p["data"];
  });
  let entered = false;
  const dragEvent = (type, at) => page.session.send("Input.dispatchDragEvent", { type, x: at.x, y: at.y, data, modifiers: 0 });
  const moveTo = async (at) => {
    if (data === void 0) return mouse(page, progress, "mouseMoved", at, { button: "left", buttons: 1 });
    await dragEvent(entered ? "dragOver" : "dragEnter", at);
    entered = true;
  };
  await page.session.send("Input.setInterceptDrags", { enabled: true });
  try {
    await pumpFrames(
      page,
      clock,
      async () => {
        await mouse(page, progress, "mouseMoved", from, { button: "none", buttons: 0 });
        await mouse(page, progress, "mousePressed", from, { button: "left", buttons: 1, clickCount: 1 });
        let dropped = false;
        try {
          for (let i = 1; i <= DRAG_MOVES; i++) {
            if (i > 1) await sleep(clock, MOVE_PAUSE_MS);
            await moveTo({ x: from.x + (drop.x - from.x) * i / DRAG_MOVES, y: from.y + (drop.y - from.y) * i / DRAG_MOVES });
          }
          await sleep(clock, REST_MS);
          const followed = await follow();
          if (followed !== void 0) {
            drop = followed;
            await moveTo(drop);
            await sleep(clock, REST_MS);
          }
          if (data !== void 0) {
            if (!entered) await moveTo(drop);
            await refuseSensitivePoint(page, await page.frames(), drop, "into", OutcomeDispatched);
            await dragEvent("drop", drop);
            dropped = true;
          }
        } finally {
          if (data === void 0) await mouse(page, progress, "mouseReleased", drop, { button: "left", buttons: 0, clickCount: 1 });
          else if (!dropped) await dragEvent("dragCancel", drop).catch(() => void 0);
        }
      },
      true
    );
  } finally {
    stop();
    await page.session.send("Input.setInterceptDrags", { enabled: false }).catch(() => void 0);
  }
  return data !== void 0;
}
async function sameList(page, from, ref2, to, toRef) {
  if (!sameDoc(from.frame.doc, to.frame.doc) || from.frame.sessionId !== to.frame.sessionId) return false;
  const answer3 = await withElement(
    page,
    from.frame,
    (elements) => elements.element(ref2),
    (source) => withElement(
      page,
      to.frame,
      (elements) => elements.element(toRef),
      (target) => page.session.send(
        "Runtime.callFunctionOn",
        { functionDeclaration: "function (other) { return this.parentElement === other.parentElement; }", objectId: source, arguments: [{ objectId: target }], returnByValue: true },
        { sessionId: from.frame.sessionId }
      )
    )
  );
  return answer3 !== void 0 && fieldsOf(answer3["result"], "the list check")["value"] === true;
}

// src/background/act/history.ts
async function moveInHistory(env, progress, url, kind) {
  const { ctx: ctx2, tabId } = env;
  if (routeOf(url) === RouteTabOnly) {
    throw failure(CodeOriginPolicyUnverifiable, `${kind} is refused on this browser page while the origin policy restricts navigation: Chrome does not say where it leads before it goes there`);
  }
  return ctx2.pages.use(tabId, async (page) => {
    const history = await page.session.send("Page.getNavigationHistory");
    const entries = history["entries"];
    const at = numField(history, "currentIndex", "Page.getNavigationHistory") + (kind === "back" ? -1 : 1);
    const raw = Array.isArray(entries) ? entries[at] : void 0;
    if (raw === void 0) {
      throw new Failure(CodeNavigationFailed, OutcomeNotStarted, `the tab has no ${kind === "back" ? "previous" : "next"} page in its history`, "Check the tab's URL with browser_tabs, or navigate explicitly.");
    }
    const entry = fieldsOf(raw, "a history entry");
    const destination2 = strField(entry, "url", "a history entry");
    await ctx2.origins.admit(destination2);
    progress.dispatched = true;
    await page.session.send("Page.navigateToHistoryEntry", { entryId: numField(entry, "id", "a history entry") });
    return { outcome: OutcomeDispatched, note: `${kind} to ${destination2}` };
  });
}

// src/background/act/navigation.ts
var FOLLOW_MS = 1e4;
var GRACE_MS = 25;
var SETTLE_MS3 = 1e3;
var ABORT_GRACE_MS = 500;
var ABORTED = "net::ERR_ABORTED";
var NavigationWatch = class {
  /**
   * Listens from now on: create it before the step dispatches anything.
   * started reports, sooner than webNavigation, that the page asked to
   * navigate its top frame; refusals, that the origin guard stopped a
   * navigation of the tab (which Chrome then reports as aborted).
   */
  constructor(api2, clock, tabId, started = () => () => void 0, dialogs = () => () => void 0, refusals = () => () => void 0) {
    this.clock = clock;
    const top = (f) => (d) => {
      if (d.tabId !== tabId || d.frameId !== 0) return;
      f(d);
      this.wake();
    };
    const nav = api2.webNavigation;
    this.stops.push(
      started(() => {
        this.began = true;
        this.wake();
      }),
      dialogs(() => {
        this.held = true;
        this.wake();
      }),
      refusals((stop) => {
        this.refusal = stop;
        this.began = true;
        this.wake();
      }),
      clock.after(FOLLOW_MS, () => {
        this.expired = true;
        this.wake();
      }),
      nav.onBeforeNavigate(top(() => this.began = true)),
      nav.onCommitted(top(() => this.result = NavigationCommitted)),
      nav.onHistoryStateUpdated(top(() => this.result ??= NavigationSameDocument)),
      nav.onReferenceFragmentUpdated(top(() => this.result ??= NavigationSameDocument)),
      nav.onErrorOccurred((d) => {
        if (d.tabId !== tabId || d.frameId !== 0 || this.result === NavigationCommitted) return;
        this.result = d.error === ABORTED ? NavigationAbandoned : NavigationRefused;
        this.wake();
      }),
      nav.onDOMContentLoaded(top(() => this.loaded = true)),
      nav.onCompleted(top(() => this.loaded = true)),
      api2.tabs.onRemoved((id) => {
        if (id !== tabId) return;
        this.result ??= NavigationUnknown;
        this.loaded = true;
        this.wake();
      })
    );
  }
  clock;
  began = false;
  result;
  loaded = false;
  expired = false;
  /** A JavaScript dialog (beforeunload) holds the navigation until a dialog step answers it. */
  held = false;
  /** The navigation the origin guard stopped (origin-guard.ts), if it did. */
  refusal;
  stops = [];
  wake = () => void 0;
  /**
   * What the step did to the top document. expected: the step itself
   * navigates (navigate, reload, back, forward), so it waits for the
   * outcome; otherwise a navigation that has not begun within graceMs of
   * inputEnded (the step's last input, when it knows it; else of now) is
   * none (undefined). A dialog that opens meanwhile ends the wait: the
   * navigation stays pending behind it (unknown). A navigation the origin
   * guard stopped, and nothing committed after it, is refused.
   */
  async settle(expected, graceMs, inputEnded) {
    if (!expected && !this.began && this.result === void 0) {
      const left = inputEnded === void 0 ? graceMs : graceMs - (this.clock.now() - inputEnded);
      await this.until(() => this.began || this.result !== void 0 || this.held, left);
      if (!this.began && this.result === void 0) return void 0;
    }
    await this.until(() => this.result !== void 0 || this.expired || this.held);
    if (this.result === NavigationAbandoned && this.refusal === void 0) await this.until(() => this.result === NavigationCommitted, ABORT_GRACE_MS);
    const result = this.result ?? NavigationUnknown;
    if (this.refusal !== void 0 && (this.refusal.late === true || result !== NavigationCommitted && result !== NavigationSameDocument)) return NavigationRefused;
    if (result === NavigationCommitted) await this.until(() => this.loaded, SETTLE_MS3);
    return result;
  }
  stop() {
    for (const s of this.stops) s();
  }
  /** Resolves when done() holds (checked on every event) or after ms, if given. */
  until(done, ms) {
    if (done() || ms !== void 0 && ms <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const cancel = ms === void 0 ? () => void 0 : this.clock.after(ms, () => {
        this.wake = () => void 0;
        resolve();
      });
      this.wake = () => {
        if (!done()) return;
        cancel();
        this.wake = () => void 0;
        resolve();
      };
    });
  }
};

// src/background/act/upload.ts
function fileName(path) {
  const parts = path.split(/[\\/]/);
  return parts[parts.length - 1] ?? "";
}
function readInput() {
  const file = this instanceof HTMLInputElement && this.type === "file";
  const files = file && this instanceof HTMLInputElement ? this.files : null;
  const names = [];
  for (let i = 0; files !== null && i < files.length; i++) names.push(files[i]?.name ?? "");
  return { file, disabled: this instanceof HTMLInputElement && this.disabled, count: names.length, names };
}
function asFileInput(v) {
  const f = fieldsOf(fieldsOf(v, "the file input")["value"], "the file input's value");
  const names = Array.isArray(f["names"]) ? f["names"].filter((n) => typeof n === "string") : [];
  return { file: f["file"] === true, disabled: f["disabled"] === true, count: typeof f["count"] === "number" ? f["count"] : 0, names };
}
async function uploadFile(page, progress, step) {
  const ref2 = step.ref ?? "";
  const path = step.path ?? "";
  const name = fileName(path);
  if (path === "" || name === "") throw new Failure(CodeInvalidParams, OutcomeNotStarted, "the upload_file step has no staged file", "Pass path, the absolute path of the file to upload.");
  const { frame } = await page.locate(ref2);
  const { sessionId } = frame;
  const read2 = (objectId) => page.session.send("Runtime.callFunctionOn", { functionDeclaration: readInput.toString(), objectId, returnByValue: true }, { sessionId }).then((r) => asFileInput(r["result"]));
  const done = await withElement(page, frame, (elements) => elements.element(ref2), async (objectId) => {
    const before = await read2(objectId);
    if (!before.file) throw new Failure(CodeTargetNotActionable, OutcomeNotStarted, `${ref2} is not a file input (<input type=file>)`, "Take a fresh snapshot and pass the ref of the page's file input (often labelled Choose file, Browse or Upload).");
    if (before.disabled) throw new Failure(CodeTargetNotActionable, OutcomeNotStarted, `${ref2} is a disabled file input`, "Wait until the page enables it, then retry.");
    progress.dispatched = true;
    try {
      await page.session.send("DOM.setFileInputFiles", { files: [path], objectId }, { sessionId });
    } catch {
      throw new Failure(CodeTargetNotActionable, OutcomeNotStarted, `Chrome did not set the file on ${ref2}`, "Take a fresh snapshot and retry; if it fails again, hand the upload to the user with browser_handoff.");
    }
    const after = await read2(objectId).catch(() => void 0);
    const confirmed = after !== void 0 && after.count === 1 && after.names[0] === name;
    return { outcome: confirmed ? OutcomeConfirmed : OutcomeDispatched, note: confirmed ? `set ${JSON.stringify(name)} on the file input` : `asked Chrome to set ${JSON.stringify(name)} on the file input; it does not read back` };
  });
  if (done === void 0) throw new Failure(CodeTargetNotActionable, OutcomeNotStarted, `${ref2} is gone from the page`, "Take a fresh snapshot and retry.");
  return done;
}

// src/background/review/reviews.ts
var YOLO_KEY = "yolo";
var STAGES_KEY = "stages";
var RETIRE_GRACE_MS = 6e4;
function survivesYolo(e) {
  return e.effect === EffectBookmarkRemove;
}
function newReviewHandle() {
  return randomHex(ReviewHandleBytes);
}
var Reviews = class {
  constructor(storage, clock, log, changed = () => void 0) {
    this.storage = storage;
    this.clock = clock;
    this.log = log;
    this.changed = changed;
  }
  storage;
  clock;
  log;
  changed;
  on = true;
  entries = /* @__PURE__ */ new Map();
  cancelExpiry = () => void 0;
  /** YOLO mode: recognised effects run without review (the default). */
  get yolo() {
    return this.on;
  }
  async load() {
    const yolo = await this.storage.get(YOLO_KEY);
    if (yolo !== void 0 && typeof yolo !== "boolean") this.log.warn("an unreadable YOLO mode record was read as off");
    this.on = yolo === void 0 || yolo === true;
    const stored = await this.storage.get(STAGES_KEY);
    this.entries = /* @__PURE__ */ new Map();
    if (Array.isArray(stored)) {
      for (const e of stored) {
        if (isEntry(e)) this.entries.set(e.handle, e);
        else this.log.warn("an unreadable stage entry was dropped");
      }
    } else if (stored !== void 0) {
      this.log.warn("an unreadable stage list was dropped");
    }
    const dropped = [...this.entries.values()].filter((e) => !survivesYolo(e));
    if (this.on && dropped.length > 0) {
      this.log.info(`YOLO mode is on: ${dropped.length} stage entries left from before were dropped`);
      for (const e of dropped) this.entries.delete(e.handle);
      await this.save();
      return;
    }
    this.announce();
  }
  /** The user's switch. Turning it on drops every entry (the host discards their stages: NativeYolo). */
  async setYolo(on) {
    await this.storage.set(YOLO_KEY, on);
    this.on = on;
    const dropped = [...this.entries.values()].filter((e) => !survivesYolo(e));
    if (on && dropped.length > 0) {
      for (const e of dropped) this.entries.delete(e.handle);
      await this.save();
    }
  }
  async add(entry) {
    this.entries.set(entry.handle, entry);
    await this.save();
  }
  /** The entries the popup shows, oldest first; those long past their expiry are retired. */
  async list() {
    const now = this.clock.now();
    const old = [...this.entries.values()].filter((e) => e.expiresAt + RETIRE_GRACE_MS <= now);
    if (old.length > 0) {
      for (const e of old) this.entries.delete(e.handle);
      await this.save();
    }
    return [...this.entries.values()].filter((e) => e.expiresAt > now).sort((a, b) => a.createdAt - b.createdAt);
  }
  /** Whether the handle is still one the human can see (the host decides expiry). */
  has(handle) {
    return this.entries.has(handle);
  }
  /** The entry whose handle's hex SHA-256 is digest (the host keeps only digests: protocol ExtCommitParams), or undefined. */
  async entryOf(digest) {
    for (const e of this.entries.values()) if (await sha256Hex(e.handle) === digest) return e;
    return void 0;
  }
  /** How many stages wait for the human's Approve or Deny: pending and not expired (what the badge counts). */
  pending() {
    const now = this.clock.now();
    let n = 0;
    for (const e of this.entries.values()) if (e.state === "pending" && e.expiresAt > now) n++;
    return n;
  }
  get(handle) {
    return this.entries.get(handle);
  }
  /** The human's Approve (the entry waits for the commit) or Deny (it goes). Answers the entry as it was, or undefined. */
  async markReviewed(handle, approve) {
    const e = this.entries.get(handle);
    if (e === void 0) return void 0;
    if (approve) this.entries.set(handle, { ...e, state: "approved" });
    else this.entries.delete(handle);
    await this.save();
    return e;
  }
  async remove(handle) {
    if (this.entries.delete(handle)) await this.save();
  }
  /** The task finished or was ended: its stages are discarded. */
  async dropTask(taskId) {
    let dropped = false;
    for (const e of [...this.entries.values()]) {
      if (e.taskId === taskId) dropped = this.entries.delete(e.handle) || dropped;
    }
    if (dropped) await this.save();
  }
  /** A new entry's times: it expires StageTTLMs after now. */
  times() {
    const createdAt = this.clock.now();
    return { createdAt, expiresAt: createdAt + StageTTLMs };
  }
  async save() {
    this.announce();
    await this.storage.set(STAGES_KEY, [...this.entries.values()]);
  }
  /** Reports pending(), and again when the next pending stage expires. */
  announce() {
    this.changed(this.pending());
    this.cancelExpiry();
    const now = this.clock.now();
    const next = Math.min(...[...this.entries.values()].filter((e) => e.state === "pending" && e.expiresAt > now).map((e) => e.expiresAt));
    this.cancelExpiry = Number.isFinite(next) ? this.clock.after(next - now, () => this.announce()) : () => void 0;
  }
};
function isField(v) {
  return isFields(v) && typeof v["label"] === "string" && typeof v["value"] === "string" && typeof v["sensitive"] === "boolean";
}
function isEntry(v) {
  if (!isFields(v)) return false;
  const f = v["fields"];
  return typeof v["handle"] === "string" && typeof v["taskId"] === "string" && typeof v["tabId"] === "number" && EffectValues.some((e) => e === v["effect"]) && typeof v["origin"] === "string" && typeof v["control"] === "string" && Array.isArray(f) && f.every(isField) && typeof v["createdAt"] === "number" && typeof v["expiresAt"] === "number" && (v["state"] === "pending" || v["state"] === "approved") && (v["bookmarkId"] === void 0 || typeof v["bookmarkId"] === "string");
}

// src/background/review/stage.ts
var POINTER = /* @__PURE__ */ new Set(["click", "double_click", "check", "uncheck"]);
var TYPED_CHARS = 120;
function pressKeys(step) {
  const chord = parseChord(step.keys ?? "");
  if (typeof chord === "string") return null;
  return chord.key.code === "Enter" || chord.key.code === "Space" ? step.keys ?? null : null;
}
function classifiedAs(step) {
  if (POINTER.has(step.kind)) return step.ref === void 0 ? void 0 : { ref: step.ref, press: null, lineBreak: false, upload: null };
  if (step.kind === "upload_file") return step.ref === void 0 ? void 0 : { ref: step.ref, press: null, lineBreak: false, upload: fileName(step.path ?? "") };
  if (step.kind === "press") {
    const press2 = pressKeys(step);
    return press2 === null ? void 0 : { ref: step.ref ?? null, press: press2, lineBreak: false, upload: null };
  }
  if (step.kind === "type" && step.ref !== void 0 && /[\r\n]/.test(step.text ?? "")) return { ref: step.ref, press: "Enter", lineBreak: true, upload: null };
  return void 0;
}
function effectOf(report) {
  return EffectValues.find((e) => e === report.effect) ?? null;
}
async function classify(agents, c) {
  const reports = await Promise.all(agents.map((agent) => classifyOne(agent, c)));
  return reports.find((r) => effectOf(r) !== null) ?? reports[0] ?? NO_EFFECT;
}
async function classifyOne(agent, c) {
  if (c.lineBreak && c.ref !== null && (await agent.keyTarget(c.ref, "press")).multiline !== true) return NO_EFFECT;
  const report = await agent.effect(c.ref, c.press);
  return c.upload === null ? report : { ...report, effect: EffectUpload, rule: "upload_file" };
}
function previewOf(effect, report, url, step, c) {
  const fields2 = report.preview.fields.map((f) => ({ label: f.label, value: f.sensitive ? "" : f.value, sensitive: f.sensitive }));
  if (c.upload !== null) fields2.push({ label: "File to upload", value: c.upload, sensitive: false });
  if (c.lineBreak) fields2.push({ label: "Typed by this step, line breaks as Enter", value: clipped(step.text ?? ""), sensitive: false });
  return { effect, control: report.preview.control, origin: shownOrigin({ url }), fields: fields2 };
}
function clipped(text) {
  const chars = [...text];
  return chars.length <= TYPED_CHARS ? text : chars.slice(0, TYPED_CHARS).join("") + "…";
}
function fingerprint(handle, report) {
  return hmacHex(handle, report.descriptor);
}
function previewDigest(handle, p) {
  const fields2 = p.fields.map((f) => ({ label: f.label, value: f.value, sensitive: f.sensitive }));
  return hmacHex(handle, JSON.stringify({ effect: p.effect, control: p.control, origin: p.origin, fields: fields2 }));
}
async function stageStep(ctx2, ask) {
  if (ctx2.reviews.yolo) return void 0;
  const report = await classify(ask.agents, ask.classified);
  const effect = effectOf(report);
  if (effect === null) return void 0;
  const handle = newReviewHandle();
  const preview = previewOf(effect, report, ask.url, ask.step, ask.classified);
  const [print, digest] = await Promise.all([fingerprint(handle, report), previewDigest(handle, preview)]);
  await ctx2.reviews.add({ handle, taskId: ask.taskId, tabId: ask.tabId, ...preview, ...ctx2.reviews.times(), state: "pending" });
  return { step: ask.index, review_handle: handle, effect, fingerprint: print, preview_digest: digest };
}
async function sameTarget(at, staged) {
  const { ref: ref2 } = at.classified;
  if (ref2 !== null && (await Promise.all(at.agents.map((a) => a.target(ref2)))).some((t) => t.reason === "detached")) return false;
  const report = await classify(at.agents, at.classified);
  const effect = effectOf(report);
  if (effect !== staged.effect) return false;
  const preview = previewOf(effect, report, at.url, at.step, at.classified);
  const [print, digest] = await Promise.all([fingerprint(staged.handle, report), previewDigest(staged.handle, preview)]);
  return print === staged.fingerprint && digest === staged.previewDigest;
}

// src/background/act/prepare.ts
var INPUT2 = /* @__PURE__ */ new Set(["click", "double_click", "hover", "focus", "type", "fill", "clear", "press", "select", "check", "uncheck", "drag"]);
async function prepare(ctx2, route, step, at, progress, stage) {
  if (INPUT2.has(step.kind)) {
    for (const ref2 of [step.ref, step.to_ref]) {
      if (ref2 === void 0) continue;
      const { agent: agent2 } = await route.locate(ref2);
      if (await agent2.inChallenge(ref2)) {
        throw failure(CodeChallengePresent, `${ref2} is part of a recognised bot challenge (or the page is one); AgentTab gives it no input`);
      }
    }
  }
  const classified = classifiedAs(step);
  if (classified === void 0 || at.commit === void 0 && ctx2.reviews.yolo) return void 0;
  if (classified.lineBreak && route.name !== RouteDebugger) return void 0;
  const agents = await classifiers(route, step, classified);
  const where = { step, classified, url: at.url, agents };
  if (at.commit !== void 0) {
    if (!await sameTarget(where, at.commit)) {
      const what = classified.ref ?? "the focused element";
      throw failure(CodeStageTargetChanged, `${what} is no longer the control that was staged, or what it would send changed (its effect, description or form's values)`);
    }
    return void 0;
  }
  const [agent] = agents;
  if (classified.press === null && classified.upload === null && classified.ref !== null && agent !== void 0) await actionable(agent, classified.ref, progress);
  const staged = await stageStep(ctx2, { ...where, taskId: at.taskId, tabId: at.tabId, index: at.index });
  if (staged === void 0) return void 0;
  stage(staged);
  return { outcome: OutcomeStaged, note: `staged for review: ${staged.effect}; nothing was done` };
}
async function classifiers(route, step, classified) {
  if (classified.ref !== null) return [(await route.locate(classified.ref)).agent];
  const page = route.debugger(`a ${step.kind} step`);
  return [...(await page.frames()).frames.values()].map((frame) => page.agent(frame));
}
function lasting(info) {
  return info.reason === "detached" || info.reason === "re_aimed";
}
async function actionable(agent, ref2, progress) {
  let info = await agent.target(ref2);
  const patience = progress.patience;
  if (info.ok) return;
  if (lasting(info) || patience === void 0 || progress.waitedMs >= patience.timeoutMs) throw notActionable(ref2, info);
  const { clock } = patience;
  const started = clock.now();
  const until = started + patience.timeoutMs - progress.waitedMs;
  try {
    for (let n = 0; until - clock.now() > 0; n++) {
      await sleep(clock, Math.min(WAIT_PAUSES_MS[n] ?? WAIT_PAUSE_MS, until - clock.now()));
      info = await agent.target(ref2);
      if (info.ok) return;
      if (lasting(info)) throw notActionable(ref2, info);
    }
  } finally {
    progress.waitedMs += clock.now() - started;
  }
  const d = notActionable(ref2, info).detail;
  throw new Failure(d.code, d.outcome, `${d.message} (after waiting ${Math.round(clock.now() - started)} ms)`, d.recovery);
}

// src/background/act/scroll.ts
async function scrollWith(agent, progress, step) {
  const dx = step.delta_x ?? 0;
  const dy = step.delta_y ?? 0;
  const r = step.ref;
  if (r !== void 0 && dx === 0 && dy === 0) {
    progress.dispatched = true;
    const info = await agent.target(r);
    if (!info.ok) throw notActionable(r, info);
    return { outcome: OutcomeConfirmed, note: `${info.description || r} is in view` };
  }
  const before = await agent.scrollBy(r ?? null, 0, 0);
  progress.dispatched = true;
  const after = await agent.scrollBy(r ?? null, dx, dy);
  const what = r ?? "the page";
  if (after.x !== before.x || after.y !== before.y) {
    return { outcome: OutcomeConfirmed, note: `scrolled ${what} to ${Math.round(after.x)},${Math.round(after.y)}` };
  }
  return { outcome: OutcomeDispatched, note: `${what} did not move (already at its end, or not scrollable)` };
}

// src/background/act/select.ts
async function selectOptions(agent, progress, ref2, values) {
  const info = await agent.target(ref2);
  if (info.sensitive) throw sensitiveField(info.description || ref2, OutcomeNotStarted, "chooses no option in it");
  progress.dispatched = true;
  const r = await agent.select(ref2, values);
  if (!r.ok) throw new Failure(CodeTargetNotActionable, OutcomeNotStarted, `cannot select in ${ref2}: ${r.error ?? "refused"}`, "Check the options in a new browser_snapshot, then retry.");
  return { outcome: OutcomeConfirmed, note: `selected ${r.selected.map((s) => JSON.stringify(s)).join(", ")}` };
}

// src/background/act/steps.ts
function navigationOf(step) {
  return StepRules[step.kind].navigates;
}
async function runStep(env, step, index) {
  const { ctx: ctx2, taskId, tabId } = env;
  const progress = new Progress({ clock: ctx2.clock, timeoutMs: env.actionableMs });
  const receipt = { index, kind: step.kind, outcome: OutcomeNotStarted };
  const follow = navigationOf(step);
  const watch = follow === NavigatesNever ? void 0 : new NavigationWatch(
    ctx2.chrome,
    ctx2.clock,
    tabId,
    (began) => ctx2.pages.onNavigationStart(tabId, began),
    (opened) => ctx2.pages.onDialog(tabId, opened),
    (stopped2) => ctx2.origins.onStop(tabId, stopped2)
  );
  const popups = follow === NavigatesPossible ? ctx2.children.watch(tabId) : void 0;
  try {
    const { url } = await ownedPage(ctx2, taskId, tabId);
    const dialog = ctx2.pages.session(tabId)?.dialog;
    if (dialog !== void 0 && step.kind !== "dialog" && step.kind !== "close") throw dialogFailure(dialog.info);
    if (routed(step.kind) && step.kind !== "dialog") await admitPageWork(ctx2, tabId, url);
    const done = await perform(env, step, progress, { index, url });
    receipt.outcome = done.outcome;
    if (done.note !== void 0) receipt.note = done.note;
    if (done.servedBy !== void 0) receipt.served_by = done.servedBy;
    if (done.lacksUserActivation === true) receipt.lacks_user_activation = true;
    if (watch !== void 0 && done.outcome !== OutcomeStaged) {
      const navigation2 = await watch.settle(follow === NavigatesExpected, GRACE_MS, progress.inputEnded);
      if (navigation2 !== void 0) receipt.navigation = navigation2;
      const dialog2 = ctx2.pages.session(tabId)?.dialog;
      if (receipt.navigation === NavigationRefused && watch.refusal !== void 0) {
        stopped(receipt, watch.refusal);
      } else if (dialog2 !== void 0 && receipt.navigation === NavigationUnknown) {
        receipt.note = `the page opened a ${dialog2.info.type} dialog; the navigation waits for a dialog step`;
      } else if (follow === NavigatesExpected) {
        settleLifecycle(receipt, step);
      }
    }
    return withWait(receipt, progress);
  } catch (e) {
    if (e instanceof DialogOpened && progress.dispatched) {
      receipt.outcome = OutcomeDispatched;
      receipt.note = `the page opened a ${e.dialog.type} dialog: ${JSON.stringify(e.dialog.message)}`;
      return withWait(receipt, progress);
    }
    const failure2 = stepFailure(e, progress);
    return withWait({ ...receipt, outcome: failure2.detail.outcome, error: failure2.detail }, progress);
  } finally {
    watch?.stop();
    for (const p of await popups?.stop(ctx2.clock) ?? []) env.popups.push({ step: index, ...p });
  }
}
function stopped(receipt, stop) {
  const f = stopFailure(stop, receipt.outcome, `the navigation to ${stop.url} was stopped: ${stop.reason}; the tab stays on its page`);
  receipt.error = f.detail;
  receipt.outcome = f.detail.outcome;
}
function settleLifecycle(receipt, step) {
  switch (receipt.navigation) {
    case NavigationCommitted:
    case NavigationSameDocument:
      receipt.outcome = OutcomeConfirmed;
      return;
    case NavigationRefused: {
      const f = new Failure(CodeNavigationFailed, OutcomeDispatched, `the ${step.kind} did not commit: Chrome reported an error loading the page`, "Check the URL and the network, then retry.");
      receipt.error = f.detail;
      receipt.outcome = f.detail.outcome;
      return;
    }
    case NavigationAbandoned:
      receipt.note = "the navigation was dropped (a download, an empty 204 answer, or another navigation replaced it)";
      return;
    case NavigationUnknown:
    case void 0:
      receipt.note = "no commit within 10 s; the page may still be loading";
      return;
  }
}
function onPage(env, step, progress, at, work) {
  return onRoute(
    env.ctx,
    env.tabId,
    async (route) => {
      if (!route.serves(step.kind)) throw route.refuse(`a ${step.kind} step`);
      const commit = env.commit === void 0 ? {} : { commit: env.commit };
      const held = await prepare(env.ctx, route, step, { taskId: env.taskId, tabId: env.tabId, ...at, ...commit }, progress, (s) => {
        env.staged = s;
      });
      if (held !== void 0) return { ...held, servedBy: route.name };
      return { ...await work(route), servedBy: route.name };
    },
    () => !progress.dispatched
  );
}
function input(route, done) {
  return route.lacksUserActivation ? { ...done, lacksUserActivation: true } : done;
}
function debuggerPage(route, step) {
  return route.debugger(`a ${step.kind} step`);
}
function ref(step) {
  return step.ref ?? "";
}
async function perform(env, step, progress, at) {
  const { ctx: ctx2, tabId } = env;
  const url = at.url;
  const clock = ctx2.clock;
  switch (step.kind) {
    case "click":
    case "double_click":
      return onPage(env, step, progress, at, async (route) => {
        const info = await (await route.locate(ref(step))).click(step.kind === "click" ? 1 : 2, progress);
        return input(route, { outcome: OutcomeDispatched, note: `${step.kind === "click" ? "clicked" : "double-clicked"} ${info.description || ref(step)}` });
      });
    case "hover":
      return onPage(env, step, progress, at, async (route) => {
        const page = debuggerPage(route, step);
        const at2 = await aim(page, ref(step), void 0, progress);
        await pumpFrames(page, clock, () => mouse(page, progress, "mouseMoved", at2, { button: "none", buttons: 0 }), true);
        return { outcome: OutcomeDispatched, note: `hovering ${at2.info.description || ref(step)}` };
      });
    case "focus":
      return onPage(env, step, progress, at, async (route) => {
        const { agent } = await route.locate(ref(step));
        const info = await agent.target(ref(step));
        if (!info.ok) throw notActionable(ref(step), info);
        progress.dispatched = true;
        const focused = await agent.focus(ref(step));
        const what = info.description || ref(step);
        return { outcome: focused ? OutcomeConfirmed : OutcomeDispatched, note: focused ? `focused ${what}` : `${what} did not take focus` };
      });
    case "type":
    case "fill":
    case "clear":
      return onPage(env, step, progress, at, async (route) => {
        const target = await route.locate(ref(step));
        return input(route, await target.setValue(step.kind === "clear" ? "" : step.text ?? "", step.kind === "type" ? "type" : "fill", progress));
      });
    case "press":
      return onPage(env, step, progress, at, async (route) => {
        const page = debuggerPage(route, step);
        const frame = step.ref === void 0 ? (await page.frames()).top : (await page.locate(step.ref)).frame;
        return trapped(ctx2, tabId, () => installTrap(page, frame), async () => void 0, () => press(page, progress, step.keys ?? "", step.ref));
      });
    case "select":
      return onPage(env, step, progress, at, async (route) => {
        const { agent } = await route.locate(ref(step));
        return input(route, await selectOptions(agent, progress, ref(step), step.values ?? []));
      });
    case "check":
    case "uncheck":
      return onPage(env, step, progress, at, (route) => setChecked(route, progress, ref(step), step.kind === "check"));
    case "scroll":
      return onPage(env, step, progress, at, async (route) => {
        const agent = step.ref === void 0 ? await route.top() : (await route.locate(step.ref)).agent;
        return scrollWith(agent, progress, step);
      });
    case "drag":
      return onPage(env, step, progress, at, async (route) => ({ outcome: OutcomeDispatched, note: await drag(debuggerPage(route, step), clock, progress, ref(step), step.to_ref ?? "", step.position) }));
    case "navigate":
      await ctx2.origins.admit(step.url ?? "");
      return lifecycle(progress, `navigate to ${step.url ?? ""}`, () => ctx2.chrome.tabs.navigate(tabId, step.url ?? ""));
    case "reload":
      if (isWeb(url)) ctx2.origins.check(url);
      return lifecycle(progress, "reload", () => ctx2.chrome.tabs.reload(tabId));
    case "back":
      if (ctx2.origins.constrained) return moveInHistory(env, progress, url, "back");
      return lifecycle(progress, "go back", () => ctx2.chrome.tabs.goBack(tabId));
    case "forward":
      if (ctx2.origins.constrained) return moveInHistory(env, progress, url, "forward");
      return lifecycle(progress, "go forward", () => ctx2.chrome.tabs.goForward(tabId));
    case "close": {
      progress.dispatched = true;
      await ctx2.pages.release(tabId);
      const closed = await ctx2.chrome.tabs.remove(tabId);
      return { outcome: OutcomeConfirmed, note: closed ? "closed the tab" : "the tab was already closed" };
    }
    case "dialog":
      return onPage(env, step, progress, at, (route) => answerDialog(debuggerPage(route, step), progress, step));
    case "upload_file":
      return onPage(env, step, progress, at, (route) => uploadFile(debuggerPage(route, step), progress, step));
    case "wait": {
      const condition = step.wait ?? { until: "load" };
      const r = await waitFor(ctx2, env.taskId, tabId, condition, false);
      const route = r.served_by === void 0 ? {} : { servedBy: r.served_by };
      if (r.satisfied) return { outcome: OutcomeConfirmed, note: `${condition.until} after ${r.elapsed_ms} ms${r.last_seen ? `: ${r.last_seen}` : ""}`, ...route };
      throw failure(CodeWaitTimeout, `until ${condition.until} did not hold within ${r.elapsed_ms} ms; last seen: ${r.last_seen ?? "nothing"}`);
    }
    default:
      return unknownKind(step.kind);
  }
}
async function lifecycle(progress, what, f) {
  try {
    await f();
  } catch (e) {
    throw new Failure(CodeNavigationFailed, OutcomeNotStarted, `Chrome refused to ${what}: ${errorText2(e)}`, "Check the tab's history or the URL, then retry.");
  }
  progress.dispatched = true;
  return { outcome: OutcomeDispatched };
}
async function setChecked(route, progress, r, want) {
  const target = await route.locate(r);
  const now = await target.agent.checked(r);
  const word = want ? "checked" : "unchecked";
  if (now === void 0) {
    throw new Failure(CodeTargetNotActionable, OutcomeNotStarted, `${r} is not a checkbox, radio button or switch`, "Use click for other elements.");
  }
  if (now === want) return { outcome: OutcomeConfirmed, note: `already ${word}` };
  const info = await target.click(1, progress);
  const after = await target.agent.checked(r);
  const what = info.description || r;
  return input(
    route,
    after === want ? { outcome: OutcomeConfirmed, note: `${word} ${what}` } : { outcome: OutcomeDispatched, note: `clicked ${what}, but it is still ${want ? "unchecked" : "checked"}` }
  );
}
async function answerDialog(page, progress, step) {
  const session = page.session;
  const dialog = session.dialog;
  if (dialog === void 0) {
    throw new Failure(CodeInvalidParams, OutcomeNotStarted, "no JavaScript dialog is open on the tab", "Remove the dialog step; dialogs are reported in act results and in dialog_open errors.");
  }
  const accept = step.accept === true;
  const params = { accept };
  if (step.prompt_text !== void 0) params.promptText = step.prompt_text;
  progress.dispatched = true;
  await session.send("Page.handleJavaScriptDialog", params, { sessionId: dialog.sessionId, duringDialog: true });
  session.dialog = void 0;
  return { outcome: OutcomeConfirmed, note: `${accept ? "accepted" : "dismissed"} the ${dialog.info.type} dialog` };
}

// src/background/act/act.ts
async function act(ctx2, p) {
  checkSteps(p.actions);
  const { owned } = await ownedPage(ctx2, p.task_id, p.tab_id);
  if (owned.revision !== p.expected_page_revision) {
    throw failure(CodeStaleRevision, `the page is at revision ${owned.revision}, not ${p.expected_page_revision}`);
  }
  const env = { ctx: ctx2, taskId: p.task_id, tabId: p.tab_id, popups: [], actionableMs: p.actionable_timeout_ms ?? 0 };
  const steps = await runSteps(p.actions, (step, index) => runStep(env, step, index));
  return actResult(ctx2, env, owned, steps);
}
async function actResult(ctx2, env, owned, steps) {
  const tab = await ctx2.chrome.tabs.get(env.tabId);
  const url = tab === void 0 ? "" : tab.url || tab.pendingUrl || "";
  const result = {
    steps,
    // The record object outlives a revocation, so a closed tab still has its last revision.
    revision: owned.revision,
    url,
    title: tab?.title ?? "",
    closed: tab === void 0
  };
  const dialog = ctx2.pages.session(env.tabId)?.dialog;
  if (dialog !== void 0) result.dialog = dialog.info;
  if (env.popups.length > 0) result.popups = env.popups;
  if (env.staged !== void 0) result.staged = env.staged;
  if (tab === void 0) {
    ctx2.challenges.forget(env.tabId);
  } else if (dialog === void 0 && ctx2.ownership.owner(env.tabId)?.taskId === env.taskId && reachedPage(ctx2, env.tabId, steps)) {
    const challenge = await scanChallenges(ctx2, { tabId: env.tabId, url, revision: owned.revision, context: "act" });
    if (challenge !== void 0) result.challenge = challenge;
  }
  return result;
}
function reachedPage(ctx2, tabId, steps) {
  return ctx2.challenges.has(tabId) || ctx2.pages.session(tabId) !== void 0 || steps.some((s) => s.served_by !== void 0 && s.outcome !== OutcomeNotStarted);
}

// src/background/pause/pause.ts
async function beginPause(ctx2, reason = PauseByUser) {
  await ctx2.pause.begin(reason);
  ctx2.adoptions.cancelAll();
}
function pausedFailure(message = "the user paused AgentTab; no browser work runs") {
  return failure(CodePaused, message);
}
function pauseRefusal(reason) {
  if (reason !== PauseByDebuggerCancel) return pausedFailure();
  return new Failure(
    CodePaused,
    OutcomeNotStarted,
    `the user clicked Cancel on Chrome's debugging banner ("AgentTab started debugging this browser"), which pauses AgentTab; no browser work runs, and AgentTab does not attach again by itself`,
    "Ask the user to press Resume in the AgentTab popup if they want you to continue, then retry; tell them the task is blocked until then."
  );
}

// src/background/methods/adopt.ts
async function adopt(ctx2, p) {
  const tab = await activeTab(ctx2);
  const owner = ctx2.ownership.owner(tab.id);
  if (owner !== void 0 && owner.taskId === p.task.task_id) return { tab: extTab(tab, owner.tab.revision) };
  if (owner !== void 0) {
    throw new Failure(CodeNotOwned, OutcomeNotStarted, "the active tab belongs to another task", "Ask the user to switch to the tab they want this task to have, then retry.");
  }
  if (ctx2.pause.paused) throw pauseRefusal(ctx2.pause.reason);
  const answer3 = await ctx2.adoptions.ask(
    { taskLabel: p.task.label, taskColor: p.task.color, tabId: tab.id, title: tab.title ?? "", origin: shownOrigin(tab) },
    p.timeout_ms
  );
  if (answer3 === "cancelled") throw pausedFailure("the request to adopt the active tab ended: the user paused AgentTab");
  if (answer3 !== "allow") {
    const why = answer3 === "deny" ? "the user denied it" : `no answer within ${p.timeout_ms} ms`;
    throw failure(CodeNeedsUser, `the request to adopt the active tab was not allowed: ${why}`);
  }
  const now = await ctx2.chrome.tabs.get(tab.id);
  if (now === void 0 || ctx2.ownership.owner(tab.id) !== void 0) {
    throw failure(CodeNeedsUser, "the tab the user allowed was closed or taken in the meantime");
  }
  let groupId;
  try {
    groupId = await joinTaskGroup(ctx2, p.task, tab.id, now.windowId);
  } catch (e) {
    throw failure(CodeGroupFailed, `Chrome could not put the tab in the task's group (${errorText2(e)}); it stays the user's`);
  }
  const owned = ctx2.ownership.add(p.task, tab.id, groupId, now.windowId, "adopted");
  await ctx2.ownership.persist();
  await ctx2.origins.arm(tab.id);
  const grouped = await ctx2.chrome.tabs.get(tab.id) ?? now;
  return { tab: extTab(grouped, owned.revision) };
}
async function activeTab(ctx2) {
  const windowId = await ctx2.chrome.windows.lastFocusedNormal();
  const tab = windowId === void 0 ? void 0 : await ctx2.chrome.tabs.activeIn(windowId);
  if (tab === void 0) {
    throw new Failure(CodeChromeError, OutcomeNotStarted, "there is no active tab in a normal browser window", "Ask the user to open the page in Chrome, then retry.");
  }
  return tab;
}

// src/background/methods/finish.ts
async function finish(ctx2, p) {
  const record = ctx2.ownership.dropTask(p.task_id);
  await ctx2.ownership.persist();
  await ctx2.notices.clearTask(p.task_id);
  await ctx2.reviews.dropTask(p.task_id);
  return record === void 0 ? { released: [], closed: [] } : release(ctx2, record, new Set(p.close));
}
async function release(ctx2, record, close) {
  const released = [];
  const closed = [];
  for (const [tabId, owned] of record.tabs) {
    await ctx2.pages.release(tabId);
    ctx2.challenges.forget(tabId);
    if (close.has(tabId)) {
      const result = await removeTab(ctx2, tabId);
      if (result === "closed") closed.push(tabId);
      if (result !== "failed") continue;
    }
    const tab = await ctx2.chrome.tabs.get(tabId);
    if (tab === void 0) continue;
    released.push(tabId);
    if (tab.groupId !== owned.groupId) continue;
    await ctx2.chrome.tabs.ungroup(tabId).catch((e) => ctx2.log.warn(`ungroup ${tabId} at finish: ${errorText2(e)}`));
  }
  await releaseStrays(ctx2, record);
  return { released, closed };
}
async function removeTab(ctx2, tabId) {
  try {
    return await ctx2.chrome.tabs.remove(tabId) ? "closed" : "gone";
  } catch (e) {
    ctx2.log.warn(`close ${tabId} at finish: ${errorText2(e)}`);
    return "failed";
  }
}

// src/background/notices/handoff.ts
async function handoff(ctx2, p) {
  const answer3 = async (r) => ({ ...r, user_idle_state: await idleState(ctx2) });
  switch (p.action) {
    case HandoffRequest: {
      if (p.reason === void 0) throw failure(CodeInvalidParams, "a handoff request needs a reason");
      const { tab } = await ownedPage(ctx2, p.task_id, p.tab_id ?? 0);
      const record = await ctx2.notices.request({
        taskId: p.task_id,
        tabId: tab.id,
        reason: p.reason,
        message: p.message ?? "",
        origin: shownOrigin(tab),
        expiresInMs: lifetime(p.expires_in_ms)
      });
      return answer3({ notice: ctx2.notices.ext(record) });
    }
    case HandoffStatus: {
      const tabId = p.tab_id || void 0;
      if (tabId !== void 0 && ctx2.ownership.owner(tabId)?.taskId !== p.task_id) throw notOwned2();
      return answer3({ notices: ctx2.notices.status(p.task_id, tabId).map((n) => ctx2.notices.ext(n)) });
    }
    case HandoffResolve:
    case HandoffDismiss: {
      const id = p.notice_id ?? "";
      const tabId = p.tab_id || void 0;
      const notFound = () => failure(CodeNoticeNotFound, `${JSON.stringify(id)} is not the open notice of a tab of this task (replaced by a newer request, already closed, or never this task's)`);
      const target = ctx2.notices.closable(p.task_id, id, tabId);
      if (target === void 0) throw notFound();
      await refuseWhileHandedOff(ctx2, target.tabId, "its notice stays open until they leave it, so that you can check the page before you resolve or dismiss it");
      const closed = await ctx2.notices.close(p.task_id, id, tabId, p.action === HandoffResolve ? NoticeResolved : NoticeDismissed);
      if (closed === void 0) throw notFound();
      return answer3({ notice: ctx2.notices.ext(closed) });
    }
  }
}
function lifetime(ms) {
  if (ms === void 0 || ms <= 0) return DefaultNoticeSeconds * 1e3;
  return Math.min(ms, MaxNoticeSeconds * 1e3);
}
async function idleState(ctx2) {
  try {
    return await ctx2.chrome.idle.queryState(IdleThresholdSeconds);
  } catch (e) {
    ctx2.log.warn(`idle.queryState: ${errorText2(e)}`);
    return "active";
  }
}

// src/background/methods/list-tabs.ts
async function listTabs(ctx2, p) {
  const tabs = [];
  const revoked = [];
  for (const tabId of p.tab_ids) {
    const owner = ctx2.ownership.owner(tabId);
    if (owner?.taskId !== p.task_id) {
      revoked.push({ task_id: p.task_id, tab_id: tabId, reason: RevokeInconsistent });
      continue;
    }
    const tab = await ctx2.chrome.tabs.get(tabId);
    const lost = lossReason(tab, owner.tab.groupId);
    if (tab === void 0 || lost !== void 0) {
      const reason = lost ?? RevokeClosed;
      revoked.push(await revoke(ctx2, tabId, reason, "answer") ?? { task_id: p.task_id, tab_id: tabId, reason });
      continue;
    }
    tabs.push(extTab(tab, owner.tab.revision));
  }
  return { tabs, revoked };
}

// src/background/methods/load-wait.ts
function waitForLoad(api2, clock, tabId, timeoutMs) {
  return new Promise((resolve) => {
    const stops = [];
    const done = () => {
      for (const stop of stops) stop();
      resolve();
    };
    stops.push(
      api2.tabs.onUpdated((id, change) => {
        if (id === tabId && change.status === "complete") done();
      }),
      api2.tabs.onRemoved((id) => {
        if (id === tabId) done();
      }),
      clock.after(Math.max(0, timeoutMs), done)
    );
    api2.tabs.get(tabId).then(
      (tab) => {
        if (tab === void 0 || tab.status === "complete") done();
      },
      () => done()
    );
  });
}

// src/background/methods/placement.ts
async function defaultWindow(api2, ownership2, taskId) {
  return ownership2.latestWindow(taskId) ?? await api2.windows.lastFocusedNormal();
}

// src/background/methods/open.ts
async function open(ctx2, p) {
  const taskId = p.task.task_id;
  if (p.placement === PlacementNewWindow && (ctx2.ownership.task(taskId)?.tabs.size ?? 0) > 0) {
    throw failure(CodeNewWindowNotEligible, "placement new_window is only accepted while the task owns no tabs");
  }
  const { tab, windowId } = await create(ctx2, p);
  const groupId = await group(ctx2, p, tab.id, windowId);
  ctx2.ownership.add(p.task, tab.id, groupId, windowId);
  await ctx2.ownership.persist();
  let stop;
  try {
    stop = await load(ctx2, tab.id, p);
  } catch (e) {
    await discard(ctx2, tab.id);
    throw e;
  }
  if (stop !== void 0) {
    await discard(ctx2, tab.id);
    throw stopFailure(stop, OutcomeDispatched, `${p.url} led to ${stop.url}, which was stopped: ${stop.reason}; the tab opened for it was closed again`);
  }
  const now = await ctx2.chrome.tabs.get(tab.id);
  const owner = ctx2.ownership.owner(tab.id);
  const lost = lossReason(now, groupId);
  if (now === void 0 || owner?.taskId !== taskId || lost !== void 0) {
    await revoke(ctx2, tab.id, lost ?? RevokeInconsistent, "answer");
    throw failure(CodeNotOwned, "the tab was opened, but it was closed or moved out of the task's group before it could be reported", OutcomeDispatched);
  }
  return { tab: extTab(now, owner.tab.revision) };
}
async function create(ctx2, p) {
  try {
    const windowId = p.placement === PlacementNewWindow ? void 0 : await defaultWindow(ctx2.chrome, ctx2.ownership, p.task.task_id);
    const url = ctx2.origins.holding ? "about:blank" : p.url;
    if (windowId === void 0) {
      const w = await ctx2.chrome.windows.create({ url, focused: false, state: "normal" });
      return { tab: w.tab, windowId: w.id };
    }
    const tab = await ctx2.chrome.tabs.create({ url, windowId, active: false });
    return { tab, windowId: tab.windowId };
  } catch (e) {
    throw new Failure(
      CodeChromeError,
      OutcomeNotStarted,
      `Chrome did not open the tab: ${errorText2(e)}`,
      "Retry the open; if Chrome keeps refusing, check that a normal browser window can be opened."
    );
  }
}
async function load(ctx2, tabId, p) {
  if (!ctx2.origins.holding) {
    await waitForLoad(ctx2.chrome, ctx2.clock, tabId, p.load_wait_ms);
    return void 0;
  }
  let unwatch = () => void 0;
  const stopped2 = new Promise((resolve) => unwatch = ctx2.origins.onStop(tabId, resolve));
  try {
    await ctx2.origins.arm(tabId);
    await ctx2.chrome.tabs.navigate(tabId, p.url).catch((e) => {
      throw new Failure(CodeChromeError, OutcomeNotStarted, `Chrome did not load ${p.url} (${errorText2(e)}); the tab opened for it was closed again`, "Retry the open; check the URL.");
    });
    return await Promise.race([waitForLoad(ctx2.chrome, ctx2.clock, tabId, p.load_wait_ms).then(() => void 0), stopped2]);
  } finally {
    unwatch();
  }
}
async function discard(ctx2, tabId) {
  await revoke(ctx2, tabId, RevokeClosed, "answer");
  await ctx2.chrome.tabs.remove(tabId).catch((e) => ctx2.log.warn(`closing tab ${tabId} after a failed open: ${errorText2(e)}`));
}
async function group(ctx2, p, tabId, windowId) {
  try {
    return await joinTaskGroup(ctx2, p.task, tabId, windowId);
  } catch (e) {
    await ctx2.chrome.tabs.remove(tabId).catch((r) => ctx2.log.warn(`closing tab ${tabId} after a grouping failure: ${errorText2(r)}`));
    throw failure(CodeGroupFailed, `Chrome could not put the new tab in the task's group (${errorText2(e)}); the tab was closed again`);
  }
}

// src/background/methods/reconcile.ts
async function reconcile(ctx2, p) {
  const { ownership: ownership2 } = ctx2;
  const listed = new Set(p.tasks.map((t) => t.task.task_id));
  const ended = [];
  for (const taskId of ownership2.taskIds()) {
    const record = listed.has(taskId) ? void 0 : ownership2.dropTask(taskId);
    if (record !== void 0) ended.push(provenPart(ctx2, record));
  }
  const hostTabs = new Set(p.tasks.flatMap((t) => t.tabs.map((h) => h.tab_id)));
  const result = { kept: [], found: [], revoked: [] };
  const listedRecords = [];
  for (const t of p.tasks) {
    const grouped = ownership2.task(t.task.task_id)?.look ?? t.task;
    const record = ownership2.ensureTask(t.task);
    listedRecords.push(provenPart(ctx2, { look: grouped, tabs: record.tabs }));
    await reconcileTask(ctx2, t, record, grouped, hostTabs, result);
  }
  await ownership2.persist();
  for (const record of ended) await release(ctx2, record, /* @__PURE__ */ new Set());
  for (const record of listedRecords) await releaseStrays(ctx2, record);
  ownership2.trustAll();
  await ctx2.origins.sync();
  return result;
}
function provenPart(ctx2, record) {
  return { look: record.look, tabs: new Map([...record.tabs].filter(([tabId]) => ctx2.ownership.proven(tabId))) };
}
async function reconcileTask(ctx2, t, record, grouped, hostTabs, result) {
  const { ownership: ownership2 } = ctx2;
  const taskId = t.task.task_id;
  const lose = (tabId, reason) => {
    ownership2.drop(tabId);
    result.revoked.push({ task_id: taskId, tab_id: tabId, reason });
  };
  const confirmed = async (tabId, owned, checkGroup) => {
    const tab = await ctx2.chrome.tabs.get(tabId);
    if (tab !== void 0 && lossReason(tab, owned.groupId) === void 0 && (!checkGroup || await isTaskGroup(ctx2, grouped, owned.groupId))) return tab;
    lose(tabId, tab === void 0 ? RevokeClosed : RevokeInconsistent);
    return void 0;
  };
  const listedHere = new Set(t.tabs.map((h) => h.tab_id));
  for (const [tabId, owned] of [...record.tabs]) {
    if (listedHere.has(tabId)) continue;
    if (hostTabs.has(tabId)) {
      lose(tabId, RevokeInconsistent);
      continue;
    }
    if (owned.source === "child" || !ownership2.proven(tabId)) {
      lose(tabId, RevokeInconsistent);
      continue;
    }
    const tab = await confirmed(tabId, owned, true);
    if (tab !== void 0) result.found.push({ task_id: taskId, source: owned.source, tab: extTab(tab, owned.revision) });
  }
  for (const h of t.tabs) {
    const owned = record.tabs.get(h.tab_id);
    if (owned === void 0 || owned.groupId !== h.group_id) {
      lose(h.tab_id, RevokeInconsistent);
      continue;
    }
    const tab = await confirmed(h.tab_id, owned, !ownership2.proven(h.tab_id));
    if (tab === void 0) continue;
    ownership2.raise(h.tab_id, h.revision_floor);
    result.kept.push(extTab(tab, owned.revision));
  }
}

// src/background/review/commit.ts
async function commitStage(ctx2, p) {
  checkSteps([p.step]);
  const entry = await ctx2.reviews.entryOf(p.review_handle_digest);
  if (entry === void 0) throw failure(CodeStageDiscarded, "the stage is no longer held for review in the browser (YOLO mode was turned on, or the task ended)");
  try {
    const { owned, url } = await ownedPage(ctx2, p.task_id, p.tab_id);
    if (owned.revision !== p.expected_page_revision) {
      throw failure(CodeStageStale, `the page is at revision ${owned.revision}, not the staged ${p.expected_page_revision}: it navigated since`);
    }
    if (p.step.kind !== "close") await admitPageWork(ctx2, p.tab_id, url);
    const env = {
      ctx: ctx2,
      taskId: p.task_id,
      tabId: p.tab_id,
      popups: [],
      actionableMs: p.actionable_timeout_ms ?? 0,
      commit: { handle: entry.handle, effect: p.effect, fingerprint: p.fingerprint, previewDigest: await previewDigest(entry.handle, entry) }
    };
    const receipt = await runStep(env, p.step, 0);
    return await actResult(ctx2, env, owned, [receipt]);
  } finally {
    await ctx2.reviews.remove(entry.handle);
  }
}

// src/background/developer/developer.ts
var MAX_EXCEPTION_CHARS = 4e3;
async function developer(ctx2, p) {
  if (p.action === DeveloperCDP && refused(p.method ?? "")) {
    throw failure(CodeInvalidParams, `${p.method ?? ""} is refused in Developer mode: it reaches beyond the owned tab or around the user's managed policy`, OutcomeNotStarted);
  }
  const { url } = await ownedPage(ctx2, p.task_id, p.tab_id);
  await admitPageWork(ctx2, p.tab_id, url);
  await markDeveloper(ctx2, p.task_id);
  let sent = false;
  try {
    const result = await ctx2.pages.use(p.tab_id, (page) => {
      sent = true;
      return p.action === DeveloperCDP ? command(page.session, p) : evaluate(page.session, p.expression ?? "");
    });
    return { result: bounded2(result) };
  } catch (e) {
    throw developerFailure(e, sent);
  }
}
function refused(method) {
  const domain = method.split(".", 1)[0] ?? "";
  return DeveloperRefusedDomains.includes(domain) || DeveloperRefusedMethods.includes(method);
}
function command(session, p) {
  return session.send(p.method ?? "", p.params ?? {}, { timeoutMs: DeveloperCommandMs, duringDialog: true });
}
async function evaluate(session, expression) {
  if (session.dialog !== void 0) throw dialogFailure(session.dialog.info);
  const r = await session.send("Runtime.evaluate", { expression, returnByValue: true, awaitPromise: true }, { timeoutMs: DeveloperCommandMs });
  const details = r["exceptionDetails"];
  if (details !== void 0) return { exception: exceptionText2(details) };
  const remote = r["result"];
  const value = typeof remote === "object" && remote !== null && "value" in remote ? remote.value : void 0;
  return value === void 0 ? {} : { value };
}
function exceptionText2(details) {
  let text = "exception";
  if (typeof details === "object" && details !== null) {
    const ex = "exception" in details ? details.exception : void 0;
    const description = typeof ex === "object" && ex !== null && "description" in ex ? ex.description : void 0;
    const plain = "text" in details ? details.text : void 0;
    if (typeof description === "string") text = description;
    else if (typeof plain === "string") text = plain;
  }
  return text.length > MAX_EXCEPTION_CHARS ? text.slice(0, MAX_EXCEPTION_CHARS) + "…" : text;
}
function bounded2(result) {
  const size = JSON.stringify(result ?? null).length;
  if (size > MaxDeveloperResult) {
    throw new Failure(
      CodeMessageTooBig,
      OutcomeDispatched,
      `the result is ${size} bytes of JSON, over browser_developer's ${MaxDeveloperResult}`,
      "It ran: do not repeat it blindly. Ask for less (evaluate an expression that returns a smaller value, such as a slice or a count)."
    );
  }
  return result;
}
function developerFailure(e, sent) {
  if (e instanceof Failure) return e;
  if (e instanceof DialogOpened) return dialogFailure(e.dialog, sent ? OutcomeUnknown : OutcomeNotStarted);
  if (e instanceof DebuggerDetached) return failure(CodeDebuggerUnavailable, errorText2(e), sent ? OutcomeUnknown : OutcomeNotStarted);
  if (e instanceof CommandTimeout) return failure(CodeChromeError, `the tab did not answer in time (${e.message})`, OutcomeUnknown);
  return failure(CodeChromeError, `the DevTools command failed: ${errorText2(e)}`, sent ? OutcomeUnknown : OutcomeNotStarted);
}

// src/background/credentials/fill.ts
function originOf(url) {
  try {
    const o = new URL(new URL(url).origin);
    const host = o.hostname.endsWith(".") ? o.hostname.slice(0, -1) : o.hostname;
    return `${o.protocol}//${host}${o.port === "" ? "" : `:${o.port}`}`;
  } catch {
    return "";
  }
}
async function credentialFill(ctx2, p) {
  const { owned, url } = await ownedPage(ctx2, p.task_id, p.tab_id);
  if (owned.revision !== p.expected_page_revision) {
    throw failure(CodeStaleRevision, `the page is at revision ${owned.revision}, not ${p.expected_page_revision}; nothing was filled`);
  }
  if (originOf(url) === "" || originOf(url) !== p.origin) {
    throw failure(CodeCredentialTokenInvalid, "the tab is no longer on the origin the token was made for; nothing was filled");
  }
  await admitPageWork(ctx2, p.tab_id, url);
  const dialog = ctx2.pages.session(p.tab_id)?.dialog;
  if (dialog !== void 0) throw dialogFailure(dialog.info);
  let dispatched = false;
  try {
    await onRoute(
      ctx2,
      p.tab_id,
      async (route) => {
        if (route.name === RouteDebugger) {
          const page = route.debugger("a credential fill");
          const { frame } = await page.locate(p.ref);
          refuseOtherOrigin(p, frame.url);
          const agent = page.agent(frame);
          const seen2 = await agent.credentialTarget(p.ref, p.field, null);
          refuseUnfit(p, seen2);
          if (!seen2.focused) throw failure(CodeCredentialFieldUnfit, `${seen2.description || p.ref} did not take focus; nothing was filled`);
          dispatched = true;
          await page.session.send("Input.insertText", { text: p.value });
          const held = await agent.credentialHolds(p.ref, p.value);
          if (held.holds) return;
          if (held.focused) throw notTaken(seen2);
          await clearFocused(page);
          throw failure(CodeValueNotAccepted, `${seen2.description || "the field"} lost focus before the value went in; the field that had focus instead was cleared (select all, Backspace)`, OutcomeUnknown);
        }
        const target = await route.locate(p.ref);
        dispatched = true;
        const seen = await target.agent.credentialTarget(p.ref, p.field, p.value);
        if (!seen.fit) dispatched = false;
        refuseUnfit(p, seen);
        if (!(await target.agent.credentialHolds(p.ref, p.value)).holds) throw notTaken(seen, OutcomeDispatched);
      },
      () => !dispatched
    );
  } catch (e) {
    throw fillFailure(e, dispatched);
  }
  return { filled: true };
}
async function clearFocused(page) {
  const a = { key: "a", code: "KeyA", windowsVirtualKeyCode: 65, modifiers: CONTROL };
  const backspace = { key: "Backspace", code: "Backspace", windowsVirtualKeyCode: 8, modifiers: 0 };
  await page.session.send("Input.dispatchKeyEvent", { type: "rawKeyDown", ...a, commands: ["selectAll"] });
  await page.session.send("Input.dispatchKeyEvent", { type: "keyUp", ...a });
  await page.session.send("Input.dispatchKeyEvent", { type: "rawKeyDown", ...backspace });
  await page.session.send("Input.dispatchKeyEvent", { type: "keyUp", ...backspace });
}
function refuseOtherOrigin(p, frameUrl) {
  const origin = originOf(frameUrl);
  if (origin !== "" && origin === p.origin) return;
  throw failure(CodeCredentialFieldUnfit, `${p.ref} is in a frame of ${origin || "an opaque origin"}, not of the page's origin ${p.origin}; nothing was filled`, OutcomeNotStarted);
}
function refuseUnfit(p, seen) {
  if (seen.fit) return;
  const what = seen.description || p.ref;
  throw failure(CodeCredentialFieldUnfit, `${what} is not a field for a ${p.field.replaceAll("_", "-")}: ${seen.why ?? "unfit"}; nothing was filled`, OutcomeNotStarted);
}
function notTaken(seen, outcome = OutcomeUnknown) {
  return failure(CodeValueNotAccepted, `${seen.description || "the field"} does not hold the value written; the page may limit or reformat it`, outcome);
}
function fillFailure(e, dispatched) {
  if (e instanceof Failure) return e;
  if (e instanceof DialogOpened) return dialogFailure(e.dialog, dispatched ? OutcomeDispatched : OutcomeNotStarted);
  return failure(CodeInternal, `the credential fill failed: ${errorText2(e)}`, dispatched ? OutcomeUnknown : OutcomeNotStarted);
}

// src/background/profile/bounds.ts
function resultBound(maxResults) {
  const n = maxResults ?? DefaultProfileResults;
  if (!Number.isInteger(n) || n < 1 || n > MaxProfileResults) throw failure(CodeInvalidParams, `max_results must be between 1 and ${MaxProfileResults}`);
  return n;
}
function bounded3(items, n) {
  return items.length > n ? { items: items.slice(0, n), truncated: true } : { items, truncated: false };
}
function isWebURL(url) {
  if (url === void 0) return false;
  try {
    return WebSchemes.includes(new URL(url).protocol.slice(0, -1));
  } catch {
    return false;
  }
}
function checkBookmarkURL(url) {
  if (url !== void 0 && !isWebURL(url)) throw failure(CodeInvalidURL, "a bookmark's url must be an absolute http(s) URL");
}

// src/background/profile/bookmarks.ts
var ROOT = "0";
function protection(n) {
  if (n.id === ROOT) return "the invisible root of the bookmarks";
  if (n.parentId === ROOT) return "a top-level bookmarks folder";
  if (n.unmodifiable === "managed") return "a bookmark the administrator manages";
  return void 0;
}
function protectedFailure(why) {
  return failure(CodeBookmarkProtected, `bookmark ${why}: AgentTab never changes it`);
}
async function mustNode(b, id) {
  if (id === void 0 || id === "") throw failure(CodeInvalidParams, "id names the bookmark or folder");
  const n = await b.get(id);
  if (n === void 0) throw failure(CodeProfileNotFound, `no bookmark or folder has id ${JSON.stringify(id)}`);
  return n;
}
async function changeable(b, id) {
  const n = await mustNode(b, id);
  const why = protection(n);
  if (why !== void 0) throw protectedFailure(why);
  return n;
}
async function destination(b, parentId) {
  const parent = await mustNode(b, parentId);
  if (parent.url !== void 0) throw failure(CodeInvalidParams, "parent_id names a bookmark, not a folder");
  if (parent.id === ROOT) throw protectedFailure("the invisible root of the bookmarks");
  if (parent.unmodifiable === "managed") throw protectedFailure("a folder the administrator manages");
}
function itemOf(n) {
  const item = { kind: n.url === void 0 ? "folder" : "bookmark", id: n.id, title: n.title };
  if (n.parentId !== void 0) item.parent_id = n.parentId;
  if (n.index !== void 0) item.index = n.index;
  if (n.url !== void 0) item.url = n.url;
  if (n.dateAdded !== void 0) item.time_ms = n.dateAdded;
  if (n.unmodifiable === "managed") item.managed = true;
  return item;
}
async function searchBookmarks(b, p) {
  const n = resultBound(p.max_results);
  if ((p.query ?? "") === "") throw failure(CodeInvalidParams, "bookmarks_search needs query (words in the title or URL)");
  return bounded3((await b.search(p.query ?? "")).map(itemOf), n);
}
async function bookmarkTree(b, p) {
  const n = resultBound(p.max_results);
  let roots;
  if (p.id === void 0 || p.id === "") roots = await b.getTree();
  else {
    const sub = await b.getSubTree(p.id);
    if (sub === void 0) throw failure(CodeProfileNotFound, `no bookmark or folder has id ${JSON.stringify(p.id)}`);
    roots = [sub];
  }
  const out = [];
  const walk = (nodes) => {
    for (const node of nodes) {
      if (out.length > n) return;
      out.push(itemOf(node));
      walk(node.children ?? []);
    }
  };
  walk(roots);
  return bounded3(out, n);
}
async function createBookmark(b, p) {
  checkBookmarkURL(p.url);
  if ((p.title ?? "") === "" && p.url === void 0) throw failure(CodeInvalidParams, "bookmarks_create needs a title (a folder) or a url (a bookmark)");
  const parentId = p.parent_id ?? await otherBookmarks(b);
  await destination(b, parentId);
  const props = { parentId };
  if (p.index !== void 0) props.index = p.index;
  if (p.title !== void 0) props.title = p.title;
  if (p.url !== void 0) props.url = p.url;
  const made = await b.create(props);
  return { ids: [made.id], state: "created" };
}
async function updateBookmark(b, p) {
  checkBookmarkURL(p.url);
  if (p.title === void 0 && p.url === void 0) throw failure(CodeInvalidParams, "bookmarks_update needs a new title or url");
  const n = await changeable(b, p.id);
  if (n.url === void 0 && p.url !== void 0) throw failure(CodeInvalidParams, "a folder has no url");
  const changes = {};
  if (p.title !== void 0) changes.title = p.title;
  if (p.url !== void 0) changes.url = p.url;
  await b.update(n.id, changes);
  return { ids: [n.id], state: "updated" };
}
async function moveBookmark(b, p) {
  const n = await changeable(b, p.id);
  if (p.parent_id === void 0 && p.index === void 0) throw failure(CodeInvalidParams, "bookmarks_move needs parent_id or index");
  const parentId = p.parent_id ?? n.parentId ?? ROOT;
  await destination(b, parentId);
  const to = { parentId };
  if (p.index !== void 0) to.index = p.index;
  await b.move(n.id, to);
  return { ids: [n.id], state: "moved" };
}
async function otherBookmarks(b) {
  const [root] = await b.getTree();
  const other = root?.children?.[1];
  if (other === void 0) throw failure(CodeInvalidParams, "parent_id names the folder for the new bookmark");
  return other.id;
}

// src/background/profile/reads.ts
async function searchHistory(h, p) {
  const n = resultBound(p.max_results);
  const q = { text: p.query ?? "", startTime: p.start_time_ms ?? 0, maxResults: n + 1 };
  if (p.end_time_ms !== void 0) q.endTime = p.end_time_ms;
  const items = (await h.search(q)).map((e) => {
    const item = { kind: "history", id: e.id, title: e.title ?? "", url: e.url ?? "" };
    if (e.lastVisitTime !== void 0) item.time_ms = Math.round(e.lastVisitTime);
    if (e.visitCount !== void 0) item.visit_count = e.visitCount;
    return item;
  });
  return bounded3(items, n);
}
function downloadItem(d) {
  const item = {
    kind: "download",
    id: String(d.id),
    url: d.finalUrl || d.url,
    filename: d.filename,
    state: d.state,
    paused: d.paused,
    bytes_received: d.bytesReceived,
    total_bytes: d.totalBytes
  };
  const started = Date.parse(d.startTime);
  if (Number.isFinite(started)) item.time_ms = started;
  if (d.error !== void 0) item.error = d.error;
  return item;
}
async function searchDownloads(d, p) {
  const n = resultBound(p.max_results);
  const terms = (p.query ?? "").split(/\s+/).filter((t) => t !== "");
  const q = { limit: n + 1 };
  if (terms.length > 0) q.query = terms;
  return bounded3((await d.search(q)).map(downloadItem), n);
}
async function controlDownload(d, op, p) {
  const id = Number(p.id ?? "");
  if (p.id === void 0 || !Number.isSafeInteger(id) || id < 0) throw failure(CodeInvalidParams, "id names the download (from downloads_search)");
  const [before] = await d.search({ id, limit: 1 });
  if (before === void 0) throw failure(CodeProfileNotFound, `no download has id ${id}`);
  if (op === ProfileDownloadsCancel) await d.cancel(id);
  else if (op === ProfileDownloadsPause) await d.pause(id);
  else await d.resume(id);
  const [after] = await d.search({ id, limit: 1 });
  const state = after === void 0 ? "gone" : after.paused ? "paused" : after.state;
  return { ids: [String(id)], state };
}

// src/background/profile/remove.ts
var NO_TAB = -1;
function bookmarkFingerprint(handle, n) {
  return hmacHex(handle, JSON.stringify([n.id, n.title, n.url ?? null, n.parentId ?? null]));
}
async function removable(b, n) {
  const why = protection(n);
  if (why !== void 0) throw protectedFailure(why);
  if (n.url === void 0 && ((await b.getSubTree(n.id))?.children?.length ?? 0) > 0) {
    throw failure(CodeBookmarkFolderNotEmpty, "the folder is not empty: bookmarks_remove removes one bookmark or one empty folder");
  }
}
async function stageRemove(ctx2, b, taskId, p) {
  const n = await mustNode(b, p.id);
  await removable(b, n);
  const folder = n.parentId === void 0 ? void 0 : await b.get(n.parentId);
  const fields2 = [{ label: "Title", value: n.title, sensitive: false }];
  if (n.url !== void 0) fields2.push({ label: "URL", value: n.url, sensitive: false });
  if (folder !== void 0) fields2.push({ label: "In folder", value: folder.title, sensitive: false });
  const preview = {
    effect: EffectBookmarkRemove,
    control: n.url === void 0 ? "Remove empty bookmark folder" : "Remove bookmark",
    origin: n.url === void 0 ? "" : shownOrigin({ url: n.url }),
    fields: fields2
  };
  const handle = newReviewHandle();
  const [print, digest] = await Promise.all([bookmarkFingerprint(handle, n), previewDigest(handle, preview)]);
  await ctx2.reviews.add({ handle, taskId, tabId: NO_TAB, ...preview, ...ctx2.reviews.times(), state: "pending", bookmarkId: n.id });
  return { ids: [n.id], state: "staged", staged: { step: 0, review_handle: handle, effect: EffectBookmarkRemove, fingerprint: print, preview_digest: digest } };
}
async function commitRemove(ctx2, b, taskId, c) {
  const entry = await ctx2.reviews.entryOf(c.review_handle_digest);
  if (entry === void 0 || entry.taskId !== taskId || entry.bookmarkId === void 0) {
    throw failure(CodeStageDiscarded, "the removal is no longer held for review in the browser (the task ended, or it was denied)");
  }
  try {
    if (entry.state !== "approved") throw failure(CodeStageNotApproved, "the human has not approved this removal in the AgentTab popup");
    if (entry.effect !== EffectBookmarkRemove) throw failure(CodeStageTargetChanged, "the stage is not a bookmark removal");
    const n = await b.get(entry.bookmarkId);
    if (n === void 0 || await bookmarkFingerprint(entry.handle, n) !== c.fingerprint) {
      throw failure(CodeStageTargetChanged, "the bookmark was removed, or its title, URL or folder changed since the removal was staged; nothing was removed");
    }
    await removable(b, n);
    await b.remove(n.id);
    return { ids: [n.id], state: "removed" };
  } finally {
    await ctx2.reviews.remove(entry.handle);
  }
}

// src/background/profile/sessions.ts
var MAX_SESSION_RESULTS = 25;
function tabItem(t, parent, ms) {
  const item = { kind: "tab", id: t.sessionId ?? "", title: t.title ?? "", url: t.url ?? "", time_ms: ms };
  if (parent !== void 0) item.parent_id = parent;
  return item;
}
function sessionItems(s, parent) {
  const ms = Math.round(s.lastModified * 1e3);
  if (s.tab !== void 0) return [tabItem(s.tab, parent, ms)];
  if (s.window === void 0) return [];
  const id = s.window.sessionId ?? "";
  const win = { kind: "window", id, time_ms: ms };
  if (parent !== void 0) win.parent_id = parent;
  return [win, ...(s.window.tabs ?? []).map((t) => tabItem(t, id, ms))];
}
async function listSessions(s, p) {
  const n = resultBound(p.max_results);
  const [closed, devices] = await Promise.all([s.getRecentlyClosed(MAX_SESSION_RESULTS), s.getDevices()]);
  const items = closed.flatMap((c) => sessionItems(c, void 0));
  devices.forEach((d, i) => {
    const id = `device-${i}`;
    items.push({ kind: "device", id, title: d.deviceName });
    for (const session of d.sessions) items.push(...sessionItems(session, id));
  });
  return bounded3(items, n);
}
function entryURLs(all, id) {
  for (const s of all) {
    if (s.tab?.sessionId === id) return [s.tab.url ?? ""];
    if (s.window?.sessionId === id) return (s.window.tabs ?? []).map((t) => t.url ?? "");
    const inWindow = s.window?.tabs?.find((t) => t.sessionId === id);
    if (inWindow !== void 0) return [inWindow.url ?? ""];
  }
  return void 0;
}
async function restoreSession(ctx2, s, p, originLists) {
  const id = p.params.id ?? "";
  if (id === "") throw failure(CodeInvalidParams, "id names the session entry (from sessions_list)");
  if (originLists) throw failure(CodeOriginPolicyUnverifiable, "sessions_restore is refused under the managed origin lists: restored URLs cannot be checked before they open; open each with browser_open");
  const [closed, devices] = await Promise.all([s.getRecentlyClosed(MAX_SESSION_RESULTS), s.getDevices()]);
  const urls = entryURLs([...closed, ...devices.flatMap((d) => d.sessions)], id);
  if (urls === void 0) throw failure(CodeProfileNotFound, `no recently closed or device session entry has id ${JSON.stringify(id)}`);
  const web = urls.filter(isWebURL);
  if (web.length === 0) throw failure(CodeInvalidParams, "the entry has no http(s) URL to reopen");
  if (web.length > MaxRestoreURLs) {
    throw failure(CodeInvalidParams, `the entry has ${web.length} http(s) URLs; sessions_restore reopens at most ${MaxRestoreURLs}: open the ones you need with browser_open`);
  }
  const tabs = [];
  try {
    for (const url of web) tabs.push((await open(ctx2, { task: p.task, url, placement: PlacementTab, load_wait_ms: 0 })).tab);
  } catch (e) {
    for (const t of tabs) {
      await revoke(ctx2, t.tab_id, RevokeClosed, "answer");
      await ctx2.chrome.tabs.remove(t.tab_id).catch(() => void 0);
    }
    if (e instanceof Failure) throw e;
    throw failure(CodeChromeError, `a tab could not be reopened: ${errorText2(e)}`, OutcomeDispatched);
  }
  return { ids: [id], state: "restored", tabs };
}

// src/background/profile/profile.ts
async function profile(ctx2, p) {
  if (ctx2.pause.paused) throw pauseRefusal(ctx2.pause.reason);
  try {
    return await run(ctx2, p);
  } catch (e) {
    if (e instanceof Failure) throw e;
    const outcome = ProfileRules[p.params.op].write === true ? OutcomeUnknown : OutcomeNotStarted;
    throw failure(CodeChromeError, `Chrome refused ${p.params.op}: ${errorText2(e)}`, outcome);
  }
}
function run(ctx2, p) {
  const { bookmarks, history, sessions, downloads } = ctx2.chrome.profile;
  const q = p.params;
  const taskId = p.task.task_id;
  if (p.commit !== void 0 && q.op !== ProfileBookmarksRemove) throw failure(CodeInvalidParams, "only bookmarks_remove is committed");
  switch (q.op) {
    case ProfileBookmarksSearch:
      return read(searchBookmarks(bookmarks, q));
    case ProfileBookmarksTree:
      return read(bookmarkTree(bookmarks, q));
    case ProfileBookmarksCreate:
      return createBookmark(bookmarks, q);
    case ProfileBookmarksUpdate:
      return updateBookmark(bookmarks, q);
    case ProfileBookmarksMove:
      return moveBookmark(bookmarks, q);
    case ProfileBookmarksRemove:
      return p.commit === void 0 ? stageRemove(ctx2, bookmarks, taskId, q) : commitRemove(ctx2, bookmarks, taskId, p.commit);
    case ProfileHistorySearch:
      return read(searchHistory(history, q));
    case ProfileSessionsList:
      return read(listSessions(sessions, q));
    case ProfileSessionsRestore:
      return restoreSession(ctx2, sessions, p, ctx2.origins.constrained);
    case ProfileDownloadsSearch:
      return read(searchDownloads(downloads, q));
    case ProfileDownloadsCancel:
    case ProfileDownloadsPause:
    case ProfileDownloadsResume:
      return controlDownload(downloads, q.op, q);
  }
}
async function read(r) {
  const { items, truncated } = await r;
  return truncated ? { items, truncated } : { items };
}

// src/background/native/scheduler.ts
var Scheduler = class {
  globalTail = Promise.resolve();
  tails = /* @__PURE__ */ new Map();
  task(taskId, f) {
    const before = [this.tails.get(taskId) ?? Promise.resolve(), this.globalTail];
    const run2 = Promise.all(before).then(f);
    const tail = settled(run2);
    this.tails.set(taskId, tail);
    void tail.then(() => {
      if (this.tails.get(taskId) === tail) this.tails.delete(taskId);
    });
    return run2;
  }
  /**
   * A read (snapshot, wait): it starts after the task's earlier operations
   * have settled, so it never observes a change in progress, but it is not
   * part of the tail, so it never holds back later ones (spec 001: "Reads
   * wait behind the relevant tab mutation"; DESIGN.md "Queues").
   */
  read(taskId, f) {
    return Promise.all([this.tails.get(taskId) ?? Promise.resolve(), this.globalTail]).then(f);
  }
  global(f) {
    const run2 = Promise.all([this.globalTail, ...this.tails.values()]).then(f);
    this.globalTail = settled(run2);
    return run2;
  }
};
function settled(p) {
  return p.then(
    () => void 0,
    () => void 0
  );
}

// src/background/pagework/snapshot.ts
async function snapshot(ctx2, p) {
  const { url } = await ownedPage(ctx2, p.task_id, p.tab_id);
  await admitPageWork(ctx2, p.tab_id, url);
  return onRoute(ctx2, p.tab_id, async (route) => {
    const result = await route.snapshot(p);
    const challenge = await scanChallenges(ctx2, { tabId: p.tab_id, url, revision: result.revision, context: "snapshot", route });
    return challenge === void 0 ? result : { ...result, challenge };
  }).catch((e) => {
    throw readFailure(e);
  });
}

// src/background/native/dispatch.ts
function serve(handlers, method, params) {
  const decode = NativeParamsDecoders[method];
  let decoded;
  try {
    decoded = decode(params);
  } catch (e) {
    if (e instanceof DecodeError) throw new Failure(CodeInvalidParams, OutcomeNotStarted, e.message, RecoveryUpdate);
    throw e;
  }
  const handle = handlers[method];
  return handle(decoded);
}
function isMethod(method) {
  return Object.hasOwn(NativeClasses, method);
}
function dispatcher(ctx2, ready2, scheduler2 = new Scheduler()) {
  const call = async (method, params, label) => {
    if (!isMethod(method)) throw failure(CodeUnknownMethod, `the extension has no method ${JSON.stringify(method)}`);
    const base = NativeClasses[method];
    const expect = (cls) => {
      if (cls !== label) throw mismatch(method, label, cls);
    };
    const run2 = (taskId, work, cls = base) => {
      expect(cls);
      return lane(scheduler2, taskId, cls)(() => {
        if (cls !== ClassGlobal && ctx2.pause.paused) throw pauseRefusal(ctx2.pause.reason);
        return taskId === "" ? work() : ctx2.pause.track(work);
      });
    };
    const pauseTo = (paused) => async () => {
      if (paused) await beginPause(ctx2);
      return run2("", async () => {
        await ctx2.pause.set(paused);
        return { paused };
      });
    };
    const handlers = {
      [NativePing]: async () => {
        expect(base);
        return {};
      },
      [NativeReconcile]: (p) => run2("", () => reconcile(ctx2, p)),
      [NativeAdopt]: (p) => run2(p.task.task_id, () => adopt(ctx2, p)),
      [NativePausing]: async () => {
        expect(base);
        await beginPause(ctx2);
        return { paused: true };
      },
      [NativePause]: pauseTo(true),
      [NativeUnpause]: pauseTo(false),
      // Into a new window too: only the task's first tab may go there
      // (open.ts checks), which the task's order decides, and other
      // tasks are not held back (issue 10; protocol.Classify).
      [NativeOpen]: (p) => run2(p.task.task_id, () => open(ctx2, p)),
      [NativeTabs]: (p) => {
        expect(base);
        return scheduler2.task(p.task_id, () => {
          if (ctx2.pause.paused) throw pauseRefusal(ctx2.pause.reason);
          return ctx2.pause.track(() => listTabs(ctx2, p));
        });
      },
      [NativeFinish]: (p) => run2(p.task_id, () => finish(ctx2, p)),
      [NativeSnapshot]: (p) => run2(p.task_id, async () => withStops(ctx2, p, await snapshot(ctx2, p))),
      [NativeAct]: (p) => {
        const reads = p.actions.every((s) => StepRules[s.kind].class === ClassRead);
        return run2(p.task_id, async () => withStops(ctx2, p, await act(ctx2, p)), reads ? ClassRead : base);
      },
      [NativeWait]: (p) => run2(p.task_id, async () => withStops(ctx2, p, await waitFor(ctx2, p.task_id, p.tab_id, p.condition))),
      // An approved stage's one step: a mutation, never classified again (review/commit.ts).
      [NativeCommit]: (p) => run2(p.task_id, async () => withStops(ctx2, p, await commitStage(ctx2, p))),
      // Notices need no page access: a tab_only tab takes one too, and
      // the handoff blackout does not apply to it (notices/handoff.ts).
      [NativeHandoff]: (p) => run2(p.task_id, () => handoff(ctx2, p)),
      [NativeDeveloper]: (p) => run2(p.task_id, () => developer(ctx2, p)),
      // A mutation of the task's lane; its params hold the value: never logged (credentials/fill.ts).
      [NativeCredentialFill]: (p) => run2(p.task_id, () => credentialFill(ctx2, p)),
      // Browser-global work that still respects Pause (profile/profile.ts checks it).
      [NativeProfile]: (p) => run2(p.task.task_id, () => profile(ctx2, p))
    };
    return serve(handlers, method, params);
  };
  return async (request) => {
    try {
      await ready2;
      return { type: NativeTypeResponse, id: request.id, result: await call(request.method, request.params, request.class) };
    } catch (e) {
      if (e instanceof Failure) return { type: NativeTypeResponse, id: request.id, error: e.detail };
      ctx2.log.warn(`${request.method} failed: ${errorText2(e)}`);
      return { type: NativeTypeResponse, id: request.id, error: failure(CodeInternal, `${request.method} failed in the extension: ${errorText2(e)}`, OutcomeUnknown).detail };
    }
  };
}
function lane(scheduler2, taskId, cls) {
  switch (cls) {
    case ClassRead:
      return (work) => scheduler2.read(taskId, work);
    case ClassMutation:
      return (work) => scheduler2.task(taskId, work);
    case ClassGlobal:
      return (work) => scheduler2.global(work);
  }
}
function mismatch(method, label, cls) {
  return failure(CodeClassificationMismatch, `the host labelled ${method} ${label === void 0 ? "without a class" : `a ${label} request`}, but it is a ${cls}; nothing ran`);
}
function withStops(ctx2, p, result) {
  const stops = ctx2.origins.takeUnreported(p.tab_id, p.task_id);
  return stops.length === 0 ? result : { ...result, origin_stops: stops };
}

// src/background/tabs/focus-guard.ts
var CAUSED_MS = 3e3;
var SWITCH_MS = 500;
var FocusGuard = class {
  constructor(api2, ownership2, clock, log) {
    this.api = api2;
    this.ownership = ownership2;
    this.clock = clock;
    this.log = log;
    api2.userView.onActivated((tabId, windowId) => this.activated(tabId, windowId));
    api2.userView.onFocusChanged((windowId) => this.focusChanged(windowId));
  }
  api;
  ownership;
  clock;
  log;
  /** Per window: its active tab, and the one before it. */
  active = /* @__PURE__ */ new Map();
  /** The window the user is in (the last real focus), and when the focus last left every Chrome window. */
  userWindow = NO_WINDOW;
  leftAt;
  /** Children of owned tabs, until when their activation is Chrome's doing. */
  children = /* @__PURE__ */ new Map();
  /** Windows where a task's gesture or popup may take the focus, until when. */
  armed = /* @__PURE__ */ new Map();
  inFlight = /* @__PURE__ */ new Map();
  /** Windows the user asked to see (the popup's Open tab), until when: their focus is never given back. */
  allowed = /* @__PURE__ */ new Map();
  /** Reads the user's view once at the worker's start (events only tell changes). */
  async load() {
    const [tabs, focused] = await Promise.all([this.api.userView.activeTabs(), this.api.userView.focusedWindow()]);
    for (const t of tabs) if (!this.active.has(t.windowId)) this.active.set(t.windowId, { now: t.tabId, before: void 0 });
    if (this.userWindow === NO_WINDOW) this.userWindow = focused;
  }
  /** A task's gesture runs in windowId until the returned function is called. */
  gesture(windowId) {
    this.inFlight.set(windowId, (this.inFlight.get(windowId) ?? 0) + 1);
    return () => {
      const n = (this.inFlight.get(windowId) ?? 1) - 1;
      if (n > 0) this.inFlight.set(windowId, n);
      else this.inFlight.delete(windowId);
      this.arm(windowId);
    };
  }
  /** Chrome reported tabId, in windowId, as opened by an owned tab's page. */
  child(tabId, windowId) {
    this.children.set(tabId, this.clock.now() + CAUSED_MS);
    this.arm(windowId);
    const w = this.active.get(windowId);
    if (w?.now === tabId && w.before !== void 0) this.giveTabBack(w.before);
  }
  /**
   * The user clicked Open tab on a notice (popup/notice-action.ts): the
   * worker is about to activate tabId and focus windowId for them, the
   * only focus AgentTab ever causes. That activation and focus are the
   * user's, not a task's, so the guard must not undo them, even in a
   * window a task's gesture armed a moment ago.
   */
  allowUserOpen(tabId, windowId) {
    this.children.delete(tabId);
    this.allowed.set(windowId, this.clock.now() + CAUSED_MS);
  }
  arm(windowId) {
    this.armed.set(windowId, Math.max(this.armed.get(windowId) ?? 0, this.clock.now() + CAUSED_MS));
  }
  isArmed(windowId) {
    const allowed = this.allowed.get(windowId);
    if (allowed !== void 0 && allowed >= this.clock.now()) return false;
    return (this.inFlight.get(windowId) ?? 0) > 0 || (this.armed.get(windowId) ?? 0) >= this.clock.now();
  }
  activated(tabId, windowId) {
    const w = this.active.get(windowId);
    this.active.set(windowId, { now: tabId, before: w?.now });
    const until = this.children.get(tabId);
    if (until !== void 0 && until >= this.clock.now() && w !== void 0 && w.now !== tabId) this.giveTabBack(w.now);
  }
  /** Gives the user's tab back its place; a tab of a task is left as it is. */
  giveTabBack(tabId) {
    if (this.ownership.owner(tabId) !== void 0) return;
    this.api.userView.giveTabBack(tabId).catch((e) => this.log.warn(`giving tab ${tabId} back its place: ${errorText2(e)}`));
  }
  focusChanged(windowId) {
    const now = this.clock.now();
    if (windowId === NO_WINDOW) {
      this.leftAt = now;
      return;
    }
    const switched = this.leftAt === void 0 || now - this.leftAt <= SWITCH_MS;
    this.leftAt = void 0;
    const from = this.userWindow;
    if (windowId !== from && from !== NO_WINDOW && switched && this.isArmed(windowId)) {
      this.api.userView.giveFocusBack(from).catch((e) => this.log.warn(`giving the focus back to window ${from}: ${errorText2(e)}`));
      return;
    }
    this.userWindow = windowId;
  }
};

// src/background/native/backoff.ts
var FIRST_DELAY_MS = 500;
var MAX_DELAY_MS = 3e4;
var Backoff = class {
  next = FIRST_DELAY_MS;
  /** The delay before the next attempt; each call doubles the following one. */
  delay() {
    const d = this.next;
    this.next = Math.min(this.next * 2, MAX_DELAY_MS);
    return d;
  }
  reset() {
    this.next = FIRST_DELAY_MS;
  }
};

// src/background/native/host-connection.ts
var WATCHDOG_ALARM = "agenttab.watchdog";
var WATCHDOG_MINUTES = 0.5;
var HostConnection = class {
  constructor(chrome2, handle, clock, log, hello2 = () => ({ paused: false, yolo: true }), onWelcome = () => void 0) {
    this.chrome = chrome2;
    this.handle = handle;
    this.clock = clock;
    this.log = log;
    this.hello = hello2;
    this.onWelcome = onWelcome;
    this.chrome.alarms.onAlarm((name) => {
      if (name !== WATCHDOG_ALARM) return;
      this.armWatchdog();
      this.connect();
    });
  }
  chrome;
  handle;
  clock;
  log;
  hello;
  onWelcome;
  port;
  welcomed = false;
  current = { state: "connecting" };
  backoff = new Backoff();
  cancelRetry;
  /** Questions to the host by id; ids count apart from the host's. */
  asked = /* @__PURE__ */ new Map();
  nextAsk = 0;
  get state() {
    return this.current;
  }
  /** Opens the port unless one is open; safe to call at any time. */
  connect() {
    if (this.port !== void 0) return;
    this.cancelRetry?.();
    this.cancelRetry = void 0;
    this.armWatchdog();
    const port = this.chrome.nativePort(NativeHostName);
    this.port = port;
    this.welcomed = false;
    this.current = { state: "connecting" };
    port.onMessage((m) => this.receive(port, m));
    port.onDisconnect((error) => this.disconnected(port, error));
    const hello2 = {
      type: NativeTypeHello,
      protocol_version: Version,
      extension_id: this.chrome.runtime.id,
      extension_version: this.chrome.runtime.version,
      ...this.hello()
    };
    this.post(port, hello2);
  }
  /** Sends an event to a welcomed host. Without one it is dropped: the host reconciles when it comes back. */
  notify(event2, params) {
    if (this.port === void 0 || !this.welcomed) return;
    const message = { type: NativeTypeEvent, event: event2, params };
    this.post(this.port, message);
  }
  /**
   * Asks the welcomed host: resolves with its answer, and rejects when
   * there is no host to ask, when the question cannot be sent, when the
   * port closes first, or after timeoutMs (the caller decides what no
   * answer means).
   */
  ask(method, params, timeoutMs) {
    const port = this.port;
    if (port === void 0 || !this.welcomed) return Promise.reject(new Error("AgentTab is not connected to its host"));
    const id = ++this.nextAsk;
    return new Promise((resolve, reject) => {
      const stop = this.clock.after(timeoutMs, () => settle(() => reject(new Error(`the host did not answer within ${timeoutMs} ms`))));
      const settle = (f) => {
        if (!this.asked.delete(id)) return;
        stop();
        f();
      };
      const fail = (why) => settle(() => reject(new Error(why)));
      this.asked.set(id, { answer: (a) => settle(() => resolve(a)), fail });
      const request = { type: NativeTypeRequest, id, method, params };
      const failure2 = this.post(port, request);
      if (failure2 !== void 0) fail(`the question could not be sent to the host: ${failure2}`);
    });
  }
  receive(port, m) {
    if (port !== this.port || !isFields(m)) return;
    switch (m["type"]) {
      case NativeTypeWelcome:
        return this.welcome(port, m);
      case NativeTypeReject:
        return this.rejected(m["error"]);
      case NativeTypeRequest:
        return this.request(port, m);
      case NativeTypeResponse:
        return this.answered(m);
      default:
        this.log.warn(`ignored a host message of type ${JSON.stringify(m["type"])}`);
    }
  }
  welcome(port, m) {
    if (m["protocol_version"] !== Version) {
      this.log.warn(`host speaks protocol ${JSON.stringify(m["protocol_version"])}, extension speaks ${Version}`);
      return this.refuse(port, "protocol_version_mismatch", `the host speaks protocol ${JSON.stringify(m["protocol_version"])}; this extension speaks ${Version}`);
    }
    let welcome;
    try {
      welcome = decodeNativeWelcome(m, "welcome");
      this.onWelcome(welcome);
    } catch (e) {
      this.log.warn(`the host's welcome cannot be read: ${errorText2(e)}`);
      return this.refuse(port, "invalid_request", `the host's welcome cannot be read: ${errorText2(e)}`);
    }
    this.welcomed = true;
    this.backoff.reset();
    this.current = { state: "connected", hostVersion: welcome.host_version };
    this.log.info(`connected to host ${this.current.hostVersion}`);
  }
  refuse(port, code, message) {
    this.current = { state: "rejected", code, message, recovery: RecoveryUpdate };
    port.disconnect();
    this.disconnected(port, void 0);
  }
  // The host exits after a reject, so the port disconnects next and the
  // usual backoff applies; the reason stays visible in the popup.
  rejected(error) {
    const f = isFields(error) ? error : {};
    const text = (k) => typeof f[k] === "string" ? f[k] : "";
    this.current = { state: "rejected", code: text("code"), message: text("message"), recovery: text("recovery") };
    this.log.warn(`host rejected the handshake: ${text("code")}: ${text("message")}`);
  }
  request(port, m) {
    const id = m["id"];
    if (!this.welcomed || typeof id !== "number" || typeof m["method"] !== "string") {
      this.log.warn("ignored a request before the welcome or without an id and method");
      return;
    }
    const request = { type: NativeTypeRequest, id, method: m["method"], params: m["params"] };
    const cls = m["class"];
    if (cls === ClassRead || cls === ClassMutation || cls === ClassGlobal) request.class = cls;
    void this.handle(request).then((response) => {
      if (port === this.port) this.post(port, response);
    });
  }
  /** The host's answer to one of ask's questions. */
  answered(m) {
    const asked = typeof m["id"] === "number" ? this.asked.get(m["id"]) : void 0;
    if (asked === void 0) return this.log.warn("ignored a host response nothing asked for");
    const error = m["error"];
    asked.answer(isFields(error) ? { error } : { result: m["result"] });
  }
  disconnected(port, error) {
    if (port !== this.port) return;
    this.port = void 0;
    this.welcomed = false;
    for (const a of [...this.asked.values()]) a.fail("the host disconnected before it answered");
    const delay = this.backoff.delay();
    if (this.current.state !== "rejected") {
      this.current = { state: "reconnecting", reason: error ?? "the host closed the connection", retryInMs: delay };
    }
    this.log.info(`native port closed (${error ?? "no error"}); retrying in ${delay} ms`);
    this.cancelRetry = this.clock.after(delay, () => this.connect());
  }
  armWatchdog() {
    void this.chrome.alarms.create(WATCHDOG_ALARM, WATCHDOG_MINUTES).catch((e) => this.log.warn(`alarms.create: ${errorText2(e)}`));
  }
  // Chrome throws when posting to a port that has just disconnected; the
  // disconnect handler then does the rest. Answers why the message was not
  // sent, or undefined when it was.
  post(port, message) {
    try {
      port.postMessage(message);
      return void 0;
    } catch (e) {
      this.log.warn(`postMessage failed: ${errorText2(e)}`);
      return errorText2(e);
    }
  }
};

// src/background/origins/local-files.ts
var LOCAL_FILE_MS = 1e4;
function askHost(ask) {
  return async (url) => {
    const params = { url };
    let answer3;
    try {
      answer3 = await ask(NativeLocalFile, params, LOCAL_FILE_MS);
    } catch (e) {
      return { code: CodeLocalFileDenied, reason: `AgentTab could not ask its host about the local file: ${errorText2(e)}` };
    }
    if ("error" in answer3) {
      const message = answer3.error["message"];
      return { code: CodeLocalFileDenied, reason: typeof message === "string" ? message : "the host refused the local file" };
    }
    if (isFields(answer3.result) && answer3.result["admitted"] === true) return void 0;
    return { code: CodeLocalFileDenied, reason: "the host's answer about the local file cannot be read" };
  };
}

// src/background/popup/automation.ts
function watchAutomation(ctx2) {
  ctx2.chrome.permissions.onRemoved((removed) => {
    if (!removed.includes("scripting")) return;
    ctx2.log.info("automation turned off: detaching every debugger session");
    ctx2.pages.releaseAll().catch((e) => ctx2.log.warn(`detaching after automation off: ${errorText2(e)}`));
  });
}

// src/background/popup/badge.ts
var Badge = class {
  constructor(action, log) {
    this.action = action;
    this.log = log;
  }
  action;
  log;
  counts = /* @__PURE__ */ new Map();
  /** Unknown at first: a badge an earlier worker set stays in Chrome until written. */
  shown;
  /** The part's count now; the badge shows the sum (nothing when zero). */
  count(part, n) {
    this.counts.set(part, n);
    let total = 0;
    for (const v of this.counts.values()) total += v;
    const text = total === 0 ? "" : String(total);
    if (text === this.shown) return;
    this.shown = text;
    this.action.setBadgeText(text).catch((e) => this.log.warn(`badge: ${errorText2(e)}`));
  }
};

// src/background/notices/notices.ts
var NOTICES_KEY = "notices";
var KEPT_CLOSED = 20;
var Notices = class {
  constructor(storage, clock, log, owned, changed = () => void 0) {
    this.storage = storage;
    this.clock = clock;
    this.log = log;
    this.owned = owned;
    this.changed = changed;
  }
  storage;
  clock;
  log;
  owned;
  changed;
  records = [];
  cancelExpiry = () => void 0;
  async load() {
    const v = await this.storage.get(NOTICES_KEY);
    if (v !== void 0 && !Array.isArray(v)) this.log.warn("an unreadable notices record was dropped");
    this.records = Array.isArray(v) ? v.filter(isRecord) : [];
    this.announce();
  }
  /** Records a notice for the tab, replacing its open one (which becomes replaced). */
  async request(r) {
    const now = this.clock.now();
    for (const old of this.records) if (old.tabId === r.tabId && old.state === NoticeOpen) old.state = NoticeReplaced;
    const record = { noticeId: newNoticeId(), ...r, createdAt: now, expiresAt: now + r.expiresInMs, state: NoticeOpen, hidden: false };
    this.records.push(record);
    this.trim(r.taskId);
    await this.persist();
    return record;
  }
  /**
   * What the agent's resolve or dismiss may close: the open notice (its
   * reminder expired or not) of a tab of this task, and of tabId when one
   * is named; undefined otherwise (notice_not_found).
   */
  closable(taskId, noticeId, tabId) {
    const r = this.open(noticeId);
    return r === void 0 || r.taskId !== taskId || tabId !== void 0 && r.tabId !== tabId ? void 0 : r;
  }
  /** The agent's resolve or dismiss of a closable notice; undefined if it is not (or no longer) closable. */
  async close(taskId, noticeId, tabId, state) {
    const r = this.closable(taskId, noticeId, tabId);
    if (r === void 0) return void 0;
    r.state = state;
    await this.persist();
    return r;
  }
  /** The task's notices (or one tab's), newest first. */
  status(taskId, tabId) {
    return this.live().filter((n) => n.taskId === taskId && (tabId === void 0 || n.tabId === tabId)).reverse();
  }
  /** The popup's Dismiss: hides the reminder only (the agent still sees it open, hidden_by_user). */
  async hide(noticeId) {
    const r = this.open(noticeId);
    if (r === void 0) return false;
    r.hidden = true;
    await this.persist();
    return true;
  }
  /** The open notice with this id (the popup's Open tab), if it is still open. */
  open(noticeId) {
    return this.live().find((n) => n.noticeId === noticeId && n.state === NoticeOpen);
  }
  /** The open notices the popup shows (reminder not expired, not hidden), oldest first. */
  visible() {
    const now = this.clock.now();
    return this.live().filter((n) => !n.hidden && n.state === NoticeOpen && now < n.expiresAt);
  }
  /** The tab has an open notice (hidden or not, its reminder expired or not). */
  openFor(tabId) {
    return this.live().some((n) => n.tabId === tabId && n.state === NoticeOpen);
  }
  /** The task finished (browser_finish or End task): its notices go. */
  async clearTask(taskId) {
    if (!this.records.some((n) => n.taskId === taskId)) return;
    this.records = this.records.filter((n) => n.taskId !== taskId);
    await this.persist();
  }
  /** The tab closed or left its task: its notices go. */
  async dropTab(tabId) {
    if (!this.records.some((n) => n.tabId === tabId)) return;
    this.records = this.records.filter((n) => n.tabId !== tabId);
    await this.persist();
  }
  /** Whether any notice (in any state) was made for the tab. */
  tracks(tabId) {
    return this.records.some((n) => n.tabId === tabId);
  }
  /** Ownership may have changed (a tab was revoked): the badge counts again. */
  refresh() {
    this.announce();
  }
  /** The notices whose task still owns their tab. */
  live() {
    return this.records.filter((n) => this.owned(n.taskId, n.tabId));
  }
  /** The notice as the protocol reports it (the message is never sent back). */
  ext(r) {
    const now = this.clock.now();
    const n = {
      notice_id: r.noticeId,
      tab_id: r.tabId,
      reason: r.reason,
      state: r.state,
      origin: r.origin,
      age_ms: Math.max(0, now - r.createdAt),
      expires_in_ms: r.state === NoticeOpen ? Math.max(0, r.expiresAt - now) : 0
    };
    if (r.hidden) n.hidden_by_user = true;
    return n;
  }
  /** Keeps the task's open notices and its newest closed ones. */
  trim(taskId) {
    const closed = this.records.filter((n) => n.taskId === taskId && n.state !== NoticeOpen);
    const drop = new Set(closed.slice(0, Math.max(0, closed.length - KEPT_CLOSED)));
    if (drop.size > 0) this.records = this.records.filter((n) => !drop.has(n));
  }
  async persist() {
    this.records = this.live();
    this.announce();
    await this.storage.set(NOTICES_KEY, this.records);
  }
  /** Reports the visible count, and again when the next reminder expires. */
  announce() {
    this.changed(this.visible().length);
    this.cancelExpiry();
    const now = this.clock.now();
    const next = Math.min(...this.live().filter((n) => n.state === NoticeOpen && n.expiresAt > now).map((n) => n.expiresAt));
    if (Number.isFinite(next)) this.cancelExpiry = this.clock.after(next - now, () => this.announce());
  }
};
function newNoticeId() {
  return HandlePrefixNotice + randomHex(16);
}
function isRecord(v) {
  return typeof v === "object" && v !== null && "noticeId" in v && typeof v.noticeId === "string" && "taskId" in v && typeof v.taskId === "string" && "tabId" in v && typeof v.tabId === "number" && "expiresAt" in v && typeof v.expiresAt === "number";
}

// src/background/notices/watch-notices.ts
var RECOUNT_MS = 500;
function watchNotices(ctx2, ready2) {
  ctx2.chrome.tabs.onRemoved((tabId) => whenReady(ready2, ctx2.log, "notices: tabs.onRemoved", () => ctx2.notices.dropTab(tabId)));
  const recount = (tabId) => whenReady(ready2, ctx2.log, "notices: recount", async () => {
    if (ctx2.notices.tracks(tabId)) ctx2.clock.after(RECOUNT_MS, () => ctx2.notices.refresh());
  });
  ctx2.chrome.tabs.onUpdated((tabId, change) => {
    if (change.groupId !== void 0) recount(tabId);
  });
  ctx2.chrome.tabs.onAttached((tabId) => recount(tabId));
}

// src/background/tabs/ownership.ts
var STORAGE_KEY = "ownership";
var MIRROR_KEY = "ownership_mirror";
var Ownership = class {
  constructor(storage, log, mirror) {
    this.storage = storage;
    this.log = log;
    this.mirror = mirror;
  }
  storage;
  log;
  mirror;
  tasks = /* @__PURE__ */ new Map();
  opened = 0;
  writes = Promise.resolve();
  /** The map came from the storage.local mirror (an extension reload, or a browser start). */
  fromMirror = false;
  /** Tabs recorded from the mirror that reconciliation has not checked yet. */
  unproven = /* @__PURE__ */ new Set();
  /** Rebuilds the map from storage.session, else from the mirror; a record it cannot read is dropped. */
  async load() {
    let raw = await this.storage.get(STORAGE_KEY);
    if (raw === void 0 && this.mirror !== void 0) {
      raw = await this.mirror.get(MIRROR_KEY);
      this.fromMirror = raw !== void 0;
    }
    const stored = parseStored(raw);
    if (stored === void 0) {
      if (raw !== void 0) this.log.warn("dropped an unreadable ownership record from storage.session");
      return;
    }
    this.opened = stored.opened;
    for (const t of stored.tasks) {
      this.tasks.set(t.look.task_id, { look: t.look, tabs: new Map(t.tabs) });
      if (this.fromMirror) for (const [tabId] of t.tabs) this.unproven.add(tabId);
    }
  }
  /** Whether the tab's record is of this browser session: not read from the mirror, or checked since. */
  proven(tabId) {
    return !this.unproven.has(tabId);
  }
  /** Reconciliation checked every record left (reconcile.ts): all of them are this session's now. */
  trustAll() {
    this.unproven.clear();
  }
  task(taskId) {
    return this.tasks.get(taskId);
  }
  taskIds() {
    return [...this.tasks.keys()];
  }
  /** The task's record, created or given the host's current look (Developer mode's mark is never taken off: task-group.ts markDeveloper). */
  ensureTask(look) {
    const existing = this.tasks.get(look.task_id);
    if (existing !== void 0) {
      existing.look = existing.look.developer === true ? { ...look, developer: true } : look;
      return existing;
    }
    const created = { look, tabs: /* @__PURE__ */ new Map() };
    this.tasks.set(look.task_id, created);
    return created;
  }
  owner(tabId) {
    for (const [taskId, rec] of this.tasks) {
      const tab = rec.tabs.get(tabId);
      if (tab !== void 0) return { taskId, tab };
    }
    return void 0;
  }
  /** Records a grouped tab at revision 1. */
  add(look, tabId, groupId, windowId, source = "created") {
    const tab = { groupId, windowId, revision: 1, source, opened: ++this.opened, refEpoch: 0, nextRef: 1 };
    this.ensureTask(look).tabs.set(tabId, tab);
    return tab;
  }
  /** Removes one tab's record; undefined when nobody owned it. */
  drop(tabId) {
    const owner = this.owner(tabId);
    if (owner !== void 0) this.tasks.get(owner.taskId)?.tabs.delete(tabId);
    return owner;
  }
  /** Advances a tab's page revision; undefined when nobody owns the tab. */
  bump(tabId) {
    const owner = this.owner(tabId);
    if (owner === void 0) return void 0;
    return ++owner.tab.revision;
  }
  /** Raises a tab's revision to at least floor (the host's revision_floor). */
  raise(tabId, floor) {
    const owner = this.owner(tabId);
    if (owner !== void 0) owner.tab.revision = Math.max(owner.tab.revision, floor);
  }
  /** Notes that an owned tab now lives in another window (its group moved with it). */
  moveWindow(tabId, windowId) {
    const owner = this.owner(tabId);
    if (owner !== void 0) owner.tab.windowId = windowId;
  }
  dropTask(taskId) {
    const rec = this.tasks.get(taskId);
    this.tasks.delete(taskId);
    return rec;
  }
  /**
   * The task's group in a window: groups by window are derived from the
   * owned tabs, so a group with no owned tab left (Chrome removes an empty
   * group) is never offered again.
   */
  groupIn(taskId, windowId) {
    return this.newest(taskId, (t) => t.windowId === windowId)?.groupId;
  }
  /**
   * The window of the task's most recently created tab. Children are left
   * out: observed in Chromium 156, a page's popup with window features
   * opens in a popup-type window (which Chrome lets hold a group), and the
   * task's next tab belongs in a normal window.
   */
  latestWindow(taskId) {
    return this.newest(taskId, (t) => t.source === "created")?.windowId;
  }
  newest(taskId, keep) {
    let best;
    for (const t of this.tasks.get(taskId)?.tabs.values() ?? []) {
      if (keep(t) && (best === void 0 || t.opened > best.opened)) best = t;
    }
    return best;
  }
  /**
   * Writes the whole map. Writes are chained so they reach storage in call
   * order, and each one takes the map as it is when it runs, so the last
   * write always carries the latest state.
   */
  persist() {
    const write = this.writes.then(async () => {
      const snapshot2 = this.snapshot();
      await this.storage.set(STORAGE_KEY, snapshot2);
      await this.mirror?.set(MIRROR_KEY, snapshot2);
    });
    this.writes = write.catch((e) => this.log.warn(`storage.session write failed: ${errorText2(e)}`));
    return write;
  }
  /**
   * Chrome says the browser itself started: tab ids belong to this new
   * session, so a map read from the mirror is forgotten (the host's
   * reconciliation then revokes those tabs).
   */
  browserStarted() {
    if (this.fromMirror) {
      this.log.info("the browser started: the mirrored ownership record is not trusted");
      this.tasks.clear();
      this.unproven.clear();
      this.fromMirror = false;
    }
    return this.persist();
  }
  snapshot() {
    return {
      v: 2,
      opened: this.opened,
      tasks: [...this.tasks.values()].map((t) => ({ look: t.look, tabs: [...t.tabs.entries()] }))
    };
  }
};
function parseStored(v) {
  if (!isObject2(v) || v["v"] !== 2 || typeof v["opened"] !== "number" || !Array.isArray(v["tasks"])) return void 0;
  const tasks = [];
  for (const t of v["tasks"]) {
    if (!isObject2(t) || !isLook(t["look"]) || !Array.isArray(t["tabs"])) return void 0;
    const tabs = [];
    for (const entry of t["tabs"]) {
      if (!Array.isArray(entry)) return void 0;
      const [id, tab] = entry;
      if (typeof id !== "number" || !isOwnedTab(tab)) return void 0;
      tabs.push([id, tab]);
    }
    tasks.push({ look: t["look"], tabs });
  }
  return { v: 2, opened: v["opened"], tasks };
}
function isObject2(v) {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
function isLook(v) {
  return isObject2(v) && typeof v["task_id"] === "string" && typeof v["label"] === "string" && typeof v["color"] === "string";
}
function isOwnedTab(v) {
  return isObject2(v) && typeof v["groupId"] === "number" && typeof v["windowId"] === "number" && typeof v["revision"] === "number" && (v["source"] === "created" || v["source"] === "child" || v["source"] === "adopted") && typeof v["opened"] === "number" && typeof v["refEpoch"] === "number" && typeof v["nextRef"] === "number";
}

// src/shared/status.ts
var STATUS_REQUEST = "agenttab.status";
var STAGE_REVIEW = "agenttab.stage_review";
function isStageReview(v) {
  return typeof v === "object" && v !== null && "type" in v && v.type === STAGE_REVIEW && "handle" in v && typeof v.handle === "string" && "approve" in v && typeof v.approve === "boolean";
}
var NOTICE_ACTION = "agenttab.notice";
function isNoticeAction(v) {
  return typeof v === "object" && v !== null && "type" in v && v.type === NOTICE_ACTION && "noticeId" in v && typeof v.noticeId === "string" && "action" in v && (v.action === "open_tab" || v.action === "dismiss");
}
var YOLO_SWITCH = "agenttab.yolo";
function isYoloSwitch(v) {
  return typeof v === "object" && v !== null && "type" in v && v.type === YOLO_SWITCH && "on" in v && typeof v.on === "boolean";
}
var END_TASK = "agenttab.end_task";
function isEndTask(v) {
  return typeof v === "object" && v !== null && "type" in v && v.type === END_TASK && "taskId" in v && typeof v.taskId === "string" && "closeTabs" in v && typeof v.closeTabs === "boolean";
}
var ADOPTION_ANSWER = "agenttab.adoption";
function isAdoptionAnswer(v) {
  return typeof v === "object" && v !== null && "type" in v && v.type === ADOPTION_ANSWER && "id" in v && typeof v.id === "string" && "allow" in v && typeof v.allow === "boolean";
}
var PAUSE_REQUEST = "agenttab.pause";
function isPauseRequest(v) {
  return typeof v === "object" && v !== null && "type" in v && v.type === PAUSE_REQUEST && "paused" in v && typeof v.paused === "boolean";
}
function isStatusRequest(v) {
  return typeof v === "object" && v !== null && "type" in v && v.type === STATUS_REQUEST;
}

// src/background/popup/notice-action.ts
async function noticeAction(ctx2, deps, noticeId, action) {
  if (action === "dismiss") {
    await ctx2.notices.hide(noticeId);
    return;
  }
  const notice = ctx2.notices.open(noticeId);
  if (notice === void 0) return;
  const tab = await ctx2.chrome.tabs.get(notice.tabId);
  if (tab === void 0) return;
  deps.focus.allowUserOpen(tab.id, tab.windowId);
  await ctx2.chrome.userView.openForUser(tab.id, tab.windowId).catch((e) => ctx2.log.warn(`opening tab ${tab.id} for the user: ${errorText2(e)}`));
}

// src/background/popup/stages.ts
var REVIEW_MS = 5e3;
async function stageSummaries(ctx2) {
  const now = ctx2.clock.now();
  return (await ctx2.reviews.list()).map((e) => {
    const look = ctx2.ownership.task(e.taskId)?.look;
    return {
      handle: e.handle,
      taskLabel: look?.label ?? "",
      taskColor: look?.color ?? "grey",
      effect: e.effect,
      control: e.control,
      origin: e.origin,
      fields: e.fields,
      state: e.state,
      expiresInMs: Math.max(0, e.expiresAt - now)
    };
  });
}
async function reviewStage(ctx2, host, handle, approve) {
  if (!ctx2.reviews.has(handle)) return;
  const params = { review_handle: handle, approve };
  let state;
  try {
    const a = await host.ask(NativeStageReview, params, REVIEW_MS);
    state = "result" in a && isFields(a.result) ? a.result["state"] : void 0;
  } catch (e) {
    ctx2.log.warn(`stage review: ${errorText2(e)}`);
    return;
  }
  if (state === StageApproved || state === StageDenied) await ctx2.reviews.markReviewed(handle, state === StageApproved);
  else await ctx2.reviews.remove(handle);
}
async function switchYolo(ctx2, deps, on) {
  await deps.scheduler.global(() => ctx2.reviews.setYolo(on));
  const params = { on };
  try {
    const a = await deps.host.ask(NativeYolo, params, REVIEW_MS);
    if ("error" in a) ctx2.log.warn(`YOLO switch: the host refused: ${JSON.stringify(a.error)}`);
  } catch (e) {
    ctx2.log.info(`YOLO switch: ${errorText2(e)}`);
  }
}

// src/background/popup/tasks.ts
var OVERVIEW_MS = 1e3;
var END_TASK_MS = 15e3;
async function taskSummaries(ctx2, host) {
  const overview = await taskOverview(ctx2, host);
  return ctx2.ownership.taskIds().flatMap((id) => {
    const t = ctx2.ownership.task(id);
    if (t === void 0) return [];
    const o = overview.get(id);
    const s = { taskId: id, label: t.look.label, color: t.look.color, ownedTabs: t.tabs.size, connected: o?.connected ?? false, developer: t.look.developer === true };
    if (o !== void 0) s.idleMs = o.idle_ms;
    return [s];
  });
}
async function taskOverview(ctx2, host) {
  const byId = /* @__PURE__ */ new Map();
  if (host.state().state !== "connected") return byId;
  try {
    const a = await host.ask(NativeTaskOverview, {}, OVERVIEW_MS);
    const tasks = "result" in a && isFields(a.result) ? a.result["tasks"] : void 0;
    if (!Array.isArray(tasks)) return byId;
    for (const t of tasks) {
      if (isFields(t) && typeof t["task_id"] === "string" && typeof t["connected"] === "boolean" && typeof t["idle_ms"] === "number") {
        byId.set(t["task_id"], { task_id: t["task_id"], connected: t["connected"], idle_ms: t["idle_ms"] });
      }
    }
  } catch (e) {
    ctx2.log.info(`task overview: ${errorText2(e)}`);
  }
  return byId;
}
async function endTask(ctx2, host, taskId, closeTabs) {
  const params = { task_id: taskId, close_tabs: closeTabs };
  try {
    const a = await host.ask(NativeEndTask, params, END_TASK_MS);
    if ("error" in a) ctx2.log.warn(`end task ${taskId}: the host refused: ${JSON.stringify(a.error)}`);
  } catch (e) {
    ctx2.log.warn(`end task ${taskId}: ${errorText2(e)}`);
  }
}

// src/background/popup/status.ts
function servePopup(ctx2, ready2, deps) {
  const { host } = deps;
  const reply = async () => {
    const [automation, tasks, stages] = await Promise.all([ctx2.chrome.permissions.contains("scripting"), taskSummaries(ctx2, host), stageSummaries(ctx2)]);
    const now = ctx2.clock.now();
    const r = {
      host: host.state(),
      pause: ctx2.pause.phase(host.state().state === "connected"),
      settling: ctx2.pause.inFlight,
      automation,
      adoptions: ctx2.adoptions.list().map((a) => ({ id: a.id, taskLabel: a.taskLabel, taskColor: a.taskColor, title: a.title, origin: a.origin })),
      tasks,
      yolo: ctx2.reviews.yolo,
      stages,
      notices: ctx2.notices.visible().map((n) => {
        const look = ctx2.ownership.task(n.taskId)?.look;
        return { noticeId: n.noticeId, taskLabel: look?.label ?? "", taskColor: look?.color ?? "grey", reason: n.reason, message: n.message, origin: n.origin, ageMs: Math.max(0, now - n.createdAt) };
      })
    };
    const reason = ctx2.pause.reason;
    if (reason !== void 0) r.pauseReason = reason;
    return r;
  };
  const then = (work) => ready2.then(work).then(reply);
  ctx2.chrome.runtime.onMessage((message, sender) => {
    if (!fromPopup(ctx2, sender)) return void 0;
    if (isStatusRequest(message)) return ready2.then(reply);
    if (isAdoptionAnswer(message)) return then(async () => ctx2.adoptions.answer(message.id, message.allow));
    if (isStageReview(message)) return then(() => reviewStage(ctx2, host, message.handle, message.approve));
    if (isNoticeAction(message)) return then(() => noticeAction(ctx2, deps, message.noticeId, message.action));
    if (isYoloSwitch(message)) return then(() => switchYolo(ctx2, deps, message.on));
    if (isEndTask(message)) return then(() => endTask(ctx2, host, message.taskId, message.closeTabs));
    if (isPauseRequest(message)) return then(() => pauseButton(ctx2, deps, message.paused));
    return void 0;
  });
}
function fromPopup(ctx2, sender) {
  return sender.id === ctx2.chrome.runtime.id && sender.url === ctx2.chrome.runtime.popupUrl;
}
async function pauseButton(ctx2, { host }, paused) {
  if (paused) {
    await beginPause(ctx2);
    const params = { reason: PauseByUser };
    ctx2.notify(EventPauseRequested, params);
  } else if (host.state().state === "connected") {
    ctx2.notify(EventResumeRequested, {});
  } else {
    await ctx2.pause.set(false);
  }
}

// src/background/tabs/adoptions.ts
var Adoptions = class {
  constructor(badge2, clock) {
    this.badge = badge2;
    this.clock = clock;
  }
  badge;
  clock;
  pending = /* @__PURE__ */ new Map();
  next = 1;
  /** Puts a request before the user and resolves with their answer, or timeout. */
  ask(request, timeoutMs) {
    const id = `adopt_${this.next++}`;
    return new Promise((resolve) => {
      const cancelTimer = this.clock.after(timeoutMs, () => settle("timeout"));
      const settle = (a) => {
        if (!this.pending.delete(id)) return;
        cancelTimer();
        this.showBadge();
        resolve(a);
      };
      this.pending.set(id, { request: { id, ...request }, settle });
      this.showBadge();
    });
  }
  /** The user's Allow or Deny; false when the request is no longer pending. */
  answer(id, allow) {
    const p = this.pending.get(id);
    if (p === void 0) return false;
    p.settle(allow ? "allow" : "deny");
    return true;
  }
  /** Ends every pending request as "cancelled" (a Pause began). */
  cancelAll() {
    for (const p of [...this.pending.values()]) p.settle("cancelled");
  }
  list() {
    return [...this.pending.values()].map((p) => p.request);
  }
  showBadge() {
    this.badge.count("adoptions", this.pending.size);
  }
};

// src/background/pause/debugger-cancel.ts
var CANCELED_BY_USER = "canceled_by_user";
function watchDebuggerCancel(ctx2, ready2) {
  let pausing = false;
  ctx2.chrome.debugger.onDetach((tabId, reason) => {
    if (reason !== CANCELED_BY_USER || pausing) return;
    pausing = true;
    void ready2.then(async () => {
      if (ctx2.pause.paused) return;
      ctx2.log.info(`the user canceled debugging (tab ${tabId}): pausing AgentTab`);
      await beginPause(ctx2, PauseByDebuggerCancel);
      const params = { reason: PauseByDebuggerCancel };
      ctx2.notify(EventPauseRequested, params);
    }).catch((e) => ctx2.log.warn(`pausing after the debugging banner's Cancel: ${errorText2(e)}`)).finally(() => {
      pausing = false;
    });
  });
}

// src/background/pause/pause-state.ts
var PAUSED_KEY = "paused";
var PAUSE_REASON_KEY = "pause_reason";
var PauseState = class {
  constructor(storage, log) {
    this.storage = storage;
    this.log = log;
  }
  storage;
  log;
  stored = false;
  why = PauseByUser;
  /** A Pause has begun and the host has not yet said it is in force. */
  settling = false;
  running = 0;
  /** Admission is closed: from the moment a Pause begins, not only once it is in force. */
  get paused() {
    return this.stored;
  }
  /** Who paused, while paused or pausing. */
  get reason() {
    return this.stored ? this.why : void 0;
  }
  /** Agent requests dispatched in this worker and not yet settled: what a Pause waits for. */
  get inFlight() {
    return this.running;
  }
  /**
   * What the popup shows. Pausing lasts until the host, having let its
   * dispatched work settle and stored the Pause, says it is in force
   * (NativePause). With no host connected there is no host work to wait
   * for (a host exits with its port), so only this worker's own work
   * keeps it pausing; the next host tells it the Pause is in force.
   */
  phase(hostConnected) {
    if (!this.stored) return LifecycleReady;
    return this.settling && (hostConnected || this.running > 0) ? LifecyclePausing : LifecyclePaused;
  }
  async load() {
    const v = await this.storage.get(PAUSED_KEY);
    if (v !== void 0 && typeof v !== "boolean") this.log.warn("an unreadable pause record was read as paused");
    this.stored = v !== void 0 && v !== false;
    const r = await this.storage.get(PAUSE_REASON_KEY);
    this.why = PauseReasonValues.find((p) => p === r) ?? PauseByUser;
  }
  /**
   * Begins a Pause (the popup's button or the host's pausing): stored at
   * once, failing closed across a restart, but shown as pausing until it
   * is in force. A Pause already begun or in force stays as it is (with
   * its reason). The reason is stored before the Pause it explains.
   */
  async begin(reason = PauseByUser) {
    if (this.stored) return;
    await this.storage.set(PAUSE_REASON_KEY, reason);
    this.why = reason;
    await this.storage.set(PAUSED_KEY, true);
    this.stored = true;
    this.settling = true;
  }
  /**
   * The host's pause (in force; a Pause begun here keeps its reason, one
   * the host began is the user's) or unpause (Resume clears the reason).
   * Persists first, then takes effect.
   */
  async set(paused) {
    const why = paused && this.stored ? this.why : PauseByUser;
    await this.storage.set(PAUSE_REASON_KEY, why);
    this.why = why;
    await this.storage.set(PAUSED_KEY, paused);
    this.stored = paused;
    this.settling = false;
  }
  /** Runs one agent request, counted in inFlight until it settles. */
  async track(work) {
    this.running++;
    try {
      return await work();
    } finally {
      this.running--;
    }
  }
};

// src/background/tabs/watch-ownership.ts
function watchOwnership(ctx2, ready2) {
  const { chrome: api2, ownership: ownership2, log } = ctx2;
  api2.tabs.onRemoved(
    (tabId) => whenReady(ready2, log, "tabs.onRemoved", async () => {
      await revoke(ctx2, tabId, RevokeClosed, "event");
    })
  );
  api2.tabs.onUpdated((tabId, change) => {
    const groupId = change.groupId;
    if (groupId === void 0) return;
    whenReady(ready2, log, "tabs.onUpdated", async () => {
      const owner = ownership2.owner(tabId);
      if (owner === void 0 || owner.tab.groupId === groupId) return;
      const lost = lossReason(await api2.tabs.get(tabId), owner.tab.groupId);
      if (lost !== void 0) await revoke(ctx2, tabId, lost, "event");
    });
  });
  api2.tabs.onAttached(
    (tabId, windowId) => whenReady(ready2, log, "tabs.onAttached", async () => {
      const owner = ownership2.owner(tabId);
      if (owner === void 0) return;
      const tab = await api2.tabs.get(tabId);
      const lost = lossReason(tab, owner.tab.groupId);
      if (lost !== void 0) {
        await revoke(ctx2, tabId, lost, "event");
        return;
      }
      ownership2.moveWindow(tabId, windowId);
      await ownership2.persist();
    })
  );
}

// src/background/tabs/watch-revisions.ts
function watchRevisions(ctx2, ready2) {
  const { chrome: api2, ownership: ownership2, log } = ctx2;
  const bump = (tabId) => whenReady(ready2, log, "revision", async () => {
    const revision = ownership2.bump(tabId);
    if (revision === void 0) return;
    const notice = { tab_id: tabId, revision };
    ctx2.notify(EventRevision, notice);
    await ownership2.persist();
  });
  const topFrame = (d) => {
    if (d.frameId === 0) bump(d.tabId);
  };
  api2.webNavigation.onCommitted(topFrame);
  api2.webNavigation.onHistoryStateUpdated(topFrame);
  api2.webNavigation.onReferenceFragmentUpdated(topFrame);
  const own2 = `chrome-extension://${api2.runtime.id}/`;
  api2.tabs.onUpdated((tabId, change) => {
    const url = change.url;
    if (url !== void 0 && url.startsWith("chrome-extension://") && !url.startsWith(own2)) bump(tabId);
  });
}

// src/background/main.ts
var api = realChrome();
var ownership = new Ownership(api.storageSession, consoleLog, api.storageLocal);
api.runtime.onStartup(() => void ready.then(() => ownership.browserStarted()));
var pause = new PauseState(api.storageLocal, consoleLog);
var badge = new Badge(api.action, consoleLog);
var reviews = new Reviews(api.storageLocal, realClock, consoleLog, (n) => badge.count("stages", n));
var notices = new Notices(api.storageLocal, realClock, consoleLog, (taskId, tabId) => ownership.owner(tabId)?.taskId === taskId, (n) => badge.count("notices", n));
var ready = Promise.all([ownership.load(), pause.load(), reviews.load()]).then(() => notices.load());
var pages = new Pages(api, realClock, consoleLog, ownership, virtual_page_agent_default);
pages.debuggers.refuseAttachWhile(() => pause.reason === PauseByDebuggerCancel ? pauseRefusal(pause.reason) : void 0);
var origins = new OriginGuard(api, pages.debuggers, ownership, consoleLog, askHost((method, params, ms) => connection.ask(method, params, ms)));
var focus = new FocusGuard(api, ownership, realClock, consoleLog);
var ctx = {
  chrome: api,
  ownership,
  pages,
  children: new Children(consoleLog, focus),
  origins,
  pause,
  adoptions: new Adoptions(badge, realClock),
  notices,
  reviews,
  challenges: new Challenges(realClock),
  notify: (event2, params) => connection.notify(event2, params),
  clock: realClock,
  log: consoleLog
};
var scheduler = new Scheduler();
var hello = () => {
  const reason = pause.reason;
  return reason === void 0 ? { paused: pause.paused, yolo: reviews.yolo } : { paused: pause.paused, pause_reason: reason, yolo: reviews.yolo };
};
var connection = new HostConnection(api, dispatcher(ctx, ready, scheduler), realClock, consoleLog, hello, (welcome) => origins.welcomed(welcome));
watchOwnership(ctx, ready);
watchRevisions(ctx, ready);
watchChildren(ctx, ready);
watchNotices(ctx, ready);
watchDebuggerCancel(ctx, ready);
watchAutomation(ctx);
servePopup(ctx, ready, {
  host: { state: () => connection.state, ask: (method, params, ms) => connection.ask(method, params, ms) },
  scheduler,
  focus
});
void ready.then(() => connection.connect());
void focus.load().catch((e) => consoleLog.warn(`reading the user's view: ${errorText2(e)}`));
