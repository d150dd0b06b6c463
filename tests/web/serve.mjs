// A static file server for the browser tests and benchmarks (no network, localhost only).
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';

const TYPES = {
  '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript',
  '.wasm': 'application/wasm', '.json': 'application/json', '.bvh': 'text/plain',
  '.csv': 'text/plain',
};

// Serves `root` on 127.0.0.1 at a free port; `mounts` maps URL prefixes ('/node_modules/')
// to other folders. Resolves to { url, close }.
export function serve(root, mounts = {}) {
  const server = createServer(async (req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname));
    if (path.includes('..')) { res.writeHead(403).end(); return; }
    const prefix = Object.keys(mounts).find((p) => path.startsWith(p));
    const file = prefix ? join(mounts[prefix], path.slice(prefix.length)) : join(root, path);
    try {
      const body = await readFile(path.endsWith('/') ? join(file, 'index.html') : file);
      res.writeHead(200, { 'Content-Type': TYPES[extname(path)] || 'application/octet-stream' });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({
    url: `http://127.0.0.1:${server.address().port}/`,
    close: () => new Promise((r) => server.close(r)),
  })));
}
