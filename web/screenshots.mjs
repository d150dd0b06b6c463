// The page's pictures in docs/img (one per mode), taken in headless chromium.
// Usage: node web/screenshots.mjs [BUILD_DIR]   (after make web; puppeteer-core from
// BUILD_DIR/web-node, which the page test installs).
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '../tests/web/serve.mjs';
import { launch } from '../tests/web/browser.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const build = resolve(process.argv[2] || join(root, 'build'));
const puppeteer = createRequire(join(build, 'web-node/package.json'))('puppeteer-core');
const shots = [
  ['web_playback.png', 'web/dist/index.html?file=clips/cmu_05_06_dance.bvh&file=clips/cmu_02_01_walk.bvh&time=2.2&paused', 500],
  ['web_ik.png', 'web/dist/index.html?file=clips/cmu_02_01_walk.bvh&ik&solver=fabrik&time=1.3', 800],
  ['web_walker.png', 'web/dist/index.html?walk&terrain=hills&seed=3', 6000],
  ['web_three.png', 'web/examples/three/index.html', 1500],
];
const server = await serve(root, { '/web/examples/three/node_modules/': join(build, 'web-node/node_modules') });
const browser = await launch(puppeteer);
try {
  for (const [name, query, wait] of shots) {
    const page = await browser.newPage();
    await page.setViewport({ width: 1100, height: 700 });
    await page.goto(`${server.url}${query}`, { waitUntil: 'load' });
    await page.waitForFunction(() => (window.animkit && window.animkit._akv_web_probe) || window.example, { timeout: 30000 });
    await new Promise((r) => setTimeout(r, wait));
    await page.screenshot({ path: join(root, 'docs/img', name) });
    console.log(`docs/img/${name}`);
    await page.close();
  }
} finally {
  await browser.close();
  await server.close();
}
