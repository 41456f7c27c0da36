// Bot-challenge detection in one document (spec 000's challenge
// paragraphs; the catalog and its scoring are shared/challenge-catalog.ts).
// It reads attributes and element presence only, never text: a sighting
// carries catalog ids, enums and a boolean. token_present is whether a
// response field holds a value; the value itself is never returned,
// copied or kept (spec 000: "Tokens never read").

import type { ChallengeSighting } from "../shared/page-agent";
import { CATALOG, confidence, fromSource, rank, type CatalogEntry, type Source } from "../shared/challenge-catalog";
import { mutations } from "./mutations";

interface Found {
  entry: CatalogEntry;
  sighting: ChallengeSighting;
}

/** The recognised challenges of this document, an interstitial first. */
export function challenges(): ChallengeSighting[] {
  return scan().map((f) => f.sighting);
}

/**
 * Whether el is part of a recognised challenge (inside one of its
 * containers, or its frame or response field), or the whole document is
 * one: a challenge interstitial seen with at least medium confidence, or
 * a vendor's own challenge frame (the agent of a reCAPTCHA anchor frame
 * answers for its checkbox). The act guard refuses input then.
 */
export function inChallenge(el: Element | null): boolean {
  // An element gone from the page takes no input: the step's own checks
  // refuse it (target_not_actionable, detached; a commit's recheck,
  // stage_target_changed), which a throw here would turn into internal_error.
  if (el === null || !el.isConnected) return false;
  if (vendorFrameDocument()) return true;
  for (const { entry, sighting } of scan()) {
    if (entry.kind === "interstitial" && sighting.confidence !== "low") return true;
    if (partOf(el, entry)) return true;
  }
  return false;
}

/** An entry the document shows, with its confidence: what a scan finds, the token aside. */
interface Match {
  entry: CatalogEntry;
  confidence: ChallengeSighting["confidence"];
}

// The last structural scan, kept while the document did not change: an
// act batch asks twice (the guard before input, the scan after it), and
// each scan costs two selector passes per catalog entry over the whole
// document (about 2–3 ms on gen500). A response field's value changes
// without a DOM mutation, so token_present is read every time.
let kept: { mutations: number; url: string; matches: Match[] } | undefined;

function scan(): Found[] {
  const now = mutations();
  if (kept === undefined || kept.mutations !== now || kept.url !== location.href) kept = { mutations: now, url: location.href, matches: match() };
  const found = kept.matches.map(({ entry, confidence }) => ({
    entry,
    sighting: {
      vendor: entry.vendor,
      product: entry.product,
      kind: entry.kind,
      interaction: entry.interaction,
      confidence,
      tokenPresent: tokenPresent(entry.responseFields),
    },
  }));
  // rank reads the sighting's fields; keep the entry alongside.
  const ranked = rank(found.map((f) => ({ ...f.sighting, found: f })));
  return ranked.map((r) => r.found);
}

// Every entry's container selectors as one: a document that matches none
// (most pages) is told so by one pass instead of two per entry.
const ANY_CONTAINER = CATALOG.flatMap((e) => [...e.containers, ...e.strongContainers, ...e.bindings]).join(",");

function match(): Match[] {
  const iframes = srcs("iframe[src], frame[src]");
  const scripts = srcs("script[src]");
  const host = location.hostname;
  const containers = document.querySelector(ANY_CONTAINER) !== null;
  const out: Match[] = [];
  for (const entry of CATALOG) {
    const level = confidence({
      // A binding (the form's Submit bound to an invisible check) shows
      // the entry like a container does.
      container: containers && (anyMatches(entry.containers) || anyMatches(entry.bindings)),
      strongContainer: containers && anyMatches(entry.strongContainers),
      frame: iframes.some((u) => fromSource(u, entry.frames, host)),
      script: scripts.some((u) => fromSource(u, entry.scripts, host)),
    });
    if (level !== null) out.push({ entry, confidence: level });
  }
  return out;
}

function anyMatches(selectors: string[]): boolean {
  return selectors.length > 0 && document.querySelector(selectors.join(",")) !== null;
}

function srcs(selector: string): URL[] {
  const out: URL[] = [];
  for (const el of document.querySelectorAll(selector)) {
    const url = resolve(el.getAttribute("src"));
    if (url !== null) out.push(url);
  }
  return out;
}

function resolve(src: string | null): URL | null {
  if (src === null || src === "") return null;
  try {
    return new URL(src, document.baseURI);
  } catch {
    return null;
  }
}

/** Whether one of the fields holds a value; only the length is looked at. */
function tokenPresent(names: string[]): boolean {
  for (const name of names) {
    for (const el of document.getElementsByName(name)) {
      if ((el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) && el.value.length > 0) return true;
    }
  }
  return false;
}

// Containers only, never bindings: a binding is the page's own Submit,
// and clicking it is what runs the invisible check.
function partOf(el: Element, entry: CatalogEntry): boolean {
  if (entry.containers.length > 0 && el.closest(entry.containers.join(",")) !== null) return true;
  if (el instanceof HTMLIFrameElement || el instanceof HTMLFrameElement) {
    const url = resolve(el.getAttribute("src"));
    if (url !== null && fromSource(url, entry.frames, location.hostname)) return true;
  }
  const name = el.getAttribute("name");
  return name !== null && entry.responseFields.includes(name);
}

/** This document is a vendor's challenge frame (its own URL is one of the catalog's frame sources). */
function vendorFrameDocument(): boolean {
  if (window === window.top) return false;
  const url = resolve(location.href);
  const frames: Source[] = CATALOG.flatMap((e) => e.frames);
  return url !== null && fromSource(url, frames, "");
}
