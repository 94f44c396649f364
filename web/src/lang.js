// The page's languages and the one a reader starts in: the one place a language is declared
// (docs/translating.md, "Adding a language"); numbers.js reads how each writes numbers. Kept
// apart (no other imports) so the served page's small boot script can start loading that
// language's texts before the rest arrives.
// Spanish follows the lesson's Mexican usage, Portuguese is Brazilian.
export const LOCALES = { en: 'en-US', es: 'es-MX', pt: 'pt-BR' };
export const LANGS = Object.keys(LOCALES);

/** The language to start in: ?lang=, then the browser's languages, then English. */
export function detectLang(search = globalThis.location ? location.search : '') {
  const q = new URLSearchParams(search).get('lang');
  if (q && LANGS.includes(q)) return q;
  const prefs = (globalThis.navigator && (navigator.languages || [navigator.language])) || [];
  for (const p of prefs) {
    const base = String(p || '').toLowerCase().split('-')[0];
    if (LANGS.includes(base)) return base;
  }
  return 'en';
}
