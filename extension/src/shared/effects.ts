// The Commit classifier's rule set (spec 000: "Before a Standard
// mutation, the extension prepares the target, classifies recognizable
// effects, revalidates it, and then executes it"; issue 12). Bundled and
// reviewed like code: pure functions over a plain description of the
// control a step would activate (page/effect.ts builds it from the DOM),
// unit-tested with a corpus of positive and negative examples in
// effects.test.ts.
//
// Best-effort by the spec's own words: "A page can hide an external
// effect behind an innocent label, alter meaning through script, or use an
// effect AgentTab does not recognize. Harmless-looking controls may
// execute without review." So the rules aim to be precise on the labels
// people actually see (an imperative verb, optionally with a short
// object: "Send", "Place order", "Konto löschen", "注文を確定する"), and
// otherwise stay quiet: a false positive costs the human a review in
// review mode, a false negative is what the spec already concedes.
//
// Evidence, strongest first:
// 1. the control's accessible name, against per-language phrase lists;
// 2. attributes page authors and frameworks set on the control
//    (data-method="delete", data-testid="tweetButton", id="place-order"),
//    read as English identifier words;
// 3. its form: a DELETE method (Rails' hidden _method), an OAuth consent
//    action, a file input, payment-card fields.
// A name that says "cancel", "draft", "cart", "don't" and the like stops
// all of it: such a control is the way out of an effect, or not one. A
// submit of a form that says method="get" asks for a page (a search, a
// filter): only its delete, purchase and authorization names count.

import type { Effect } from "../protocol/generated";
import { words } from "./sensitive";

/** What the rules read of a step's control (page/effect.ts fills it in). */
export interface EffectTarget {
  /** The control's local name ("button", "input", "a", "div"). */
  tag: string;
  /** Its role (page/roles.ts). */
  role: string;
  /** Its accessible name (page/name.ts). */
  name: string;
  /** An input's or button's type ("submit", "button", "file"), lower case; "" otherwise. */
  type: string;
  /** A link that navigates by itself (an href that is neither "#…" nor javascript:). */
  navigates: boolean;
  /** It submits its form (a submit button, or the form's default button for Enter in a field). */
  submits: boolean;
  /** For a press step: the key ("Enter", "Space"), without modifiers; "" for a pointer step. */
  press: string;
  /** For a press step: the field the key goes to ("text", "search", "textarea", "contenteditable"); "" otherwise. */
  inputType: string;
  /** Its form's action, origin and path only (a formaction attribute wins); "" without a form. */
  formAction: string;
  /**
   * Its form's method, lower case, as the page says it: "get", "post",
   * "dialog", or a framework's override ("delete", "put", "patch"); ""
   * when the form names none (a script's form, whose default GET is often
   * never sent) or without a form.
   */
  formMethod: string;
  /** The types of its form's fields, sorted, unique ("email", "file", "password", "textarea", "select"). */
  formInputTypes: string[];
  /** Its form's payment-card autocomplete tokens (cc-*), sorted, unique. */
  formAutocomplete: string[];
  /** Identifier-like attributes of the control: data-method, data-action, data-testid, name, id, up to 8 class tokens. */
  hints: string[];
}

export interface EffectMatch {
  effect: Effect;
  /** Which rule matched: the evidence, for tests and the docs. */
  rule: string;
}

// ---------------------------------------------------------------------------
// Names.

/**
 * The form names are matched in: compatibility forms folded (full-width
 * letters), accents dropped, lower case, prices and counts dropped ("Pay
 * $12.00", "Delete (3)"), punctuation as spaces. The phrase lists go
 * through the same function, so both sides agree.
 */
export function normalizeName(s: string): string {
  return s
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/[\p{N}]+/gu, " ")
    .replace(/[\p{P}\p{S}]+/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
}

// Han, kana and Hangul: these languages do not space their words, so a
// phrase in them is matched as a substring of a short name.
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/** A phrase: its words (spaced languages) or its characters (CJK). */
interface Phrase {
  words: string[];
  cjk: string;
  closes: boolean;
  /** CJK: an object may follow it (Chinese verb-object order). */
  object: boolean;
}

/**
 * Phrases open a name ("Send message"); a "~" before a phrase lets it
 * close the name too, for the verb-final infinitives of German and Dutch
 * ("Nachricht senden", "Account verwijderen"). English ones never close
 * it: "New post" and "Blog post" name things, they do not post.
 *
 * A CJK phrase closes the name, or only a verb ending follows it
 * ("メッセージを送信", "削除する"): what else follows a Japanese verbal
 * noun makes a compound noun ("投稿日" post date, "購入者" buyer, "送信済み"
 * sent). A "+" before a Chinese verb lets an object follow it too ("发送消息",
 * "上传文件"), unless the object is one of NOUN_AFTER ("发布时间" publish time).
 */
function phrases(list: string[]): Phrase[] {
  return list.map((p) => {
    const closes = p.startsWith("~");
    const object = p.startsWith("+");
    const n = normalizeName(closes || object ? p.slice(1) : p);
    return CJK.test(n) ? { words: [], cjk: n.replace(/ /g, ""), closes: true, object } : { words: n.split(" "), cjk: "", closes, object: false };
  });
}

// A name is a command when the phrase opens it (or closes it, for
// phrases marked so) and at most this many words go with it ("Send
// message now"). Longer names are sentences, not commands.
const MAX_EXTRA_WORDS = 3;
// CJK names: at most this much longer than the phrase ("メッセージを送信"
// is 送信 and 5 more).
const MAX_EXTRA_CJK = 6;
// What may follow a Japanese verbal noun in a command: the plain and the
// polite verb ("送信する", "削除します"). Not the past ("送信しました").
const VERB_ENDINGS = ["する", "します"];
// Before a CJK verb, these make the name a state, not a command: done
// (已发送 sent, 已删除 deleted), not yet (未送信 unsent), pending (待发送),
// passive (被删除), not (不发送), in progress (正在发送).
const STATE_BEFORE = ["已", "未", "待", "被", "不", "正在"];
// After a Chinese verb, these make a noun or a state, not its object:
// dates, people, counts, amounts, times, progress and completion,
// destination and source, reasons and notes, pages and screens.
const NOUN_AFTER = [
  "日", "者", "人", "数", "數", "量", "额", "額", "金额", "金額", "时", "時", "中", "了", "完成", "成功", "失败", "失敗",
  "状态", "狀態", "先", "元", "原因", "须知", "須知", "说明", "說明", "页", "頁", "画面",
];
const KANA = /[\p{Script=Hiragana}\p{Script=Katakana}]/u;

interface NameForm {
  words: string[];
  cjk: string;
}

function nameForm(name: string): NameForm {
  return wordsForm(normalizeName(name).split(" ").filter((w) => w !== ""));
}

function wordsForm(words: string[]): NameForm {
  return { words, cjk: words.join("") };
}

// Where a name's first clause ends: "Delete forever, there is no undo"
// commands "Delete forever" and warns after it. Checked after NFKD, which
// folds the full-width comma and colon; the ideographic ones stay.
const CLAUSE_END = /[,;:!?.()[\]\u2013\u2014\u3001\u3002]/u;

// Words that confirm before the command and name no effect of their own:
// "Yes, delete it", "OK, send", "Confirm and pay", "Submit post", "Ja,
// löschen", "Oui, supprimer", "Sí, eliminar", "Sim, excluir", "Ja,
// verwijderen". What follows them is the command.
const LEADS = phrases([
  "yes", "ok", "okay", "confirm and", "confirm", "submit",
  "ja", "bestatigen und", "bestatigen",
  "oui", "confirmer et", "confirmer",
  "si", "confirmar y", "confirmar",
  "sim", "confirmar e",
  "conferma e", "conferma",
  "bevestigen en", "bevestigen",
]).sort((a, b) => b.words.length - a.words.length);

function withoutLeads(n: NameForm): NameForm {
  let ws = n.words;
  for (let lead = LEADS.find((p) => startsWith(ws, p.words)); lead !== undefined; lead = LEADS.find((p) => startsWith(ws, p.words))) {
    ws = ws.slice(lead.words.length);
  }
  return ws === n.words ? n : wordsForm(ws);
}

/**
 * The forms of a name a command is looked for in, in order: the whole
 * name, without its leading confirmation words, and its first clause
 * that is more than those words.
 */
function commandForms(name: string): NameForm[] {
  const whole = nameForm(name);
  const forms = [whole, withoutLeads(whole)];
  const clause = name
    .normalize("NFKD")
    .split(CLAUSE_END)
    .map((c) => withoutLeads(nameForm(c)))
    .find((c) => c.words.length > 0);
  if (clause !== undefined) forms.push(clause);
  return forms;
}

function startsWith(ws: string[], p: string[]): boolean {
  return p.length <= ws.length && p.every((w, i) => ws[i] === w);
}

function endsWith(ws: string[], p: string[]): boolean {
  const off = ws.length - p.length;
  return off >= 0 && p.every((w, i) => ws[off + i] === w);
}

function runAt(ws: string[], i: number, p: string[]): boolean {
  return i >= 0 && i + p.length <= ws.length && p.every((w, j) => ws[i + j] === w);
}

function containsRun(ws: string[], p: string[]): boolean {
  for (let i = 0; i + p.length <= ws.length; i++) {
    if (runAt(ws, i, p)) return true;
  }
  return false;
}

/** The CJK name is this command (Phrase says what may follow it). */
function cjkCommands(name: string, p: Phrase): boolean {
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

/** The name is this command: the phrase opens or closes it, with few other words. */
function commands(n: NameForm, list: Phrase[]): boolean {
  for (const p of list) {
    if (p.cjk !== "") {
      if (cjkCommands(n.cjk, p)) return true;
    } else if (n.words.length <= p.words.length + MAX_EXTRA_WORDS && (startsWith(n.words, p.words) || (p.closes && endsWith(n.words, p.words)))) {
      return true;
    }
  }
  return false;
}

/** The phrase occurs anywhere in the name. */
function mentions(n: NameForm, list: Phrase[]): boolean {
  return list.some((p) => (p.cjk !== "" ? n.cjk.includes(p.cjk) : containsRun(n.words, p.words)));
}

// Words that make a name the way out of an effect, a preparation for it,
// or something else: checked before every rule, in every language,
// anywhere in the name, unless a negation goes right before one ("there
// is no undo").
const STOP = phrases([
  // Cancel, undo, close without acting.
  "cancel", "undo", "unsend", "abort", "abbrechen", "ruckgangig", "annuler", "cancelar", "annulla", "annuleren",
  "キャンセル", "取り消", "取消", "撤销", "撤銷", "非公開",
  // Negations in CJK ("許可しない", "不允许"); the spaced languages' are NEGATIONS.
  "しない", "不允许", "不允許", "不同意",
  // Refusals.
  "deny", "decline", "block", "reject", "ablehnen", "blockieren", "refuser", "bloquer", "rechazar", "bloquear", "recusar", "rifiuta", "blocca",
  "weigeren", "blokkeren", "拒否", "ブロック", "拒绝", "拒絕", "阻止",
  // Drafts and previews: nothing leaves.
  "draft", "drafts", "preview", "entwurf", "vorschau", "brouillon", "apercu", "borrador", "rascunho", "bozza", "anteprima", "concept",
  "下書き", "プレビュー", "草稿", "预览", "預覽",
  // Carts and wish lists: putting something in a cart is not buying it.
  "cart", "basket", "bag", "wishlist", "warenkorb", "merkliste", "panier", "carrito", "cesta", "carrinho", "sacola", "carrello",
  "winkelwagen", "winkelmand", "カート", "買い物かご", "购物车", "購物車",
  // Cookie banners: "Allow all cookies" grants nothing the spec lists.
  "cookie", "cookies",
  // Settings and help about an effect, not the effect.
  "settings", "help", "learn more", "how to", "einstellungen", "parametres", "configuracion", "configuracoes", "impostazioni",
  "instellingen", "設定", "设置", "設置", "方法", "方式",
  // Filters, plural: "Eliminar filtros", "Supprimer les filtres", "Alle
  // Filter löschen" clear a search's filters. "Delete filter" deletes a
  // saved one. German's plural is its singular: "Filter" before the verb.
  "filters", "filtres", "filtros", "filtri", "filter loschen",
  // Lists of posts or orders: "投稿一覧", "订单列表".
  "一覧", "列表",
  // "Post code", "Post office": not publishing.
  "post code", "post office",
]);

// Negations: "Don't allow", "Not now", "Nicht zulassen", "Ne pas
// autoriser", "No permitir", "Não permitir", "Non consentire", "Niet
// toestaan". One stops the name as its first word or right before an
// effect's verb ("Jetzt nicht senden"); elsewhere it belongs to an object
// or a warning ("Send to no-reply", "Delete note no. 3").
const NEGATIONS = phrases(["don t", "dont", "do not", "not", "never", "no", "ne", "nicht", "pas", "nao", "non", "niet"]);

// History names a record of effects ("Purchase history", "購入履歴",
// "购买记录"): every effect's word in it is a noun, except delete's
// ("Delete history", "履歴を削除", "删除记录" delete it).
const HISTORY = phrases(["history", "履歴", "记录", "記錄"]);

// Each effect's phrases, in English, German, French, Spanish, Portuguese,
// Italian, Dutch, Japanese and Chinese. Left out on purpose, with the
// reason: "Remove"/"Entfernen"/"Retirer" (removes from lists, carts and
// filters far more often than it deletes), "Borrar"/"Apagar" (as often
// "clear"), "Checkout"/"Afrekenen"/"Finalizar compra" (lead to the
// checkout page, which has the real purchase control), "Subscribe"
// (newsletters, follows; a paid one has a payment form, which the form
// rules see), "Share" and "Reply" (usually open a dialog or a composer,
// whose own button is "Send" or "Post"), "Submit"/"Continue"/"OK" (no
// effect named; the form rules may still say one), "Sign in", "Sign up".
const PERMISSION_VERBS = phrases([
  "allow", "enable", "turn on", "grant", "share", "give",
  "zulassen", "erlauben", "aktivieren", "einschalten", "freigeben", "teilen",
  "autoriser", "activer", "partager", "permettre",
  "permitir", "activar", "compartir",
  "ativar", "compartilhar", "partilhar",
  "consenti", "consentire", "attiva", "abilita", "condividi",
  "toestaan", "inschakelen", "aanzetten", "delen",
  "許可", "有効", "オン",
  "允许", "允許", "开启", "開啟", "启用", "啟用", "打开",
]);
const PERMISSION_OBJECTS = phrases([
  "notifications", "notification", "push notifications", "location", "camera", "microphone", "mic", "clipboard",
  "benachrichtigungen", "mitteilungen", "standort", "standortzugriff", "kamera", "mikrofon",
  "localisation", "position", "camera", "micro",
  "notificaciones", "ubicacion", "camara", "microfono",
  "notificacoes", "localizacao", "microfone",
  "notifiche", "posizione", "fotocamera", "microfono",
  "meldingen", "notificaties", "pushmeldingen", "locatie", "microfoon",
  "通知", "位置情報", "カメラ", "マイク",
  "位置", "定位", "摄像头", "相机", "相機", "麦克风", "麥克風",
]);
// At most this many words in a permission prompt's button ("Allow push
// notifications for this site" is not a button label).
const MAX_PERMISSION_WORDS = 5;
const MAX_PERMISSION_CJK = 10;

// A bare "Allow" (and its translations): permission_grant by itself, an
// authorization on an OAuth consent form (formContext below).
const BARE_ALLOW = phrases(["allow", "zulassen", "erlauben", "permitir", "consenti", "toestaan", "許可", "許可する", "允许", "允許"]);

const AUTHORIZATION = phrases([
  "authorize", "authorise", "allow access", "grant access", "give access",
  "autorisieren", "zugriff erlauben", "zugriff gewahren", "zugriff zulassen",
  "autoriser", "autoriser l acces", "accorder l acces",
  "autorizar", "permitir acceso", "permitir el acceso", "conceder acceso",
  "permitir acesso", "conceder acesso",
  "autorizza", "consenti l accesso", "consenti accesso",
  "autoriseren", "toegang verlenen", "toegang toestaan",
  "承認", "認可", "アクセスを許可",
  "授权", "授權", "同意授权", "允许访问", "允許存取", "允許訪問",
]);

const PURCHASE = phrases([
  "buy", "buy now", "buy it now", "purchase", "complete purchase", "confirm purchase", "place order", "place your order",
  "submit order", "complete order", "confirm order", "order now", "pay", "pay now", "donate",
  "submit payment", "confirm payment", "complete payment",
  "~kaufen", "jetzt kaufen", "zahlungspflichtig bestellen", "kostenpflichtig bestellen", "jetzt bestellen", "~bestellen",
  "~bezahlen", "jetzt bezahlen", "kauf abschliessen", "~spenden",
  "acheter", "acheter maintenant", "payer", "passer la commande", "passer commande", "commander", "valider la commande",
  "confirmer la commande", "confirmer l achat", "faire un don",
  "comprar", "comprar ahora", "pagar", "realizar pedido", "confirmar pedido", "confirmar compra", "hacer pedido", "donar",
  "comprar agora", "fazer pedido", "finalizar pedido", "doar",
  // Not "Ordina" alone: it is also "sort" ("Ordina per prezzo").
  "acquista", "acquista ora", "compra", "paga", "paga ora", "conferma ordine", "effettua ordine", "ordina ora", "conferma acquisto",
  "~kopen", "nu kopen", "koop", "~betalen", "nu betalen", "~bestelling plaatsen", "~doneren",
  "購入", "今すぐ購入", "注文を確定", "注文する", "支払う", "支払いを確定",
  "购买", "購買", "立即购买", "提交订单", "提交訂單", "支付", "立即支付", "付款", "确认付款", "確認付款", "捐款",
]);

const DELETE = phrases([
  "delete", "delete forever", "delete permanently", "permanently delete", "erase", "destroy", "trash", "move to trash",
  "move to bin", "empty trash", "close account",
  "~loschen", "~endgultig loschen", "in den papierkorb",
  "supprimer", "supprimer definitivement", "mettre a la corbeille",
  "eliminar", "eliminar definitivamente", "mover a la papelera",
  "excluir", "mover para a lixeira",
  // Not "Cancella": as often "clear" ("Cancella filtri").
  "elimina", "elimina definitivamente", "sposta nel cestino",
  "~verwijderen", "verwijder", "~definitief verwijderen", "naar prullenbak",
  "削除", "ゴミ箱に移動",
  "+删除", "+刪除", "移至回收站",
]);

const PUBLISH = phrases([
  "publish", "publish now", "post", "post now", "tweet", "post comment", "post reply",
  "~veroffentlichen", "jetzt veroffentlichen", "~posten",
  "publier", "publier maintenant",
  "publicar", "publicar ahora", "publicar agora",
  "pubblica", "pubblicare",
  "~publiceren", "~plaatsen",
  "公開", "公開する", "投稿", "投稿する",
  "+发布", "+發布", "+發佈", "+发表", "+發表",
]);

const UPLOAD = phrases([
  "upload", "upload file", "upload files", "upload photo",
  "~hochladen",
  "televerser",
  "subir archivo", "subir archivos", "cargar archivo", "cargar archivos",
  "enviar arquivo", "enviar arquivos", "fazer upload", "carregar ficheiro",
  // Not "Carica" alone: "Carica altro" is "load more".
  "carica file", "carica foto",
  "~uploaden",
  "アップロード",
  "+上传", "+上傳",
]);

const SEND = phrases([
  "send", "resend", "send now", "send message",
  "~senden", "~absenden", "~abschicken", "~versenden",
  "envoyer",
  "enviar",
  "invia", "inviare",
  "~verzenden", "~versturen", "verstuur", "verzend",
  // Not 送る: 見送る is "pass on it".
  "送信", "送信する",
  "+发送", "+發送", "寄出",
]);

// The order of the name rules: the most specific first, so "Bestelling
// plaatsen" (place an order) is a purchase before "plaatsen" (post) is a
// publication, and "Allow notifications" a permission before "Allow" alone.
const NAME_RULES: { effect: Effect; rule: string; list: Phrase[] }[] = [
  { effect: "authorization", rule: "name_authorization", list: AUTHORIZATION },
  { effect: "purchase", rule: "name_purchase", list: PURCHASE },
  { effect: "delete", rule: "name_delete", list: DELETE },
  { effect: "publish", rule: "name_publish", list: PUBLISH },
  { effect: "upload", rule: "name_upload", list: UPLOAD },
  { effect: "send", rule: "name_send", list: SEND },
];

// ---------------------------------------------------------------------------
// Roles.

// What a click or a key activates as a command. A checkbox, switch,
// radio, option, tab or field changes a choice; the submit that follows
// is the effect ("Delete my data" on a checkbox deletes nothing yet).
// generic and none: a clickable div the snapshot marked [clickable].
const COMMAND_ROLES = new Set(["button", "link", "menuitem", "menuitemcheckbox", "menuitemradio", "generic", "none", "form"]);

// ---------------------------------------------------------------------------
// Attributes: identifiers in English, whatever the page's language.

const HINT_RULES: { effect: Effect; rule: string; words: string[][] }[] = [
  // rails-ujs and Turbo: <a data-method="delete"> sends a DELETE.
  { effect: "delete", rule: "hint_delete", words: [["delete"], ["destroy"], ["trash"]] },
  { effect: "purchase", rule: "hint_purchase", words: [["purchase"], ["place", "order"], ["placeorder"], ["buy", "now"], ["buynow"], ["pay", "now"], ["submit", "order"], ["complete", "order"]] },
  // X's composer: data-testid="tweetButton" / "tweetButtonInline".
  { effect: "publish", rule: "hint_publish", words: [["publish"], ["tweet"]] },
  { effect: "upload", rule: "hint_upload", words: [["upload"]] },
  { effect: "authorization", rule: "hint_authorization", words: [["authorize"], ["oauth", "approve"]] },
  { effect: "send", rule: "hint_send", words: [["send"]] },
];
const HINT_STOP = ["cancel", "undo", "draft", "preview", "close", "dismiss", "search", "cart"];

function hintWords(hints: string[]): string[][] {
  return hints.map((h) => words(h).split("-").filter((w) => w !== ""));
}

// ---------------------------------------------------------------------------
// Form context.

const FORM_METHOD_DELETE = "delete";
// An OAuth or consent endpoint: the path's words (Google's
// /signin/oauth/consent, GitHub's /login/oauth/authorize).
const CONSENT_PATH = ["oauth", "oauth2", "authorize", "authorise", "consent"];
const CARD_AUTOCOMPLETE = ["cc-number", "cc-csc", "cc-exp"];

function pathWords(action: string): string[] {
  let path = action;
  const scheme = action.indexOf("://");
  if (scheme >= 0) {
    const slash = action.indexOf("/", scheme + 3);
    path = slash >= 0 ? action.slice(slash) : "/";
  }
  return words(path).split("-");
}

// ---------------------------------------------------------------------------
// The classifier.

// A submit of a form that says method="get" asks for a page: a search or
// a filter, whatever its button says ("Enviar", "Send", "Go"). Of the
// effects a name or an attribute says, only these are kept for it,
// conservatively: a GET can still delete or buy on a badly built site
// ("?action=delete"), and OAuth's authorization endpoint takes GET
// requests (RFC 6749), where a wrong "no" costs data, money or access
// and a wrong "yes" a review. A file input makes it no search.
const GET_KEEPS: ReadonlySet<Effect> = new Set<Effect>(["delete", "purchase", "authorization"]);

/** The effect of activating this control, or null when no rule recognises one. */
export function classifyEffect(t: EffectTarget): EffectMatch | null {
  const name = nameForm(t.name);
  if (stopped(name)) return null;
  const m = classify(t);
  return m !== null && m.effect !== "delete" && mentions(name, HISTORY) ? null : m;
}

/** A stop word anywhere, not right after a negation; a negation first or right before a verb. */
function stopped(n: NameForm): boolean {
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

// Every effect's phrases, for a negation right before one.
const VERBS: Phrase[] = [...NAME_RULES.flatMap((r) => r.list), ...BARE_ALLOW, ...PERMISSION_VERBS].filter((p) => p.cjk === "");

function verbAt(ws: string[]): boolean {
  return VERBS.some((p) => startsWith(ws, p.words));
}

function classify(t: EffectTarget): EffectMatch | null {
  // A key that does not activate (Delete, Backspace, Tab, letters) has no
  // effect of its own; nor Enter in a search field (it searches).
  if (t.press !== "" && t.press !== "Enter" && t.press !== "Space") return null;
  if (t.press === "Enter" && t.inputType === "search") return null;
  if (!COMMAND_ROLES.has(t.role)) return null;

  const method = t.formMethod === FORM_METHOD_DELETE && (t.submits || t.navigates) ? FORM_METHOD_DELETE : "";
  if (method !== "") return { effect: "delete", rule: "form_method_delete" };
  // A link that navigates by itself asks the server for a page: "Buy now"
  // and "Delete" links lead to the page with the real control. Only a
  // framework's data-method (hints) turns one into a request with an effect.
  if (t.navigates) return t.hints.length > 0 && hasMethodHint(t.hints) ? { effect: "delete", rule: "hint_data_method_delete" } : null;

  const said = namesEffect(t) ?? hintEffect(t.hints);
  const search = t.submits && t.formMethod === "get" && !t.formInputTypes.includes("file");
  if (said !== null && !(search && !GET_KEEPS.has(said.effect))) return said;
  return t.submits ? formEffect(t) : null;
}

/** The first of the name's command forms (commandForms) with an effect. */
function namesEffect(t: EffectTarget): EffectMatch | null {
  for (const n of commandForms(t.name)) {
    const m = nameEffect(n, t);
    if (m !== null) return m;
  }
  return null;
}

// rails-ujs (data-method) and Turbo (data-turbo-method) send a link's
// request with this method.
const METHOD_HINT = /^data-(turbo-)?method:delete$/i;

function hasMethodHint(hints: string[]): boolean {
  return hints.some((h) => METHOD_HINT.test(h));
}

function nameEffect(n: NameForm, t: EffectTarget): EffectMatch | null {
  if (n.words.length === 0 && n.cjk === "") return null;
  const cjk = CJK.test(n.cjk);
  const short = cjk ? n.cjk.length <= MAX_PERMISSION_CJK : n.words.length <= MAX_PERMISSION_WORDS;
  if (short && mentions(n, PERMISSION_VERBS) && mentions(n, PERMISSION_OBJECTS)) {
    return { effect: "permission_grant", rule: "name_permission" };
  }
  // "Allow" alone ("許可する" at most): "Allow access" is the authorization rule's.
  const bare = cjk ? n.cjk.length <= 4 : n.words.length === 1;
  if (bare && commands(n, BARE_ALLOW)) {
    return consentForm(t) ? { effect: "authorization", rule: "consent_form_allow" } : { effect: "permission_grant", rule: "name_allow" };
  }
  for (const r of NAME_RULES) if (commands(n, r.list)) return { effect: r.effect, rule: r.rule };
  return null;
}

function hintEffect(hints: string[]): EffectMatch | null {
  if (hasMethodHint(hints)) return { effect: "delete", rule: "hint_data_method_delete" };
  const ws = hintWords(hints);
  if (ws.some((w) => HINT_STOP.some((s) => w.includes(s)))) return null;
  for (const r of HINT_RULES) {
    if (ws.some((w) => r.words.some((p) => containsRun(w, p)))) return { effect: r.effect, rule: r.rule };
  }
  return null;
}

function consentForm(t: EffectTarget): boolean {
  return t.formAction !== "" && pathWords(t.formAction).some((w) => CONSENT_PATH.includes(w));
}

/** A submit whose name says nothing: what its form says. */
function formEffect(t: EffectTarget): EffectMatch | null {
  if (consentForm(t)) return { effect: "authorization", rule: "form_consent" };
  if (t.formInputTypes.includes("file")) return { effect: "upload", rule: "form_file" };
  if (t.formAutocomplete.some((a) => CARD_AUTOCOMPLETE.some((c) => a.startsWith(c)))) return { effect: "purchase", rule: "form_payment_card" };
  return null;
}
