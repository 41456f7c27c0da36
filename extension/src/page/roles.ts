// Roles as Chrome's accessibility tree reports them for common HTML
// (HTML-AAM as implemented by Chrome 156, notes/chromium.md), and the
// explicit role attribute. The role names are the ARIA ones, the same
// vocabulary the "- role "name" [ref=eN]" style uses.

// ARIA 1.2 roles (plus graphics-*), the values an explicit role may take.
const ARIA_ROLES = new Set(
  (
    "alert alertdialog application article banner blockquote button caption cell checkbox code columnheader " +
    "combobox complementary contentinfo definition deletion dialog directory document emphasis feed figure form " +
    "generic grid gridcell group heading img image insertion link list listbox listitem log main mark marquee math " +
    "menu menubar menuitem menuitemcheckbox menuitemradio meter navigation none note option paragraph presentation " +
    "progressbar radio radiogroup region row rowgroup rowheader scrollbar search searchbox separator slider " +
    "spinbutton status strong subscript superscript switch tab table tablist tabpanel term textbox time timer " +
    "toolbar tooltip tree treegrid treeitem graphics-document graphics-object graphics-symbol"
  ).split(" "),
);

/** Context the walker passes down that changes implicit roles. */
export interface RoleContext {
  /** Inside a table whose role is none/presentation: its rows and cells lose their roles. */
  presentationalTable: boolean;
  /**
   * The nearest ul/ol/menu has role list: its li are list items. Chrome
   * 156 gives an li in a list with another role (none, or a widget's menu
   * or listbox, as jQuery UI makes them) no role of its own.
   */
  listItems: boolean;
  /** Inside article, aside, main, nav or section: header/footer are not landmarks. */
  sectioning: boolean;
  /** The nearest table's role is grid or treegrid: cells are gridcells. */
  grid: boolean;
}

/** The element's role: explicit when valid, implicit otherwise; "none" when it has none. */
export function roleOf(el: Element, ctx: RoleContext): string {
  const explicit = explicitRole(el);
  if (explicit !== undefined) {
    // ARIA's conflict resolution: a focusable element keeps its role.
    if ((explicit === "none" || explicit === "presentation") && !focusable(el)) return "none";
    // Chrome 156 reports img as "image" (ARIA 1.3's name for it).
    if (explicit !== "none" && explicit !== "presentation") return explicit === "img" ? "image" : explicit;
  }
  return implicitRole(el, ctx);
}

/** The first recognised token of the role attribute. */
export function explicitRole(el: Element): string | undefined {
  const attr = el.getAttribute("role");
  if (attr === null) return undefined;
  for (const token of attr.trim().toLowerCase().split(/\s+/)) {
    if (ARIA_ROLES.has(token)) return token;
  }
  return undefined;
}

/** Natively focusable, or made focusable with tabindex. */
function focusable(el: Element): boolean {
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

const INPUT_ROLES: Record<string, string> = {
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
  search: "searchbox",
};

// Tags whose role does not depend on context or attributes.
const FIXED_ROLES: Record<string, string> = {
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
  h6: "heading",
};

function implicitRole(el: Element, ctx: RoleContext): string {
  const tag = el.localName;
  const fixed = FIXED_ROLES[tag];
  if (fixed !== undefined) return fixed;
  switch (tag) {
    case "a":
    case "area":
      return el.hasAttribute("href") ? "link" : "generic";
    case "input":
      return el instanceof HTMLInputElement ? inputRole(el) : "generic";
    case "select":
      return el instanceof HTMLSelectElement && (el.multiple || el.size > 1) ? "listbox" : "combobox";
    case "img":
      // alt="" marks a decorative image (HTML-AAM), unless it is named otherwise.
      return el.getAttribute("alt") === "" && !el.hasAttribute("aria-label") && !el.hasAttribute("title") ? "none" : "image";
    case "svg":
      return "image";
    case "section":
      // An unnamed section is generic in Chrome (notes/chromium.md).
      return hasOwnName(el) ? "region" : "generic";
    case "form":
      // Chrome 156 reports a form without a name as a form too (checked
      // with getPartialAXTree), unlike an unnamed section.
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

function inputRole(el: HTMLInputElement): string {
  const type = el.type;
  if (type === "hidden") return "none";
  const fixed = INPUT_ROLES[type];
  if (fixed !== undefined) return type === "search" && el.hasAttribute("list") ? "combobox" : fixed;
  // text, email, tel, url, password and the date/time types read as text
  // fields; with a datalist they offer suggestions (combobox).
  return el.hasAttribute("list") ? "combobox" : "textbox";
}

function headerCellRole(th: Element): string {
  const scope = th.getAttribute("scope");
  if (scope === "row" || scope === "rowgroup") return "rowheader";
  if (scope === "col" || scope === "colgroup") return "columnheader";
  const row = th.parentElement;
  if (row?.parentElement?.localName === "thead") return "columnheader";
  // A header cell in a row that also holds data cells heads that row.
  if (row) {
    for (const cell of row.children) if (cell.localName === "td") return "rowheader";
  }
  return "columnheader";
}

/** A name from the element's own attributes (what makes section a region). */
function hasOwnName(el: Element): boolean {
  return (
    (el.getAttribute("aria-label") ?? "").trim() !== "" ||
    (el.getAttribute("aria-labelledby") ?? "").trim() !== "" ||
    (el.getAttribute("title") ?? "").trim() !== ""
  );
}

/** Whether el sits inside an editing host (only the host is the textbox). */
function editableParent(el: HTMLElement): boolean {
  const p = el.parentElement;
  return p !== null && p.isContentEditable;
}

/** The heading level: aria-level, else h1–h6, else 2 (ARIA's default). */
export function headingLevel(el: Element): number {
  const aria = Number.parseInt(el.getAttribute("aria-level") ?? "", 10);
  if (aria >= 1) return aria;
  const m = /^h([1-6])$/.exec(el.localName);
  return m?.[1] !== undefined ? Number(m[1]) : 2;
}

// Roles whose name comes from their content (ARIA "name from: contents").
// Not row: Chrome 156 gives table rows no name.
export const NAME_FROM_CONTENT = new Set(
  (
    "button cell checkbox columnheader gridcell heading link menuitem menuitemcheckbox menuitemradio option " +
    "radio rowheader switch tab tooltip treeitem"
  ).split(" "),
);
