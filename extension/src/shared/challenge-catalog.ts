// The bundled catalog of bot challenges (spec 000: "The catalog ships with
// the extension and is reviewed like code. Nothing is fetched at
// runtime."), and the scoring of what a document shows of each entry.
// page/challenges.ts finds the markers in a document; the pure parts
// (matching a URL against an entry, the confidence, the order) live here
// and are unit-tested in challenge-catalog.test.ts.
//
// Markers are attributes and element presence only: container selectors
// (ids and classes vendors' embed code and pages use), the hosts (and,
// where needed, path prefixes) of the vendor's frames and scripts, and
// the names of the response fields the vendor fills with a token. Never
// page text: a catalog that matched words would put page-controlled
// content in charge of the result, and the event carries none of it.
//
// Spoofing is expected (spec 000, "Spoofed challenges"): a page that
// imitates these markers is reported exactly like the real thing.

import type { ChallengeConfidence, ChallengeInteraction, ChallengeKind } from "../protocol/generated";

/** Where a vendor serves a frame or script from: a host, and optionally a path prefix. */
export interface Source {
  /** An exact host ("www.google.com"), or a suffix with its leading dot (".arkoselabs.com"); "" for the page's own host. */
  host: string;
  /** A path prefix the URL's path must start with ("" for any path). */
  path: string;
}

export interface CatalogEntry {
  /** Catalog ids, [a-z0-9_]. */
  vendor: string;
  product: string;
  kind: ChallengeKind;
  interaction: ChallengeInteraction;
  /** Selectors of the vendor's container elements. */
  containers: string[];
  /** Of those, the ones strong enough alone (an interstitial's form id). */
  strongContainers: string[];
  /**
   * Selectors of the page's own controls the vendor's invisible check is
   * bound to: evidence of the entry like a container, but never part of
   * the challenge (the act guard lets input through: the user's click on
   * such a Submit is what runs the check).
   */
  bindings: string[];
  /** The vendor's iframes. */
  frames: Source[];
  /** The vendor's scripts (weaker: a page can load an API it never renders). */
  scripts: Source[];
  /** Names of the fields the vendor fills with its response token. */
  responseFields: string[];
}

/**
 * A command control: what a page binds an invisible check to. Google
 * documents `<button class="g-recaptcha" data-sitekey="…"
 * data-callback="onSubmit">Submit</button>` (reCAPTCHA v2 invisible,
 * v3 and Enterprise), hCaptcha the same with `h-captcha`: the class that
 * marks a checkbox's container on a div marks the form's Submit on a
 * button. Such an element is a binding, never a widget's container.
 */
export const COMMAND_CONTROL = 'button, input[type="submit" i], input[type="button" i], input[type="image" i], [role="button" i]';

const google = (path: string): Source[] => [
  { host: "www.google.com", path },
  { host: "www.recaptcha.net", path },
];

/**
 * The catalog. Sources of the markers: each vendor's public embed
 * documentation (the container class and response field the embed code
 * names, the host its loader script is served from) and the markup of
 * the vendors' challenge pages.
 */
export const CATALOG: readonly CatalogEntry[] = [
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
      { host: "", path: "/cdn-cgi/challenge-platform/orchestrate/" },
    ],
    responseFields: [],
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
    responseFields: ["cf-turnstile-response"],
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
    responseFields: ["g-recaptcha-response"],
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
    responseFields: ["g-recaptcha-response"],
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
    responseFields: ["g-recaptcha-response"],
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
      { host: "assets.hcaptcha.com", path: "" },
    ],
    scripts: [
      { host: "js.hcaptcha.com", path: "" },
      { host: "hcaptcha.com", path: "/1/api.js" },
    ],
    responseFields: ["h-captcha-response"],
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
      { host: "assets.hcaptcha.com", path: "" },
    ],
    scripts: [
      { host: "js.hcaptcha.com", path: "" },
      { host: "hcaptcha.com", path: "/1/api.js" },
    ],
    responseFields: ["h-captcha-response"],
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
      { host: ".funcaptcha.com", path: "" },
    ],
    scripts: [
      { host: ".arkoselabs.com", path: "" },
      { host: ".funcaptcha.com", path: "" },
    ],
    responseFields: ["fc-token", "verification-token"],
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
      { host: "api.geetest.com", path: "" },
    ],
    responseFields: ["geetest_validate", "geetest_seccode", "captcha_output"],
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
      { host: "interstitial.captcha-delivery.com", path: "" },
    ],
    scripts: [{ host: "ct.captcha-delivery.com", path: "" }],
    responseFields: [],
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
      { host: "captcha.px-cloud.net", path: "" },
    ],
    responseFields: [],
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
    responseFields: [],
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
      { host: "unpkg.com", path: "/@friendlycaptcha/" },
    ],
    responseFields: ["frc-captcha-solution", "frc-captcha-response"],
  },
];

/**
 * Whether a URL (already resolved against the document) is served from
 * one of the sources. pageHost is the document's own host, which a source
 * with host "" (a vendor's path on the site's own host) stands for.
 */
export function fromSource(url: URL, sources: readonly Source[], pageHost: string): boolean {
  if (url.protocol !== "https:" && url.protocol !== "http:") return false;
  const host = url.hostname.toLowerCase();
  return sources.some((s) => hostMatches(host, s.host, pageHost) && url.pathname.startsWith(s.path));
}

function hostMatches(host: string, want: string, pageHost: string): boolean {
  if (want === "") return host === pageHost.toLowerCase();
  if (want.startsWith(".")) return host.endsWith(want) && host.length > want.length;
  return host === want;
}

/** What a document shows of one entry. */
export interface Evidence {
  container: boolean;
  strongContainer: boolean;
  frame: boolean;
  script: boolean;
}

/**
 * The confidence of a sighting (protocol ChallengeConfidence), or null
 * when nothing was seen: high when the vendor's frame or script and a
 * container are both there; medium for one strong marker (the vendor's
 * frame, or an interstitial's form); low for a container or a script
 * alone.
 */
export function confidence(e: Evidence): ChallengeConfidence | null {
  if ((e.frame || e.script) && e.container) return "high";
  if (e.frame || e.strongContainer) return "medium";
  if (e.container || e.script) return "low";
  return null;
}

const RANK: Readonly<Record<ChallengeConfidence, number>> = { high: 3, medium: 2, low: 1 };

/** The fields of a sighting the ordering reads. */
export interface Ranked {
  vendor: string;
  kind: ChallengeKind;
  confidence: ChallengeConfidence;
}

/**
 * Keeps, of each vendor, only its best-evidenced products (a v3 badge
 * also shows reCAPTCHA's shared anchor frame, which alone would make a
 * medium v2 sighting), and orders them: interstitials before widgets,
 * then by confidence, then in catalog order (a stable sort).
 */
export function rank<T extends Ranked>(found: T[]): T[] {
  const best = new Map<string, number>();
  for (const s of found) best.set(s.vendor, Math.max(best.get(s.vendor) ?? 0, RANK[s.confidence]));
  return found
    .filter((s) => RANK[s.confidence] === best.get(s.vendor))
    .sort((a, b) => kindRank(a) - kindRank(b) || RANK[b.confidence] - RANK[a.confidence]);
}

function kindRank(s: Ranked): number {
  return s.kind === "interstitial" ? 0 : 1;
}
