// A tiny static server for dist/ on 127.0.0.1 with the right MIME types (.wasm as
// application/wasm) and precompressed copies where they exist. Used by scripts/serve, the
// end-to-end tests and the page benchmark.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';

export const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.txt': 'text/plain; charset=utf-8',
};

/** Serves `root` on 127.0.0.1:`port` (0 = any free port); `extra(req, res)` may answer first. */
export function serve(root, { port = 0, extra } = {}) {
  const base = path.resolve(root);
  const server = http.createServer((req, res) => {
    if (extra && extra(req, res)) return;
    const url = new URL(req.url, 'http://localhost');
    let file = path.resolve(base, '.' + decodeURIComponent(url.pathname));
    if (file !== base && !file.startsWith(base + path.sep)) { res.writeHead(403); res.end(); return; }
    if (fs.existsSync(file) && fs.statSync(file).isDirectory()) file = path.join(file, 'index.html');
    // A precompressed copy beside the file (scripts/compress-dist.mjs) when the browser takes it,
    // as static hosts serve them: brotli first, then gzip.
    const accepts = String(req.headers['accept-encoding'] || '');
    const encoding = [['br', '.br'], ['gzip', '.gz']].find(([e, ext]) => accepts.includes(e) && fs.existsSync(file + ext));
    fs.readFile(encoding ? file + encoding[1] : file, (err, data) => {
      if (err) { res.writeHead(404); res.end('not found'); return; }
      // Any origin may embed the page or import the module (as static hosts such as GitHub Pages allow).
      const headers = {
        'content-type': MIME[path.extname(file)] || 'application/octet-stream',
        'access-control-allow-origin': '*',
        vary: 'accept-encoding',
      };
      if (encoding) headers['content-encoding'] = encoding[0];
      res.writeHead(200, headers);
      res.end(data);
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

// Run directly: node scripts/static-server.mjs DIR PORT
if (import.meta.url === `file://${process.argv[1]}`) {
  const [dir = 'dist', port = '8080'] = process.argv.slice(2);
  const server = await serve(dir, { port: Number(port) });
  console.log(`Headroom is served at http://127.0.0.1:${server.address().port}/  (Ctrl-C to stop)`);
}
