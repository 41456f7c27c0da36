import { test } from "node:test";
import assert from "node:assert/strict";
import { CATALOG, COMMAND_CONTROL, confidence, fromSource, rank, type CatalogEntry } from "./challenge-catalog";
import { ChallengeInteractionValues, ChallengeKindValues } from "../protocol/generated";

const entry = (vendor: string, product: string): CatalogEntry => {
  const e = CATALOG.find((x) => x.vendor === vendor && x.product === product);
  if (e === undefined) throw new Error(`no ${vendor}/${product}`);
  return e;
};

const frameOf = (e: CatalogEntry, url: string, pageHost = "shop.example"): boolean => fromSource(new URL(url), e.frames, pageHost);
const scriptOf = (e: CatalogEntry, url: string, pageHost = "shop.example"): boolean => fromSource(new URL(url), e.scripts, pageHost);

test("catalog entries are well formed", () => {
  const seen = new Set<string>();
  for (const e of CATALOG) {
    const id = `${e.vendor}/${e.product}`;
    assert.match(e.vendor, /^[a-z0-9_]+$/, id);
    assert.match(e.product, /^[a-z0-9_]+$/, id);
    assert.ok(!seen.has(id), `${id} twice`);
    seen.add(id);
    assert.ok((ChallengeKindValues as readonly string[]).includes(e.kind), id);
    assert.ok((ChallengeInteractionValues as readonly string[]).includes(e.interaction), id);
    assert.ok(e.containers.length + e.frames.length + e.scripts.length > 0, `${id} has no markers`);
    for (const s of e.strongContainers) assert.ok(e.containers.includes(s), `${id}: strong ${s} is not a container`);
    for (const s of [...e.frames, ...e.scripts]) {
      assert.equal(s.host, s.host.toLowerCase(), id);
      assert.ok(s.path === "" || s.path.startsWith("/"), id);
      // A source on the page's own host must name a path, or any script of the page would match.
      assert.ok(s.host !== "" || s.path.length > 1, `${id}: own-host source without a path`);
    }
  }
  // The vendors the issue names.
  for (const v of ["cloudflare", "google", "hcaptcha", "arkose_labs", "geetest", "datadome", "perimeterx", "aws", "friendly_captcha"]) {
    assert.ok(CATALOG.some((e) => e.vendor === v), v);
  }
});

test("vendor frames and scripts by host and path", () => {
  const v2 = entry("google", "recaptcha_v2");
  assert.ok(frameOf(v2, "https://www.google.com/recaptcha/api2/anchor?ar=1&k=KEY&size=normal"));
  assert.ok(frameOf(v2, "https://www.recaptcha.net/recaptcha/api2/anchor?k=KEY"));
  assert.ok(scriptOf(v2, "https://www.gstatic.com/recaptcha/releases/abc/recaptcha__en.js"));
  // Look-alikes: another host, a suffix trick, Google's other frames.
  assert.ok(!frameOf(v2, "https://recaptcha.example.com/recaptcha/api2/anchor"));
  assert.ok(!frameOf(v2, "https://www.google.com.evil.test/recaptcha/api2/anchor"));
  assert.ok(!frameOf(v2, "https://www.google.com/maps/embed?pb=1"));
  assert.ok(!frameOf(v2, "data:text/html,www.google.com/recaptcha/api2/anchor"));

  const ent = entry("google", "recaptcha_enterprise");
  assert.ok(frameOf(ent, "https://www.google.com/recaptcha/enterprise/anchor?k=KEY"));
  assert.ok(!frameOf(ent, "https://www.google.com/recaptcha/api2/anchor?k=KEY"));

  const arkose = entry("arkose_labs", "funcaptcha");
  assert.ok(frameOf(arkose, "https://github-api.arkoselabs.com/v2/KEY/enforcement.html"));
  assert.ok(frameOf(arkose, "https://client-api.arkoselabs.com/fc/gc/"));
  // A suffix needs a subdomain, and a whole label.
  assert.ok(!frameOf(arkose, "https://arkoselabs.com/"));
  assert.ok(!frameOf(arkose, "https://notarkoselabs.com/"));

  const turnstile = entry("cloudflare", "turnstile");
  assert.ok(frameOf(turnstile, "https://challenges.cloudflare.com/cdn-cgi/challenge-platform/h/b/turnstile/if/ov2/av0/rcv/x/"));
  assert.ok(scriptOf(turnstile, "https://challenges.cloudflare.com/turnstile/v0/api.js"));

  const datadome = entry("datadome", "captcha");
  assert.ok(frameOf(datadome, "https://geo.captcha-delivery.com/captcha/?initialCid=x"));
  // DataDome's tag on an ordinary page is no challenge.
  assert.ok(!scriptOf(datadome, "https://js.datadome.co/tags.js"));

  const px = entry("perimeterx", "px_captcha");
  assert.ok(scriptOf(px, "https://captcha.px-cdn.net/PXabc/captcha.js"));
  assert.ok(!scriptOf(px, "https://client.perimeterx.net/PXabc/main.min.js"));

  const aws = entry("aws", "waf_captcha");
  assert.ok(scriptOf(aws, "https://abc123.us-east-1.captcha.awswaf.com/abc123/jsapi.js"));
  assert.ok(!scriptOf(aws, "https://captcha.awswaf.com.example/jsapi.js"));

  const friendly = entry("friendly_captcha", "friendly_captcha");
  assert.ok(scriptOf(friendly, "https://cdn.jsdelivr.net/npm/friendly-challenge@0.9.12/widget.module.min.js"));
  assert.ok(!scriptOf(friendly, "https://cdn.jsdelivr.net/npm/jquery@3/dist/jquery.min.js"));
});

test("Cloudflare's interstitial script is on the page's own host, and its bot-detection script is not a challenge", () => {
  const cf = entry("cloudflare", "managed_challenge");
  assert.ok(scriptOf(cf, "https://shop.example/cdn-cgi/challenge-platform/h/b/orchestrate/chl_page/v1?ray=1", "shop.example"));
  // Ordinary pages behind Cloudflare load scripts/jsd/main.js from the same prefix.
  assert.ok(!scriptOf(cf, "https://shop.example/cdn-cgi/challenge-platform/scripts/jsd/main.js", "shop.example"));
  // The orchestrate path on another host than the page's is not the page's challenge.
  assert.ok(!scriptOf(cf, "https://other.example/cdn-cgi/challenge-platform/h/b/orchestrate/chl_page/v1", "shop.example"));
});

// Google's documented bind pattern, <button class="g-recaptcha"
// data-sitekey data-callback>Submit</button>, and hCaptcha's: the class
// on a command control binds the invisible check to the form's Submit.
// It must never make the Submit a checkbox's container (the act guard
// would refuse the click that runs the check); it is evidence of the
// invisible product (e2e/pageagent TestChallenges proves it in Chromium).
test("a vendor class on a command control is the invisible product's binding, not a widget container", () => {
  const notCommand = `, ${COMMAND_CONTROL})`;
  for (const [vendor, product] of [["google", "recaptcha_v2"], ["hcaptcha", "hcaptcha"]] as const) {
    const e = entry(vendor, product);
    assert.equal(e.interaction, "checkbox");
    assert.deepEqual(e.bindings, [], `${product} is never bound`);
    for (const c of e.containers) assert.ok(c.endsWith(notCommand), `${product}: ${c} excludes command controls`);
  }
  for (const [vendor, product, cls] of [["google", "recaptcha_v3", ".g-recaptcha"], ["google", "recaptcha_enterprise", ".g-recaptcha"], ["hcaptcha", "hcaptcha_invisible", ".h-captcha"]] as const) {
    const e = entry(vendor, product);
    assert.deepEqual(e.bindings, [`${cls}:is(${COMMAND_CONTROL})`], product);
    // A container is part of the challenge: none of them may be a command control.
    for (const c of e.containers.filter((x) => x.startsWith(cls))) assert.ok(c.endsWith(`:not(${COMMAND_CONTROL})`), `${product}: ${c}`);
  }
  assert.equal(entry("google", "recaptcha_v3").interaction, "none");
  assert.equal(entry("hcaptcha", "hcaptcha_invisible").interaction, "none");
  // The controls: buttons of every type, submit, button and image inputs, and role=button.
  for (const sel of ["button", 'input[type="submit" i]', 'input[type="button" i]', 'input[type="image" i]', '[role="button" i]']) {
    assert.ok(COMMAND_CONTROL.split(", ").includes(sel), sel);
  }
});

test("confidence", () => {
  const none = { container: false, strongContainer: false, frame: false, script: false };
  assert.equal(confidence(none), null);
  assert.equal(confidence({ ...none, frame: true, container: true }), "high");
  assert.equal(confidence({ ...none, script: true, container: true }), "high");
  assert.equal(confidence({ ...none, frame: true }), "medium");
  assert.equal(confidence({ ...none, container: true, strongContainer: true }), "medium");
  assert.equal(confidence({ ...none, container: true }), "low");
  assert.equal(confidence({ ...none, script: true }), "low");
});

test("rank: interstitials first, each vendor's best evidence only", () => {
  const s = (vendor: string, product: string, kind: "interstitial" | "widget", c: "high" | "medium" | "low") => ({ vendor, product, kind, confidence: c });
  const out = rank([
    s("google", "recaptcha_v2", "widget", "medium"),
    s("google", "recaptcha_v3", "widget", "high"),
    s("hcaptcha", "hcaptcha", "widget", "low"),
    s("cloudflare", "managed_challenge", "interstitial", "medium"),
    s("cloudflare", "turnstile", "widget", "medium"),
  ]);
  assert.deepEqual(
    out.map((x) => x.product),
    ["managed_challenge", "recaptcha_v3", "turnstile", "hcaptcha"],
  );
});
