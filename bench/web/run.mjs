// make bench-web: animkit (WebAssembly) vs three.js in headless chromium, and WebAssembly vs
// native (bench_web) on the same clips. Prints a Markdown table (docs/web.md has the figures).
// Usage: node bench/web/run.mjs BUILD_DIR [MOCAP_DIR]
//   needs web/dist (make web), BUILD_DIR/bin/bench_web and BUILD_DIR/web-node (npm, the
//   page test installs it).
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '../../tests/web/serve.mjs';
import { launch } from '../../tests/web/browser.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const build = resolve(process.argv[2] || join(root, 'build'));
const mocap = resolve(process.argv[3] || process.env.AK_MOCAP_DIR || join(root, 'tests/data/mocap'));
const deps = join(build, 'web-node');
const puppeteer = createRequire(join(deps, 'package.json'))('puppeteer-core');
const clips = readdirSync(mocap).filter((f) => f.endsWith('.bvh')).sort();

const rounds = Number(process.env.AK_BENCH_ROUNDS || 3);
const nativeBench = join(build, 'bin/bench_web');
const median = (v) => { const x = v.filter((e) => e != null).sort((p, q) => p - q); return x.length ? x[x.length >> 1] : null; };

// One round: native bench_web on every clip, then the browser page.
async function round(browser, server) {
  const native = {};
  if (existsSync(nativeBench)) {
    for (const line of execFileSync(nativeBench, clips.map((c) => join(mocap, c)), { encoding: 'utf8' }).trim().split('\n')) {
      const r = JSON.parse(line);
      native[r.file] = r;
    }
  }
  const page = await browser.newPage();
  page.on('pageerror', (e) => console.error('page error:', e.message));
  const query = clips.map((c) => 'clip=' + encodeURIComponent('/mocap/' + c)).join('&');
  await page.goto(`${server.url}bench/web/bench.html?${query}`);
  await page.waitForFunction(() => window.benchResults, { timeout: 900000, polling: 1000 });
  const rows = await page.evaluate(() => window.benchResults);
  await page.close();
  for (const r of rows) {
    const n = native[r.file] || {};
    r.native_parse_mb_s = n.parse_mb_s;
    r.native_ns = n.sample_fk_ns_per_joint;
    r.ratio = n.sample_fk_ns_per_joint ? r.ak_wasm_ns / n.sample_fk_ns_per_joint : null;
  }
  return rows;
}

const server = await serve(root, { '/node_modules/': join(deps, 'node_modules'), '/mocap/': mocap });
const browser = await launch(puppeteer);
const all = [];
try {
  for (let i = 0; i < rounds; ++i) all.push(await round(browser, server));
  console.log(`browser: ${await browser.version()}; ${rounds} rounds (native then browser), medians`);
} finally {
  await browser.close();
  await server.close();
}
// Per clip and field, the median over the rounds.
const results = all[0].map((first, k) => {
  const row = { ...first };
  for (const key of Object.keys(first)) if (typeof first[key] === 'number') row[key] = median(all.map((r) => r[k][key]));
  return row;
});

const f1 = (x) => (x == null ? '–' : x.toFixed(1));
const e2 = (x) => (x == null ? '–' : x.toExponential(1));
console.log('\n| clip | KB | joints (three) | parse MB/s: animkit WASM / three.js / native | sample+FK ns/joint: WASM via JS / WASM loop / three.js / native | WASM ÷ native | worst error vs reference (of height): animkit / three.js |');
console.log('|---|---|---|---|---|---|---|');
for (const r of results) {
  console.log(`| ${r.file.replace('.bvh', '')} | ${(r.bytes / 1024).toFixed(0)} | ${r.joints} (${r.three_joints}) | ${f1(r.ak_parse_mb_s)} / ${f1(r.three_parse_mb_s)} / ${f1(r.native_parse_mb_s)} | ${f1(r.ak_js_ns)} / ${f1(r.ak_wasm_ns)} / ${f1(r.three_ns)} / ${f1(r.native_ns)} | ${r.ratio ? r.ratio.toFixed(2) : '–'} | ${e2(r.ak_ref_error)} / ${e2(r.three_ref_error)} |`);
}
const ratios = results.map((r) => r.ratio).filter((x) => x);
console.log(`\nWASM loop ÷ native, median over clips: ${median(ratios).toFixed(2)}; animkit WASM via JS ÷ three.js: ${median(results.map((r) => r.ak_js_ns / r.three_ns)).toFixed(3)}; parse animkit ÷ three.js: ${median(results.map((r) => r.ak_parse_mb_s / r.three_parse_mb_s)).toFixed(1)}x`);
const dist = join(root, 'web/dist');
const page = ['animkit.js', 'animkit.wasm', 'index.html'].map((f) => readFileSync(join(dist, f)));
const raw = page.reduce((s, b) => s + b.length, 0), gz = page.reduce((s, b) => s + gzipSync(b, { level: 9 }).length, 0);
console.log(`\npage download (animkit.js + animkit.wasm + index.html): ${(raw / 1024).toFixed(0)} KB, gzip -9 ${(gz / 1024).toFixed(0)} KB (test clips not counted)`);
