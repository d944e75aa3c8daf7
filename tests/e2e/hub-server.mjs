// A stand-in for huggingface.co serving the recorded repositories of tests/fixtures/hub with
// the Hub's routes and behaviour: the file listing (`/api/models/{repo}/tree/{rev}`), files
// (`/{repo}/resolve/{rev}/{path}`) with HTTP Range requests (206, Content-Range, 416), gated
// repositories (401 without a token, 403 with a wrong one), 404 for missing files, and CORS for
// a page of another origin. Every request is logged (`GET /_log`, `POST /_log/clear`) so the
// tests can prove the page read headers only and sent the token only where it should;
// `GET /_delay?ms=N` slows every file answer, so a test can cancel a read in flight.
//
// Run alone: `node tests/e2e/hub-server.mjs [port]`.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');
const HUB = path.join(FIXTURES, 'hub');

function repoDir(org, name) {
  const ok = (s) => /^[A-Za-z0-9._-]+$/.test(s) && s !== '.' && s !== '..';
  if (!ok(org) || !ok(name)) return null;
  const d = path.join(HUB, org, name);
  return fs.existsSync(d) && fs.statSync(d).isDirectory() ? d : null;
}

/** Every file a repository serves: its own files and its aliases, never `_` or `.` files. */
function listing(dir) {
  const out = [];
  const walk = (d, rel) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      if (e.name.startsWith('_') || e.name.startsWith('.')) continue;
      const p = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(path.join(d, e.name), p);
      else out.push({ path: p, file: path.join(d, e.name) });
    }
  };
  walk(dir, '');
  const alias = path.join(dir, '_alias.json');
  if (fs.existsSync(alias)) {
    for (const [p, target] of Object.entries(JSON.parse(fs.readFileSync(alias, 'utf8')))) {
      out.push({ path: p, file: path.join(FIXTURES, target) });
    }
  }
  return out.sort((a, b) => a.path.localeCompare(b.path));
}

export function hubServer(port = 0) {
  const log = [];
  let delay = 0;
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    const cors = {
      'Access-Control-Allow-Origin': '*',
      'Access-Control-Allow-Headers': 'Range, Authorization',
      'Access-Control-Expose-Headers': 'Content-Range, Content-Length, Accept-Ranges, X-Error-Code',
    };
    const send = (status, body, headers = {}) => {
      res.writeHead(status, { ...cors, ...headers });
      res.end(body);
    };
    const json = (status, obj, headers = {}) => send(status, JSON.stringify(obj), { 'Content-Type': 'application/json', ...headers });
    if (req.method === 'OPTIONS') return send(204, '', { 'Access-Control-Allow-Methods': 'GET, HEAD' });
    if (url.pathname === '/_log') return json(200, log);
    if (url.pathname === '/_log/clear') { log.length = 0; return json(200, {}); }
    if (url.pathname === '/_delay') { delay = Number(url.searchParams.get('ms')) || 0; return json(200, { delay }); }
    const entry = {
      path: url.pathname + url.search,
      range: req.headers.range || null,
      auth: req.headers.authorization || null,
      status: 0,
      bytes: 0,
    };
    log.push(entry);
    const done = (status, body, headers) => {
      entry.status = status;
      entry.bytes = body ? body.length : 0;
      if (delay && url.pathname.includes('/resolve/')) setTimeout(() => send(status, body, headers), delay);
      else send(status, body, headers);
    };
    let m = url.pathname.match(/^\/api\/models\/([^/]+)\/([^/]+)\/tree\/([^/]+)$/);
    if (m) {
      const dir = repoDir(m[1], m[2]);
      // The Hub answers 401 for a repository that does not exist (it cannot tell it from private).
      if (!dir) return done(401, JSON.stringify({ error: 'Repository not found' }), { 'X-Error-Code': 'RepoNotFound', 'Content-Type': 'application/json' });
      const body = JSON.stringify(listing(dir).map((f) => {
        const size = fs.statSync(f.file).size;
        const lfs = /\.(safetensors|gguf)$/.test(f.path) ? { lfs: { oid: '0'.repeat(64), size, pointerSize: 134 } } : {};
        return { type: 'file', oid: '0'.repeat(40), size, path: f.path, ...lfs };
      }));
      return done(200, Buffer.from(body), { 'Content-Type': 'application/json' });
    }
    m = url.pathname.match(/^\/([^/]+)\/([^/]+)\/resolve\/([^/]+)\/(.+)$/);
    if (m) {
      const dir = repoDir(m[1], m[2]);
      if (!dir) return done(401, Buffer.from('{"error":"Repository not found"}'), { 'X-Error-Code': 'RepoNotFound' });
      const gated = path.join(dir, '_gated');
      if (fs.existsSync(gated)) {
        const token = fs.readFileSync(gated, 'utf8').trim();
        if (!req.headers.authorization) {
          return done(401, Buffer.from(`{"error":"Access to model ${m[1]}/${m[2]} is restricted. You must have access to it and be authenticated to access it. Please log in."}`), { 'X-Error-Code': 'GatedRepo' });
        }
        if (req.headers.authorization !== `Bearer ${token}`) {
          return done(403, Buffer.from(`{"error":"Access to model ${m[1]}/${m[2]} is restricted and you are not in the authorized list."}`), { 'X-Error-Code': 'GatedRepo' });
        }
      }
      const want = decodeURIComponent(m[4]);
      const f = listing(dir).find((x) => x.path === want);
      if (!f) return done(404, Buffer.from('{"error":"Entry not found"}'), { 'X-Error-Code': 'EntryNotFound' });
      const data = fs.readFileSync(f.file);
      const r = req.headers.range && req.headers.range.match(/^bytes=(\d+)-(\d*)$/);
      if (r) {
        const start = Number(r[1]);
        if (start >= data.length) return done(416, Buffer.alloc(0), { 'Content-Range': `bytes */${data.length}` });
        const end = Math.min(r[2] === '' ? data.length - 1 : Number(r[2]), data.length - 1);
        const part = data.subarray(start, end + 1);
        return done(206, part, {
          'Content-Range': `bytes ${start}-${end}/${data.length}`,
          'Content-Length': String(part.length),
          'Accept-Ranges': 'bytes',
        });
      }
      return done(200, data, { 'Content-Length': String(data.length), 'Accept-Ranges': 'bytes' });
    }
    return done(404, Buffer.from('not found'), {});
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve({ server, log, port: server.address().port })));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { port } = await hubServer(Number(process.argv[2]) || 0);
  console.log(`hub fixtures on http://127.0.0.1:${port}`);
}
