// Writes a gzip (-9) and a brotli (quality 11) copy beside every text and WASM file of a built
// page (`x.wasm.gz`, `x.wasm.br`), subfolders included, for hosts that serve precompressed files (and for
// scripts/static-server.mjs, which does). Trunk runs it after each build (Trunk.toml).
// Usage: node scripts/compress-dist.mjs DIR
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.wasm', '.svg', '.json', '.txt']);

export function compressDir(dir) {
  const written = [];
  for (const name of fs.readdirSync(dir)) {
    const file = path.join(dir, name);
    // wasm-bindgen's `snippets/` (inline JS modules) sit in folders of their own.
    if (fs.statSync(file).isDirectory()) {
      written.push(...compressDir(file).map((f) => ({ ...f, name: path.join(name, f.name) })));
      continue;
    }
    if (!fs.statSync(file).isFile() || !COMPRESSIBLE.has(path.extname(name))) continue;
    const data = fs.readFileSync(file);
    const gz = zlib.gzipSync(data, { level: 9 });
    const br = zlib.brotliCompressSync(data, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
        [zlib.constants.BROTLI_PARAM_MODE]: path.extname(name) === '.wasm' ? zlib.constants.BROTLI_MODE_GENERIC : zlib.constants.BROTLI_MODE_TEXT,
      },
    });
    fs.writeFileSync(`${file}.gz`, gz);
    fs.writeFileSync(`${file}.br`, br);
    written.push({ name, raw: data.length, gzip: gz.length, brotli: br.length });
  }
  return written;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dir = process.argv[2];
  if (!dir || !fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) {
    console.error('usage: node scripts/compress-dist.mjs DIR (a built page\'s directory)');
    process.exit(2);
  }
  for (const f of compressDir(dir)) console.log(`${f.name}: ${f.raw} raw, ${f.gzip} gzip, ${f.brotli} brotli`);
}
