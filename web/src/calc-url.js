// The URL state of a calculator (part of Calc, web/src/calc.js): its fields and selects in the
// page's address (`?decode.batch=4`), read at start, written as the reader changes them, and the
// copy-link button's link. A link's numbers are English numerals in every language.
import { parseNumber } from './parse.js';

const MAX_URL_TEXT = 64;

/** Methods of Calc (Object.assign onto its prototype in calc.js): `this` is the calculator. */
export const urlState = {
  key(id) {
    return `${this.kind}.${id}`;
  },

  /** Reads the page URL's state (`?decode.batch=4`); returns its parameters. */
  readUrl() {
    const params = new URLSearchParams(globalThis.location ? location.search : '');
    this.readParams(params);
    if (this.def.readUrl) this.def.readUrl(this, params);
    return params;
  },

  /**
   * Takes the fields and selects that `params` names (keyed as in the URL: `decode.batch`), as a
   * link means them (presetsFromLink). A field's text is read as an English numeral (a link is
   * the same in every language) and shown in the reader's language; what is no number is kept as
   * it is, for the module to judge as it judges typed text. A select value it does not offer is
   * left out, and passed to `refused(sel, value)` where given.
   */
  readParams(params, refused) {
    const given = {}; // the fields the link carries: a number, or the text as it came
    for (const f of this.def.fields) {
      if (!params.has(this.key(f.id))) continue;
      const raw = params.get(this.key(f.id)).slice(0, MAX_URL_TEXT);
      const v = parseNumber(raw, 'en');
      given[f.id] = typeof v === 'number' && Number.isFinite(v) ? v : raw;
    }
    const chosen = {}; // the selects it names, with a value they offer
    for (const sel of this.def.selects || []) {
      if (!params.has(this.key(sel.id))) continue;
      const v = params.get(this.key(sel.id));
      // (checked in the form's order: a precision against the GPU the link names)
      if (this.offers(sel, v)) this.state.selects[sel.id] = chosen[sel.id] = v;
      else if (refused) refused(sel, v);
    }
    this.presetsFromLink(given, chosen);
    for (const [id, v] of Object.entries(given)) {
      if (typeof v === 'number') this.fill(id, v);
      else {
        this.state.fields[id] = v;
        delete this.exact[id];
      }
    }
    return given;
  },

  urlParams() {
    const out = [];
    for (const f of this.def.fields) {
      const text = this.state.fields[f.id];
      const v = this.fieldNumber(f.id);
      out.push([this.key(f.id), typeof v === 'number' && Number.isFinite(v) ? String(v) : String(text ?? '')]);
    }
    for (const sel of this.def.selects || []) out.push([this.key(sel.id), this.state.selects[sel.id]]);
    if (this.def.writeUrl) out.push(...this.def.writeUrl(this));
    return out;
  },

  shareUrl() {
    const u = new URL(location.href);
    const params = this.urlParams();
    // where a preset or a field one fills differs from the default, every select is named: a
    // select left out would be read as what the selects before it give (a model's own format),
    // which need not be the default it was left out for
    const sels = this.def.selects || [];
    const selectKeys = new Set(sels.map((sel) => this.key(sel.id)));
    const presetKeys = new Set([...selectKeys, ...sels.flatMap((sel) => (sel.fields || []).map((id) => this.key(id)))]);
    const presetsMoved = params.some(([k, v]) => presetKeys.has(k) && this.defaultParams.get(k) !== v);
    for (const [k, v] of params) {
      if (this.defaultParams.get(k) === v && !(presetsMoved && selectKeys.has(k))) u.searchParams.delete(k);
      else u.searchParams.set(k, v);
    }
    if (!u.searchParams.has('lang')) u.searchParams.set('lang', this.lang);
    return u.href;
  },

  writeUrl() {
    if (!this.urlState || !globalThis.history) return;
    // once the reader pauses (250 ms without a change): a slider drag rewrites the history entry
    // once, at its end, not every quarter second (a replaceState took 3–5 ms in a profile)
    clearTimeout(this.urlTimer);
    this.urlTimer = setTimeout(() => {
      this.urlTimer = null;
      // a calculator taken out of the page meanwhile (a prerendered one replaced in another
      // language) no longer speaks for it
      if (this.host && !this.host.isConnected) return;
      // an address that already says it is left as it is (a change taken back)
      const href = this.shareUrl();
      if (href === location.href) return;
      try {
        history.replaceState(history.state, '', href);
      } catch (e) {
        /* some file:// contexts refuse replaceState; the copy-link button still works */
      }
    }, 250);
  },

  async copyLink(status, field) {
    const url = this.shareUrl();
    try {
      await navigator.clipboard.writeText(url);
      status.textContent = this.tr('calc.copy.done');
      field.hidden = true;
    } catch (e) {
      field.hidden = false;
      field.value = url;
      field.select();
      status.textContent = this.tr('calc.copy.manual');
    }
  },
};
