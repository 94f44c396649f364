// The page's languages and the one a reader starts in. Kept apart (no other imports) so the served
// page's small boot script can start loading that language's texts before the rest arrives.
export const LANGS = ['en', 'es', 'pt'];
// Spanish follows the lesson's Mexican usage, Portuguese is Brazilian (see format.js).
export const LOCALES = { en: 'en-US', es: 'es-MX', pt: 'pt-BR' };

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
