// The engines suite's shared parts: the built site served with the strict CSP (and a report-uri
// that collects every violation, in any engine), a recorder for requests that would leave the
// machine, copies of file:// pages with the probe inline, the processes the suite starts (stopped
// on exit, whatever happens), and what the page should show, read from the same build.
import { createServer } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, normalize, resolve, sep } from 'node:path';
import { tmpdir } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { CSP, createSiteServer } from '../../web/serve.mjs';
import { injectAfterCharset, probeSource } from './probe.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
export const ROOT = resolve(HERE, '../..');
export const SITE_DIR = resolve(ROOT, process.env.SITE_DIR || 'build-wasm/site');
export const SHOTS = join(HERE, 'screenshots');
export const REPORT_PATH = '/__engines/csp-report';
export const PROBE_PATH = '/__engines/probe.js';
export const SELFTEST_PATH = '/__engines/selftest.html';
export const MODULE_PATH = '/__engines/module.html';

export function requireSite() {
  for (const f of ['index.html', 'roofline-lab.html', 'embed-example.html', 'roofline-calculator.js', 'snippets/decode.en.html']) {
    if (!existsSync(join(SITE_DIR, f))) throw new Error(`${join(SITE_DIR, f)} is missing: build the site first (bash .ci/build-wasm)`);
  }
}

export function shotPath(name) {
  mkdirSync(SHOTS, { recursive: true });
  return join(SHOTS, name);
}

export const norm = (s) => String(s ?? '').replace(/[\u00a0\u202f]/g, ' ').replace(/\s+%/g, '%').replace(/\s+/g, ' ').trim();
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------------------------------------
// Processes: every child the suite starts is stopped when the test process ends, even on a failed
// assertion or an exception in a hook (a process group each, so a browser's own children go too).

const children = new Set();

export function track(child) {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

export function stop(child, signal = 'SIGTERM') {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const gone = new Promise((r) => child.once('exit', r));
  try {
    process.kill(-child.pid, signal);  // its process group (spawned detached)
  } catch {
    try { child.kill(signal); } catch { /* already gone */ }
  }
  const timer = setTimeout(() => { try { process.kill(-child.pid, 'SIGKILL'); } catch { /* gone */ } }, 3000);
  return gone.finally(() => clearTimeout(timer));
}

process.on('exit', () => {
  for (const c of children) {
    try { process.kill(-c.pid, 'SIGKILL'); } catch { /* gone */ }
  }
  removeCopies();
});

/** Fails with what to install when a program the suite drives is missing. */
export function requireProgram(path, what) {
  const found = path.includes('/') ? existsSync(path)
    : (process.env.PATH || '').split(':').some((d) => d && existsSync(join(d, path)));
  if (!found) throw new Error(`${path} is missing: install ${what} (bash .ci/setup does)`);
}
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.once(sig, () => process.exit(130));
}

/** A TCP port free now on 127.0.0.1. */
export async function freePort() {
  const srv = createNetServer();
  await new Promise((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address();
  await new Promise((r) => srv.close(r));
  return port;
}

// ---------------------------------------------------------------------------------------------
// The site, served as web/serve.mjs serves it (the same strict CSP, plus report-uri: violations
// are reported to this server by the engine itself, from the document and its workers alike).

const HTML_HEADERS = (csp) => ({
  'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-cache', 'Content-Security-Policy': csp, 'Content-Type': 'text/html; charset=utf-8',
});

/**
 * Serves SITE_DIR on a free port. `probe: true` puts <script src="/__engines/probe.js"> first in
 * every HTML page (WebKit: no preload script over classic WebDriver). Also serves a self-test
 * page with an inline style, which the strict CSP must refuse and report.
 */
export async function serveSite({ probe = false } = {}) {
  const csp = `${CSP}; report-uri ${REPORT_PATH}`;
  const reports = [];
  const site = createSiteServer(SITE_DIR, { csp });
  const handle = site.listeners('request')[0];
  const root = resolve(SITE_DIR);
  const server = createServer(async (req, res) => {
    const url = new URL(req.url, 'http://localhost');
    if (url.pathname === REPORT_PATH) {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (d) => { body += d; });
      req.on('end', () => {
        try {
          const r = JSON.parse(body)['csp-report'] || JSON.parse(body);
          reports.push(`${r['violated-directive'] || r['effective-directive']} ${r['blocked-uri'] || ''} (${r['document-uri'] || ''} ${r['source-file'] || ''}:${r['line-number'] || 0})`);
        } catch {
          reports.push(`unreadable report: ${body.slice(0, 200)}`);
        }
        res.writeHead(204).end();
      });
      return;
    }
    if (url.pathname === PROBE_PATH) {
      res.writeHead(200, { ...HTML_HEADERS(csp), 'Content-Type': 'text/javascript; charset=utf-8' }).end(probeSource());
      return;
    }
    if (url.pathname === SELFTEST_PATH) {
      const head = probe ? `<script src="${PROBE_PATH}"></script>` : '';
      res.writeHead(200, HTML_HEADERS(csp)).end(`<!doctype html><html lang="en"><head><meta charset="utf-8">${head}<title>CSP self-test</title>`
        + '<style>body { color: red; }</style></head><body><p>An inline style, which the strict CSP refuses.</p></body></html>');
      return;
    }
    if (url.pathname === MODULE_PATH) {
      // the module alone (roofline.js), for checks that call it directly
      const head = probe ? `<script src="${PROBE_PATH}"></script>` : '';
      res.writeHead(200, HTML_HEADERS(csp)).end(`<!doctype html><html lang="en"><head><meta charset="utf-8">${head}<title>The module</title>`
        + '<script src="/roofline.js"></script></head><body><p>The module alone.</p></body></html>');
      return;
    }
    if (probe && (url.pathname.endsWith('.html') || url.pathname.endsWith('/'))) {
      let path = normalize(join(root, decodeURIComponent(url.pathname)));
      if (url.pathname.endsWith('/')) path = join(path, 'index.html');
      if (path.startsWith(root + sep) && path.endsWith('.html')) {
        const html = await readFile(path, 'utf8').catch(() => null);
        if (html !== null) {
          res.writeHead(200, HTML_HEADERS(csp)).end(injectAfterCharset(html, `<script src="${PROBE_PATH}"></script>\n`));
          return;
        }
      }
    }
    handle(req, res);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${server.address().port}/`,
    origin: `http://127.0.0.1:${server.address().port}`,
    reports,
    close: () => new Promise((r) => { server.closeAllConnections?.(); server.close(r); }),
  };
}

/**
 * An HTTP proxy that lets nothing through: every request a browser sends it (a plain one, or a
 * CONNECT for https) is written down and refused. MiniBrowser is started with it as its proxy,
 * so any request that would leave the machine arrives here.
 */
export async function startRecorder() {
  const seen = [];
  const server = createServer((req, res) => {
    seen.push(req.url);
    res.writeHead(502, { 'Content-Type': 'text/plain' }).end('blocked by the engines suite');
  });
  server.on('connect', (req, socket) => {
    seen.push(`CONNECT ${req.url}`);
    socket.destroy();
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { port: server.address().port, seen, close: () => new Promise((r) => { server.closeAllConnections?.(); server.close(r); }) };
}

// ---------------------------------------------------------------------------------------------
// file:// pages: the built file itself, or (WebKit) a copy of it with the probe inline.

let copies = null;

/** The file:// URL of SITE_DIR/name; `probe` (an options object) makes a copy with the probe inline. */
export function fileUrl(name, probe = null) {
  if (!probe) return pathToFileURL(join(SITE_DIR, name)).href;
  copies ??= mkdtempSync(join(tmpdir(), 'roofline-engines-'));
  const html = readFileSync(join(SITE_DIR, name), 'utf8');
  const out = join(copies, `${Object.keys(probe).length ? `${(probe.remove || []).join('-')}-` : ''}${name}`);
  writeFileSync(out, injectAfterCharset(html, `<script>${probeSource(probe)}</script>\n`));
  return pathToFileURL(out).href;
}

export function removeCopies() {
  if (copies) rmSync(copies, { recursive: true, force: true });
  copies = null;
}

// ---------------------------------------------------------------------------------------------
// What the page should show: the same build's prerendered snippets (drawn in Node by the page's
// own code with the default inputs) give every result row of each calculator.

const decode = (s) => s.replace(/<[^>]+>/g, '').replace(/&nbsp;/g, '\u00a0').replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'");

/** { row: text } of the snippet of `kind` in `lang`, as rows() reads a live calculator. */
export function snippetRows(kind, lang = 'en') {
  const html = readFileSync(join(SITE_DIR, 'snippets', `${kind}.${lang}.html`), 'utf8');
  const out = {};
  for (const m of html.matchAll(/<output\b[^>]*\bdata-row="([^"]+)"[^>]*>([\s\S]*?)<\/output>/g)) out[m[1]] = norm(decode(m[2]));
  return out;
}

/** The kinds with a snippet (every calculator but byhand and device). */
export function snippetKinds() {
  return [...new Set(readdirSync(join(SITE_DIR, 'snippets')).map((f) => f.split('.')[0]))].sort();
}

/** Every UI string, merged as the build bundles them: the page tests' own reader. */
export { loadUi } from '../web/helpers.mjs';
