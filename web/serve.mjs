#!/usr/bin/env node
// A tiny static server for the built site, with the strict CSP the page must work under:
//   node web/serve.mjs build-wasm/site [port]      (HOST=0.0.0.0 to listen beyond this machine;
//                                                   ISOLATED=1 to add COOP/COEP)
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';

export const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self' data:";
const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8', '.json': 'application/json; charset=utf-8', '.svg': 'image/svg+xml',
  '.png': 'image/png', '.wasm': 'application/wasm', '.txt': 'text/plain; charset=utf-8', '.md': 'text/plain; charset=utf-8',
};

/**
 * A static server for rootDir; `csp: null` sends no Content-Security-Policy (a host's own pages);
 * `isolated: true` also sends COOP/COEP, which make the page cross-origin isolated (the browser
 * benchmark then offers several threads).
 */
export function createSiteServer(rootDir, { csp = CSP, isolated = false } = {}) {
  const root = resolve(rootDir);
  return createServer(async (req, res) => {
    const headers = { 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-cache' };
    if (csp) headers['Content-Security-Policy'] = csp;
    if (isolated) {
      headers['Cross-Origin-Opener-Policy'] = 'same-origin';
      headers['Cross-Origin-Embedder-Policy'] = 'require-corp';
    }
    try {
      const url = new URL(req.url, 'http://localhost');
      let path = normalize(join(root, decodeURIComponent(url.pathname)));
      if (path !== root && !path.startsWith(root + sep)) {
        res.writeHead(403, headers).end('forbidden');
        return;
      }
      if ((await stat(path).catch(() => null))?.isDirectory()) path = join(path, 'index.html');
      const body = await readFile(path);
      res.writeHead(200, { ...headers, 'Content-Type': TYPES[extname(path)] || 'application/octet-stream' });
      res.end(req.method === 'HEAD' ? undefined : body);
    } catch (e) {
      res.writeHead(404, { ...headers, 'Content-Type': 'text/plain; charset=utf-8' }).end('not found');
    }
  });
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname)) {
  const dir = process.argv[2] || 'build-wasm/site';
  const port = Number(process.argv[3] || process.env.PORT || 8080);
  const host = process.env.HOST || '127.0.0.1';
  const server = createSiteServer(dir, { isolated: process.env.ISOLATED === '1' });
  server.listen(port, host, () => {
    const a = server.address();
    console.log(`Serving ${dir} at http://${host}:${a.port}/`);
  });
}
