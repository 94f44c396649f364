// Two page-wide audits, on every section of the page (the calculators' shadow roots included), in
// Spanish, English and Portuguese, on a phone (390 × 844) and a desktop (1366 × 900):
//
// - layout: the page does not scroll sideways; nothing ends past the screen's right edge unless a
//   scrolling box holds it; a box that scrolls sideways shows it (the scroll cue: a shadow on the
//   side with more, page.css / calculator.css); no box clips its text; no chart text leaves its
//   chart or lies on another chart text (axis titles, line names, region names, marker labels);
// - targets: every link and control is at least 24 × 24 px (WCAG 2.5.8), but a link inside a
//   sentence (its height is the line's); a radio or checkbox counts its label, which takes its taps.
//
// Sections skipped by content-visibility have no layout until they come near: the audit lays
// every section out first (as scrolling to each would).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LANGS, openPage, useBrowserAndSite } from './helpers.mjs';

const env = useBrowserAndSite();
const VIEWPORTS = { phone: { width: 390, height: 844 }, desktop: { width: 1366, height: 900 } };

/** Runs in the page: what the layout audit finds, as lines naming the section and the element. */
function layoutAudit() {
  const out = [];
  const W = document.documentElement.clientWidth;
  if (document.documentElement.scrollWidth > W + 1) out.push(`the page scrolls sideways: ${document.documentElement.scrollWidth} px on a ${W} px screen`);
  const name = (el) => `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${[...el.classList].map((c) => `.${c}`).join('')}`;
  const section = (el) => {
    let n = el;
    while (n) {
      if (n.matches && n.matches('main > section[id]')) return n.id;
      n = n.parentElement || (n.getRootNode && n.getRootNode().host) || null;
    }
    return 'page';
  };
  const scrolls = (el) => {
    for (let p = el.parentElement || el.getRootNode().host; p; p = p.parentElement || (p.getRootNode && p.getRootNode().host) || null) {
      const o = getComputedStyle(p).overflowX;
      if (o === 'auto' || o === 'scroll' || o === 'hidden' || o === 'clip') return true;
    }
    return false;
  };
  const visit = (root) => {
    for (const el of root.querySelectorAll('*')) {
      if (el.shadowRoot) visit(el.shadowRoot);
      if (el.closest('details:not([open]) > :not(summary)')) continue;
      const cs = getComputedStyle(el);
      if (cs.display === 'none' || cs.visibility === 'hidden') continue;
      const r = el.getBoundingClientRect();
      if (!r.width || !r.height) continue;
      const where = section(el);
      if (el instanceof HTMLElement && el.scrollWidth > el.clientWidth + 1 && !el.matches('.sr-only, input, select, textarea')) {
        const ox = cs.overflowX;
        if (ox === 'auto' || ox === 'scroll') {
          if (!/radial-gradient/.test(cs.backgroundImage) || !/local/.test(cs.backgroundAttachment)) {
            out.push(`${where}: ${name(el)} scrolls sideways (${el.scrollWidth} px in ${el.clientWidth}) with no cue`);
          }
        } else if ((ox === 'hidden' || ox === 'clip') && cs.textOverflow !== 'ellipsis') {
          out.push(`${where}: ${name(el)} clips its content (${el.scrollWidth} px in ${el.clientWidth})`);
        }
      }
      if (r.right > W + 1 && !scrolls(el)) out.push(`${where}: ${name(el)} ends at ${Math.round(r.right)} px on a ${W} px screen`);
    }
    for (const svg of root.querySelectorAll('svg.chart')) {
      const box = svg.getBoundingClientRect();
      if (!box.width) continue;
      const where = section(svg);
      const texts = [...svg.querySelectorAll('text')]
        .filter((t) => t.textContent.trim() && getComputedStyle(t).display !== 'none')
        .map((t) => ({ text: t.textContent.trim(), r: t.getBoundingClientRect() }));
      for (const x of texts) {
        if (x.r.left < box.left - 1 || x.r.right > box.right + 1 || x.r.top < box.top - 1 || x.r.bottom > box.bottom + 1) {
          out.push(`${where}: chart text "${x.text}" is cut by its chart's edge`);
        }
      }
      for (let i = 0; i < texts.length; i += 1) {
        for (let j = i + 1; j < texts.length; j += 1) {
          const a = texts[i].r;
          const b = texts[j].r;
          const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
          const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
          if (w > 2 && h > 2) out.push(`${where}: chart texts "${texts[i].text}" and "${texts[j].text}" overlap`);
        }
      }
    }
  };
  visit(document);
  return out;
}

/** Runs in the page: every link and control under 24 × 24 px, but links inside a sentence. */
function targetAudit() {
  const out = [];
  const SEL = 'a[href], button, input:not([type="hidden"]), select, textarea, summary, [role="button"]';
  const visit = (root) => {
    for (const el of root.querySelectorAll('*')) if (el.shadowRoot) visit(el.shadowRoot);
    for (const el of root.querySelectorAll(SEL)) {
      if (el.closest('details:not([open]) > :not(summary)')) continue;
      const cs = getComputedStyle(el);
      if (cs.display === 'none' || cs.visibility === 'hidden' || el.matches('.sr-only, .skip')) continue;
      const target = el.matches('input[type="radio"], input[type="checkbox"]') ? el.closest('label') || el : el;
      const r = target.getBoundingClientRect();
      if (!r.width && !r.height) continue;
      if (r.width >= 24 && r.height >= 24) continue;
      // in a sentence: an inline link among its block's other words
      if (cs.display === 'inline' && [...el.parentElement.childNodes].some((n) => n !== el && n.textContent.trim())) continue;
      const label = (el.textContent || el.getAttribute('aria-label') || el.getAttribute('name') || '').trim().replace(/\s+/g, ' ').slice(0, 40);
      out.push(`${el.tagName.toLowerCase()}${[...el.classList].map((c) => `.${c}`).join('')} "${label}": ${Math.round(r.width)} × ${Math.round(r.height)} px`);
    }
  };
  visit(document);
  return out;
}

for (const lang of LANGS) {
  for (const [device, viewport] of Object.entries(VIEWPORTS)) {
    test(`layout and target audits, every section (${lang}, ${device})`, { timeout: 120000 }, async () => {
      const { page, context, foreign, errors } = await openPage(env.browser, `${env.site.url}index.html?lang=${lang}`,
        { allowedOrigin: env.site.url, viewport, locale: lang, readyTimeout: 30000 });
      try {
        // every section laid out, as when the reader scrolls to it
        await page.evaluate(() => {
          for (const s of document.querySelectorAll('.lesson-section')) s.style.contentVisibility = 'visible';
        });
        await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
        const sections = await page.evaluate(() => document.querySelectorAll('main > section[id]').length);
        assert.ok(sections >= 18, `${sections} sections`);
        assert.deepEqual(await page.evaluate(layoutAudit), [], 'layout');
        assert.deepEqual(await page.evaluate(targetAudit), [], 'targets under 24 × 24 px');
        assert.deepEqual(errors, []);
        assert.deepEqual(foreign, []);
      } finally {
        await context.close();
      }
    });
  }
}
