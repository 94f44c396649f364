// Every worked number of the lesson's three texts, read on the served page in its language
// (tests/lesson/coverage.json): each entry with a page is found in its section, at the lesson's
// inputs or after its one documented change (URL-state parameters, or opening the solutions),
// as a whole figure ("203" is not found in "1,203" or "203.1"). The share of entries the page
// shows is at least the file's minShown. One page load per language and distinct change.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, useBrowserAndSite, LANGS } from './helpers.mjs';
import { readCoverage, groupLoads, loadKey, loadUrl, runAction, sectionTexts, found, counts } from '../lesson/coverage-find.mjs';

const doc = readCoverage();
const env = useBrowserAndSite();

test('coverage.json is well formed', () => {
  assert.equal(doc.schema, 1);
  assert.ok(typeof doc.minShown === 'number' && doc.minShown > 0 && doc.minShown <= 1, 'minShown is a share');
  const ids = new Set();
  const problems = [];
  for (const e of doc.numbers) {
    const where = e.id || JSON.stringify(e).slice(0, 80);
    if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(e.id || '')) problems.push(`${where}: id is not kebab-case`);
    if (ids.has(e.id)) problems.push(`${where}: id repeated`);
    ids.add(e.id);
    if (!/^(004|003|000) · /.test(e.source || '')) problems.push(`${where}: source does not start with 004, 003 or 000`);
    const lang = { '004': 'es', '003': 'en', '000': 'pt' }[String(e.source).slice(0, 3)];
    if (e.lang !== lang) problems.push(`${where}: lang ${e.lang}, the text is ${lang}`);
    if (!e.lesson_text) problems.push(`${where}: no lesson_text`);
    if (e.page === null) {
      if (!e.missing) problems.push(`${where}: page null without missing`);
      if (e.form) problems.push(`${where}: a form without a page`);
    } else if (e.page && typeof e.page === 'object') {
      if (!e.page.section || !e.page.text) problems.push(`${where}: page without section or text`);
      const c = e.page.change;
      if (c && (!c.note || (!c.url) === (!c.action))) problems.push(`${where}: a change needs a note and either url or action`);
      if (c && c.url && /(^|&)lang=/.test(c.url)) problems.push(`${where}: the change sets lang`);
      if (e.missing) problems.push(`${where}: both page and missing`);
      if (e.form && e.form !== 'reduced') problems.push(`${where}: form is "reduced" or absent`);
    } else problems.push(`${where}: page is an object or null`);
  }
  assert.deepEqual(problems, []);
});

test('the share of the lesson\'s numbers the page shows is at least minShown', () => {
  const c = counts(doc.numbers);
  const share = c.shown / c.total;
  const summary = `${c.total} numbers: ${c.shown} shown (${(100 * share).toFixed(1)} %): ${c.inputs} at the lesson's inputs, `
    + `${c.changed} after a change, ${c.reduced} of them only in a reduced form; ${c.missing} missing, ${c.contradicted} of them contradicted`;
  console.log(summary);
  assert.ok(share >= doc.minShown, `${(100 * share).toFixed(1)} % shown, below minShown ${doc.minShown}`);
});

const byLang = groupLoads(doc.numbers);

for (const lang of LANGS) {
  const loads = byLang.get(lang);
  if (!loads) continue;
  test(`the lesson's numbers are on the page in ${lang}`, async (t) => {
    const problems = [];
    for (const [key, entries] of loads) {
      const read = async () => {
        const { page, context } = await openPage(env.browser, loadUrl(env.site.url, lang, key), { allowedOrigin: env.site.url });
        try {
          await runAction(page, key);
          return await sectionTexts(page);
        } finally {
          await context.close();
        }
      };
      let sections;
      try {
        sections = await read();
      } catch (err) {
        // once more: the site may be rebuilt under a run, or the machine busy
        t.diagnostic(`${lang} ${key || 'lesson inputs'}: ${err.message.split('\n')[0]}; reading again`);
        await new Promise((r) => setTimeout(r, 5000));
        sections = await read();
      }
      for (const e of entries) {
        const body = sections[e.page.section];
        if (body === undefined) problems.push(`${e.id}: no section "${e.page.section}" (${key || 'lesson inputs'})`);
        else if (!found(body, e.page.text)) problems.push(`${e.id}: ${JSON.stringify(e.page.text)} not in ${e.page.section} (${key || 'lesson inputs'}; lesson: ${JSON.stringify(e.lesson_text)})`);
      }
    }
    t.diagnostic(`${lang}: ${[...loads.values()].reduce((n, es) => n + es.length, 0)} numbers over ${loads.size} page loads`);
    assert.deepEqual(problems, []);
  });
}

test('every change is URL-state parameters of a calculator or opening the solutions', () => {
  const keys = new Set(doc.numbers.map(loadKey));
  for (const k of keys) assert.ok(k === '' || k.startsWith('action:open-solutions') || /^[a-z]+\.[A-Za-z]+=/.test(k), `unknown change ${k}`);
});
