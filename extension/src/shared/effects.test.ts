// The classifier's corpus: labels people see on real controls, in nine
// languages, with the effect each must get, and the look-alikes that must
// get none (shared/effects.ts says why each left-out word is left out).
import { test } from "node:test";
import assert from "node:assert/strict";
import { classifyEffect, normalizeName, type EffectTarget } from "./effects";

const button = (name: string, t: Partial<EffectTarget> = {}): EffectTarget => ({
  tag: "button",
  role: "button",
  name,
  type: "button",
  navigates: false,
  submits: false,
  press: "",
  inputType: "",
  formAction: "",
  formMethod: "",
  formInputTypes: [],
  formAutocomplete: [],
  hints: [],
  ...t,
});

const effectOf = (t: EffectTarget): string | null => classifyEffect(t)?.effect ?? null;

const POSITIVE: Record<string, string[]> = {
  send: [
    "Send", "Send message", "Send now", "Send feedback", "Resend code", "SEND", "Send ➤",
    "Senden", "Nachricht senden", "Absenden", "Jetzt abschicken",
    "Envoyer", "Envoyer le message",
    "Enviar", "Enviar mensaje", "Enviar mensagem",
    "Invia", "Invia messaggio",
    "Verzenden", "Bericht versturen", "Verstuur",
    "送信", "送信する", "メッセージを送信", "送信します",
    "发送", "發送", "发送消息",
    // A confirmation before the command; a negation that is not the command's.
    "OK, send", "Yes, send it", "Ja, senden", "Oui, envoyer", "Send to no-reply", "Send non-urgent", "Bevestigen en verzenden",
  ],
  publish: [
    "Publish", "Post", "Post comment", "Tweet", "Publish now",
    "Veröffentlichen", "Beitrag veröffentlichen", "Posten",
    "Publier", "Publier maintenant",
    "Publicar", "Publicar ahora",
    "Pubblica",
    "Publiceren", "Reactie plaatsen",
    "投稿する", "公開する", "コメントを投稿",
    "发布", "發表", "发布文章",
    "Submit post",
  ],
  purchase: [
    "Buy now", "Buy", "Place order", "Place your order", "Pay $42.00", "Pay now", "Complete purchase", "Donate",
    "Jetzt kaufen", "Zahlungspflichtig bestellen", "Kostenpflichtig bestellen", "Bezahlen",
    "Acheter", "Passer la commande", "Payer 12,00 €", "Valider la commande",
    "Comprar", "Comprar ahora", "Realizar pedido", "Pagar",
    "Comprar agora", "Finalizar pedido",
    "Acquista ora", "Conferma ordine", "Paga",
    "Nu kopen", "Bestelling plaatsen", "Betalen",
    "注文を確定する", "今すぐ購入", "購入する",
    "立即购买", "提交订单", "立即支付",
    "Submit payment", "Confirm and pay", "Confirm payment", "Yes, buy now", "Sí, comprar", "Conferma e paga",
  ],
  delete: [
    "Delete", "Delete account", "Delete forever", "Move to trash", "Delete filter", "Delete (3)",
    "Löschen", "Konto löschen", "Endgültig löschen",
    "Supprimer", "Supprimer définitivement",
    "Eliminar", "Eliminar cuenta",
    "Excluir", "Excluir conta",
    "Elimina", "Elimina definitivamente",
    "Verwijderen", "Account verwijderen",
    "削除", "削除する", "アカウントを削除",
    "删除", "刪除", "删除账号",
    "Yes, delete it", "Yes, delete", "OK, delete", "Confirm delete", "Ja, löschen", "Oui, supprimer", "Sí, eliminar", "Sim, excluir", "Ja, verwijderen",
    "Delete note no. 3", "Delete forever, there is no undo", "Delete forever — this cannot be undone",
    "Delete history", "Delete browsing history", "履歴を削除", "删除记录", "削除、元に戻せません",
  ],
  upload: [
    "Upload", "Upload file", "Upload photo",
    "Hochladen", "Datei hochladen",
    "Téléverser",
    "Subir archivo",
    "Enviar arquivo", "Fazer upload",
    "Carica file",
    "Uploaden",
    "アップロード",
    "上传", "上傳文件", "上传文件",
  ],
  authorization: [
    "Authorize", "Authorize Acme App", "Allow access", "Grant access",
    "Autorisieren", "Zugriff erlauben",
    "Autoriser", "Autoriser l'accès",
    "Autorizar", "Permitir acceso",
    "Permitir acesso",
    "Autorizza", "Consenti l'accesso",
    "Toegang verlenen",
    "アクセスを許可", "承認",
    "授权", "同意授权",
  ],
  permission_grant: [
    "Allow notifications", "Enable notifications", "Allow location", "Turn on notifications", "Share location", "Allow",
    "Benachrichtigungen zulassen", "Standort freigeben", "Zulassen",
    "Autoriser les notifications", "Activer les notifications",
    "Permitir notificaciones", "Activar ubicación", "Permitir",
    "Permitir notificações", "Ativar localização",
    "Consenti notifiche", "Attiva notifiche",
    "Meldingen toestaan", "Locatie delen",
    "通知を許可", "許可する",
    "允许通知", "开启定位",
  ],
};

const NEGATIVE = [
  // Leading to the effect, or away from it.
  "Cancel", "Abbrechen", "Annuler", "Cancelar", "Annulla", "Annuleren", "キャンセル", "取消",
  "Undo send", "Cancel order", "Don't allow", "Block", "Deny", "Nicht zulassen", "Ne pas autoriser", "No permitir", "Não permitir",
  "Non consentire", "Niet toestaan", "許可しない", "不允许",
  // Not effects the spec lists.
  "Search", "Suchen", "Rechercher", "Buscar", "Cerca", "Zoeken", "検索", "搜索",
  "Next", "Weiter", "Suivant", "Siguiente", "Próximo", "Avanti", "Volgende", "次へ", "下一步",
  "Save draft", "Entwurf speichern", "Enregistrer le brouillon", "Guardar borrador", "Salvar rascunho", "Salva bozza", "下書き保存", "保存草稿",
  "Save", "Submit", "Continue", "OK", "Sign in", "Log in", "Sign up", "Create account", "Subscribe", "Follow", "Like",
  // A cart is not a purchase.
  "Add to cart", "Add to bag", "In den Warenkorb", "Ajouter au panier", "Añadir a la cesta", "Adicionar ao carrinho", "Aggiungi al carrello",
  "In winkelwagen", "カートに入れる", "加入购物车", "Checkout", "Proceed to checkout", "Zur Kasse", "Afrekenen", "Finalizar compra",
  // Clearing and removing UI state.
  "Remove filter", "Clear filters", "Entfernen", "Retirer", "Borrar filtros", "Cancella filtri", "Remove from cart", "Aus dem Warenkorb entfernen",
  // Italian: "sort by", "load more".
  "Ordina per prezzo", "Carica altro",
  // Cookie banners.
  "Allow all cookies", "Accept all", "Alle Cookies zulassen", "Autoriser les cookies",
  // Nouns, settings, history.
  "New post", "Blog post", "Post code lookup", "Notification settings", "Order history", "Payment methods", "お支払い方法", "支付方式", "投稿一覧", "非公開",
  "Sent", "Sending", "見送る",
  // States and nouns in CJK: sent, unsent, sending, deleted, post date,
  // publish date, buyer, poster, publish time, sent successfully.
  "送信済み", "未送信", "送信中", "削除済み", "送信先", "已发送", "已删除", "已發送", "投稿日", "公開日", "購入者", "投稿者", "购买人",
  "发布时间", "发送成功", "删除了", "发布者", "購入手続きへ",
  // History: every effect's word in it but delete's is a noun.
  "Purchase history", "Upload history", "購入履歴", "购买记录", "投稿履歴",
  // Filters, plural: cleared, not deleted.
  "Eliminar filtros", "Supprimer les filtres", "Delete filters", "Alle Filter löschen", "Filter löschen", "Elimina filtri", "Excluir filtros",
  "Filters verwijderen",
  // Negations first or right before the verb.
  "Not now", "No thanks", "Never allow", "Jetzt nicht senden", "Benachrichtigungen nicht zulassen", "Please do not send", "No, delete nothing",
  "Yes, cancel", "OK", "Yes", "Confirm",
  // Sentences are not commands.
  "We will send you an email when your order ships",
];

for (const [effect, names] of Object.entries(POSITIVE)) {
  test(`names that ${effect}`, () => {
    for (const name of names) assert.equal(effectOf(button(name)), effect, name);
  });
}

test("names that have no effect", () => {
  for (const name of NEGATIVE) assert.equal(effectOf(button(name)), null, name);
});

test("normalizeName folds case, accents, prices and punctuation", () => {
  assert.equal(normalizeName("  Payer 12,00 € !"), "payer");
  assert.equal(normalizeName("Löschen"), "loschen");
  assert.equal(normalizeName("ＳＥＮＤ"), "send");
  assert.equal(normalizeName("Delete (3)"), "delete");
});

test("a link that navigates asks for a page: no effect", () => {
  // "Buy now" and "Delete" links lead to the page with the real control.
  assert.equal(effectOf(button("Buy now", { tag: "a", role: "link", navigates: true })), null);
  assert.equal(effectOf(button("Delete", { tag: "a", role: "link", navigates: true })), null);
  // A script link is a command.
  assert.equal(effectOf(button("Delete", { tag: "a", role: "link" })), "delete");
  // rails-ujs and Turbo turn a link into a DELETE request.
  assert.equal(classifyEffect(button("Remove", { tag: "a", role: "link", navigates: true, hints: ["data-method:delete"] }))?.rule, "hint_data_method_delete");
  assert.equal(effectOf(button("x", { tag: "a", role: "link", navigates: true, hints: ["data-turbo-method:delete"] })), "delete");
});

test("choices are not commands", () => {
  for (const role of ["checkbox", "switch", "radio", "option", "tab", "textbox", "combobox"]) {
    assert.equal(effectOf(button("Delete my data", { role, tag: "input" })), null, role);
  }
  // A clickable div named by its content is a command.
  assert.equal(effectOf(button("Send", { role: "generic", tag: "div" })), "send");
});

test("attributes say what a nameless icon button does", () => {
  assert.deepEqual(classifyEffect(button("", { hints: ["data-testid:tweetButton"] })), { effect: "publish", rule: "hint_publish" });
  assert.equal(effectOf(button("", { hints: ["id:place-order-button"] })), "purchase");
  assert.equal(effectOf(button("🗑", { hints: ["class:btn", "class:btn-delete"] })), "delete");
  assert.equal(effectOf(button("", { hints: ["name:upload"] })), "upload");
  assert.equal(effectOf(button("", { hints: ["data-action:send-message"] })), "send");
  // A stop word wins over the effect's word.
  assert.equal(effectOf(button("", { hints: ["id:delete-cancel"] })), null);
  assert.equal(effectOf(button("", { hints: ["class:btn-primary"] })), null);
  // The name wins over the attributes, and a stop name over both.
  assert.equal(effectOf(button("Cancel", { hints: ["class:delete-dialog-button"] })), null);
  assert.equal(effectOf(button("Send", { hints: ["id:delete"] })), "send");
});

test("a submit whose name says nothing: its form decides", () => {
  const submit = (t: Partial<EffectTarget>): EffectTarget => button("Submit", { type: "submit", submits: true, formMethod: "post", ...t });
  assert.equal(classifyEffect(submit({ formMethod: "delete" }))?.rule, "form_method_delete");
  assert.equal(classifyEffect(submit({ formAction: "https://github.com/login/oauth/authorize" }))?.effect, "authorization");
  assert.equal(classifyEffect(button("Continue", { submits: true, formAction: "https://accounts.example/signin/oauth/consent" }))?.rule, "form_consent");
  assert.equal(classifyEffect(button("Allow", { submits: true, formAction: "https://accounts.example/oauth2/auth" }))?.rule, "consent_form_allow");
  assert.equal(effectOf(submit({ formInputTypes: ["file", "text"] })), "upload");
  assert.equal(effectOf(submit({ formAutocomplete: ["cc-csc", "cc-number"] })), "purchase");
  // A sign-in form (a password field) is none of them.
  assert.equal(effectOf(submit({ formInputTypes: ["email", "password"] })), null);
  // A paid "Subscribe" shows card fields.
  assert.equal(effectOf(button("Subscribe", { submits: true, formAutocomplete: ["cc-number"] })), "purchase");
  // The form rules apply to submits only: a plain button in a file form is not an upload.
  assert.equal(effectOf(button("Choose", { formInputTypes: ["file"] })), null);
  // A cancel in a consent form denies.
  assert.equal(effectOf(button("Cancel", { submits: true, formAction: "https://github.com/login/oauth/authorize" })), null);
  // A query or a host that says oauth is not the path.
  assert.equal(effectOf(submit({ formAction: "https://oauth.example.com/search" })), null);
});

test("a submit of a GET form asks for a page: only its delete, purchase and authorization names count", () => {
  const get = (name: string, t: Partial<EffectTarget> = {}): EffectTarget =>
    button(name, { type: "submit", submits: true, formMethod: "get", formAction: "https://shop.example/search", ...t });
  for (const name of ["Send", "Enviar", "Envoyer", "Senden", "Post", "Publish", "Upload", "Allow notifications", "送信"]) {
    assert.equal(effectOf(get(name)), null, name);
    // Enter in the form's field: the same submit.
    assert.equal(effectOf(get(name, { press: "Enter", inputType: "text" })), null, `Enter: ${name}`);
  }
  assert.equal(effectOf(get("", { hints: ["id:send-button"] })), null, "an attribute says no more than the name");
  for (const [name, effect] of [["Delete", "delete"], ["Eliminar", "delete"], ["Buy now", "purchase"], ["Authorize", "authorization"]] as const) {
    assert.equal(effectOf(get(name)), effect, name);
  }
  // A file input is no search; a button that does not submit is the page's script's.
  assert.equal(effectOf(get("Send", { formInputTypes: ["file"] })), "send");
  assert.equal(effectOf(get("Send", { submits: false, type: "button" })), "send");
  // A form that names no method (a script's form) and a POST one send.
  assert.equal(effectOf(get("Enviar", { formMethod: "" })), "send");
  assert.equal(effectOf(get("Enviar", { formMethod: "post" })), "send");
  // The form rules still speak for it: card fields buy.
  assert.equal(effectOf(get("Send", { formAutocomplete: ["cc-number"] })), "purchase");
});

test("keys: Enter and Space activate, others do not", () => {
  assert.equal(effectOf(button("Send", { press: "Enter" })), "send");
  assert.equal(effectOf(button("Send", { press: "Space" })), "send");
  assert.equal(effectOf(button("Send", { press: "Delete" })), null);
  // Enter in a field: the form's default button (page/effect.ts) decides.
  assert.equal(effectOf(button("Send", { press: "Enter", inputType: "text", submits: true })), "send");
  // Enter in a search field searches.
  assert.equal(effectOf(button("Delete", { press: "Enter", inputType: "search", submits: true })), null);
  // A form without a submit button: the form's context.
  assert.equal(effectOf(button("", { role: "form", tag: "input", press: "Enter", inputType: "text", submits: true, formInputTypes: ["file"] })), "upload");
});
