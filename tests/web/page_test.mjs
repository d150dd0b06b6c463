// The web page in a real browser (Debian's chromium, headless, WebGL 2 on SwiftShader):
// opens web/dist/index.html with URL flags, drops a BVH on the canvas, checks the picture is
// not blank and that joints land on the pixels the projected FK says (as the native render
// test does), loads a file through the picker, switches to IK and walker mode (buttons and
// keys) and finds the IK target and the walker where they project, with no console errors.
// First, the page a newcomer opens (no parameters, 1024 px): the walker walking, browser
// hints, a HUD and status line that fit, IK -> walker not left paused, a dropped clip walked.
// A GLB (`animkit convert` of the walk) dropped on the page plays with the module's glTF FK.
// Usage: node page_test.mjs DIST_DIR MOCAP_DIR NODE_MODULES_PARENT ANIMKIT_CLI
import { createRequire } from 'node:module';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from './serve.mjs';
import { launch } from './browser.mjs';

const [dist, mocap, deps, cli] = process.argv.slice(2).map((p) => resolve(p));
const puppeteer = createRequire(join(deps, 'package.json'))('puppeteer-core');
const root = fileURLToPath(new URL('../..', import.meta.url));
const { init } = await import(join(root, 'web/animkit.mjs'));

let failures = 0;
function check(ok, what) {
  if (!ok) { failures++; console.log(`FAIL ${what}`); }
}

const clipName = readdirSync(mocap).find((f) => /cmu_02_01_walk\.bvh$/.test(f))
  || readdirSync(mocap).find((f) => f.endsWith('.bvh'));
const clipPath = join(mocap, clipName);
const bvhText = readFileSync(clipPath, 'utf8');
const BACKGROUND = [0.80 * 255, 0.84 * 255, 0.89 * 255];

// Draws one frame now (akv_web_capture) and returns the probe (camera, joints, mode).
async function capture(page) {
  return page.evaluate(() => {
    const ak = window.animkit;
    window.lastCapture = ak._akv_web_capture();
    const probe = JSON.parse(ak.UTF8ToString(ak._akv_web_probe()));
    // Not blank: count pixels of many different colours and of the character's coral.
    const px = ak.HEAPU8.subarray(window.lastCapture, window.lastCapture + probe.width * probe.height * 4);
    const colours = new Set();
    let coral = 0;
    for (let i = 0; i < px.length; i += 4 * 7) {
      colours.add((px[i] >> 3) << 10 | (px[i + 1] >> 3) << 5 | (px[i + 2] >> 3));
      if (px[i] > px[i + 2] + 60 && px[i] > 150) coral++;
    }
    probe.colours = colours.size;
    probe.coral = coral;
    return probe;
  });
}
// RGB at top-left-origin pixels (x, y) of the last capture (rows are stored bottom first).
async function pixels(page, points) {
  return page.evaluate((points) => {
    const ak = window.animkit;
    const probe = JSON.parse(ak.UTF8ToString(ak._akv_web_probe()));
    return points.map(([x, y]) => {
      const i = window.lastCapture + ((probe.height - 1 - y) * probe.width + x) * 4;
      return [ak.HEAPU8[i], ak.HEAPU8[i + 1], ak.HEAPU8[i + 2]];
    });
  }, points);
}
// World point -> pixel with the page's own view-projection matrix (column-major).
function project(probe, [x, y, z]) {
  const m = probe.view_proj;
  const cx = m[0] * x + m[4] * y + m[8] * z + m[12], cy = m[1] * x + m[5] * y + m[9] * z + m[13];
  const cw = m[3] * x + m[7] * y + m[11] * z + m[15];
  return [Math.floor((cx / cw * 0.5 + 0.5) * probe.width), Math.floor((1 - (cy / cw * 0.5 + 0.5)) * probe.height)];
}
const inside = (probe, [x, y]) => x >= 0 && y >= 0 && x < probe.width && y < probe.height;
const far = (rgb, ref, d) => Math.abs(rgb[0] - ref[0]) + Math.abs(rgb[1] - ref[1]) + Math.abs(rgb[2] - ref[2]) > d;
const isCharacter = (rgb) => rgb[0] > rgb[2] + 30 && far(rgb, BACKGROUND, 60);

// The repository root: the page under web/dist/, the three.js example under web/examples/.
const server = await serve(join(dist, '../..'), { '/web/examples/three/node_modules/': join(deps, 'node_modules') });
const browser = await launch(puppeteer);
const errors = [];
const probeOf = (page) => page.evaluate(() => JSON.parse(window.animkit.UTF8ToString(window.animkit._akv_web_probe())));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
async function dropFile(page, name, text) {
  await page.evaluate((name, text) => {
    const dt = new DataTransfer();
    dt.items.add(new File([text], name));
    document.getElementById('canvas').dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, name, text);
}
// Walker time advances by at least `seconds` of simulation within `ms` of wall clock.
async function walks(page, seconds, ms) {
  const t0 = (await probeOf(page)).walk[0];
  await page.waitForFunction((t0, s) => {
    const p = JSON.parse(window.animkit.UTF8ToString(window.animkit._akv_web_probe()));
    return p.walk && (p.walk[0] - t0 >= s || p.walk[1]);
  }, { timeout: ms }, t0, seconds).catch(() => {});
  const p = await probeOf(page);
  return { ok: p.walk && (p.walk[0] - t0 >= seconds || p.walk[1] === 1), from: t0, to: p.walk && p.walk[0] };
}

// A newcomer's first view (issue 27): the page with no parameters at 1024 px shows the walker
// walking the built-in clip, browser hints only, a status line and HUD that fit; IK mode then
// walker mode walks again (not left paused); a dropped walk is walked, a dance is refused
// in the status line with the reason.
try {
  const first = await browser.newPage();
  await first.setViewport({ width: 1024, height: 700 });
  first.on('pageerror', (e) => errors.push(`first view page error: ${e.message}`));
  await first.goto(`${server.url}web/dist/index.html`, { waitUntil: 'load' });
  await first.waitForFunction(() => window.animkit && window.animkit._akv_web_probe, { timeout: 60000 });
  await first.waitForFunction(() => JSON.parse(window.animkit.UTF8ToString(window.animkit._akv_web_probe())).mode === 2, { timeout: 60000 });
  let fp = await probeOf(first);
  check(fp.walk_clip === 'built-in walk' && fp.paused === 0, `first view: walker on '${fp.walk_clip}', paused ${fp.paused}`);
  let w = await walks(first, 0.5, 20000);
  check(w.ok, `first view: the walker does not walk (t ${w.from} -> ${w.to} s)`);
  check(!/Q quit|animkit-view/.test(fp.hints), `first view: desktop hints in the page: ${fp.hints}`);
  await first.evaluate(() => window.animkit._akv_web_capture());
  fp = await probeOf(first);
  check(fp.hud_right > 0 && fp.hud_right <= fp.width, `HUD text reaches x = ${fp.hud_right} of ${fp.width} px`);
  const status = await first.$eval('#status', (e) => { const r = e.getBoundingClientRect(); return { right: r.right, text: e.textContent, sw: e.scrollWidth, cw: e.clientWidth }; });
  check(status.right <= 1024 && status.sw <= status.cw + 1, `status line cut at 1024 px: ${JSON.stringify(status)}`);
  console.log(`first view: walker walking the built-in clip, HUD ${fp.hud_right} of ${fp.width} px, status '${status.text}'`);

  // IK mode pauses playback to hold its pose; the walker after it walks.
  await first.focus('#canvas');
  await first.keyboard.press('Digit2');
  await first.waitForFunction(() => JSON.parse(window.animkit.UTF8ToString(window.animkit._akv_web_probe())).mode === 1, { timeout: 20000 }).catch(() => {});
  fp = await probeOf(first);
  check(fp.mode === 1, `key 2: mode ${fp.mode}`);
  await first.keyboard.press('Digit3');
  await first.waitForFunction(() => JSON.parse(window.animkit.UTF8ToString(window.animkit._akv_web_probe())).mode === 2, { timeout: 60000 }).catch(() => {});
  fp = await probeOf(first);
  w = await walks(first, 0.5, 20000);
  check(fp.mode === 2 && fp.paused === 0 && w.ok, `IK -> walker: mode ${fp.mode}, paused ${fp.paused}, t ${w.from} -> ${w.to} s`);

  // A dropped walk is what the walker walks; a dance cannot walk and the page says why.
  await dropFile(first, clipName, bvhText);
  await first.waitForFunction((n) => JSON.parse(window.animkit.UTF8ToString(window.animkit._akv_web_probe())).walk_clip.includes(n), { timeout: 60000 }, clipName.replace(/\.bvh$/, '')).catch(() => {});
  fp = await probeOf(first);
  w = await walks(first, 0.5, 20000);
  check(fp.walk_clip.includes(clipName.replace(/\.bvh$/, '')) && w.ok, `dropped ${clipName}: the walker walks '${fp.walk_clip}' (t ${w.from} -> ${w.to} s)`);
  const dance = readdirSync(mocap).find((f) => /dance\.bvh$/.test(f));
  if (dance) {
    await dropFile(first, dance, readFileSync(join(mocap, dance), 'utf8'));
    await first.waitForFunction(() => /cannot walk/.test(document.getElementById('status').textContent), { timeout: 60000 }).catch(() => {});
    const said = await first.$eval('#status', (e) => e.textContent);
    fp = await probeOf(first);
    check(fp.walk_clip.includes(clipName.replace(/\.bvh$/, '')), `dropped ${dance}: the walker should keep ${clipName}, walks '${fp.walk_clip}'`);
    check(/cannot walk/.test(said), `dropped ${dance}: the page does not say why it cannot walk: '${said}'`);
    console.log(`dropped clips: walks ${fp.walk_clip}; ${dance}: '${said}'`);
  }
  await first.close();

  const page = await browser.newPage();
  await page.setViewport({ width: 1000, height: 700 });
  page.on('console', (m) => { if (m.type() === 'error') errors.push(`console: ${m.text()}`); });
  page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
  page.on('requestfailed', (r) => errors.push(`request failed: ${r.url()}`));
  page.on('response', (r) => { if (r.status() >= 400) errors.push(`HTTP ${r.status()}: ${r.url()}`); });
  await page.goto(`${server.url}web/dist/index.html?paused&time=1&no-hud`, { waitUntil: 'load' });
  await page.waitForFunction(() => window.animkit && window.animkit._akv_web_probe, { timeout: 30000 });
  let probe = await capture(page);
  check(probe.characters === 0 && probe.mode === 0, `empty page: ${probe.characters} characters, mode ${probe.mode}`);
  check(probe.paused === 1 && Math.abs(probe.time - 1) < 1e-6, `URL flags paused&time=1: paused ${probe.paused}, time ${probe.time}`);

  // Drop the BVH on the canvas, as a person would.
  await page.evaluate((name, text) => {
    const dt = new DataTransfer();
    dt.items.add(new File([text], name));
    document.getElementById('canvas').dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, clipName, bvhText);
  await page.waitForFunction(() => JSON.parse(window.animkit.UTF8ToString(window.animkit._akv_web_probe())).characters === 1, { timeout: 20000 });
  probe = await capture(page);
  check(probe.colours > 40 && probe.coral > 200, `dropped clip: picture looks blank (${probe.colours} colours, ${probe.coral} character pixels)`);

  // The page's joints are animkit's FK at t = 1 s in metres: compare with the module's FK.
  const ak = await init();
  const { skeleton, clip } = ak.loadBVH(bvhText);
  const pose = skeleton.createPose();
  clip.sample(1.0, pose).fk();
  const fk = pose.positions();
  const hips = probe.joints[0];
  const scale = (hips[2] - probe.joints[skeleton.find('Head')][2]) / (fk[1] - fk[3 * skeleton.find('Head') + 1]);
  let worst = 0;
  probe.joints.forEach(([name, x, y, z], j) => {
    check(name === skeleton.names[j], `joint ${j}: ${name} vs ${skeleton.names[j]}`);
    worst = Math.max(worst, Math.abs(x - scale * fk[3 * j]), Math.abs(y - scale * fk[3 * j + 1]), Math.abs(z - scale * fk[3 * j + 2]));
  });
  check(Math.abs(scale - 0.056444) < 1e-4, `CMU units: the page's scale is ${scale} m per unit`);
  check(worst < 1e-5 * 1.8, `page joints vs module FK x scale: ${worst} m`);
  pose.dispose(); clip.dispose(); skeleton.dispose();

  // Joints land on character pixels; a point 1 m to the side of the head does not.
  const names = ['Head', 'LeftFoot', 'RightFoot', 'LeftHand', 'RightForeArm', 'Hips', 'Spine1'];
  const at = names.map((n) => project(probe, probe.joints.find((j) => j[0] === n).slice(1)));
  const head = probe.joints.find((j) => j[0] === 'Head').slice(1);
  // The camera's right axis is the first row of the view matrix (scaled by the projection).
  const r = [probe.view_proj[0], probe.view_proj[4], probe.view_proj[8]], rl = Math.hypot(...r);
  const beside = project(probe, [head[0] + r[0] / rl, head[1] + r[1] / rl, head[2] + r[2] / rl]);
  const rgb = await pixels(page, [...at, beside].map(([x, y]) => [Math.min(Math.max(x, 0), probe.width - 1), Math.min(Math.max(y, 0), probe.height - 1)]));
  names.forEach((n, k) => {
    check(inside(probe, at[k]) && isCharacter(rgb[k]), `joint ${n} at pixel ${at[k]}: rgb ${rgb[k]} is not the character`);
  });
  check(!inside(probe, beside) || !isCharacter(rgb[names.length]), `1 m beside the head at ${beside}: rgb ${rgb[names.length]}`);
  console.log(`playback: ${probe.width}x${probe.height}, ${probe.colours} colours, ${names.length} joints on the character, FK match ${worst.toExponential(2)} m`);

  // A GLB dropped on a fresh page plays: the walk written by `animkit convert` (metres), its
  // joints at t = 1 s equal the module's loadClip FK of the same bytes, drawn as a character.
  {
    const dir = mkdtempSync(join(tmpdir(), 'animkit-page-glb-'));
    execFileSync(cli, ['convert', clipPath, join(dir, 'walk.glb')], { stdio: 'ignore' });
    const glb = readFileSync(join(dir, 'walk.glb'));
    rmSync(dir, { recursive: true, force: true });
    const gp = await browser.newPage();
    await gp.setViewport({ width: 800, height: 600 });
    gp.on('pageerror', (e) => errors.push(`GLB page error: ${e.message}`));
    await gp.goto(`${server.url}web/dist/index.html?paused&time=1&no-hud`, { waitUntil: 'load' });
    await gp.waitForFunction(() => window.animkit && window.animkit._akv_web_probe, { timeout: 30000 });
    await gp.evaluate((b64) => {
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const dt = new DataTransfer();
      dt.items.add(new File([bytes], 'walk.glb'));
      document.getElementById('canvas').dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    }, glb.toString('base64'));
    await gp.waitForFunction(() => JSON.parse(window.animkit.UTF8ToString(window.animkit._akv_web_probe())).characters === 1, { timeout: 20000 }).catch(() => {});
    const gprobe = await capture(gp);
    check(gprobe.characters === 1, `dropped walk.glb: ${gprobe.characters} characters`);
    check(gprobe.colours > 40 && gprobe.coral > 200, `dropped walk.glb: picture looks blank (${gprobe.colours} colours, ${gprobe.coral} character pixels)`);
    // The GLB's own skinned mesh is what the page draws (not a body generated for the rig):
    // as many vertices as the file's POSITION accessor holds.
    const jsonLength = glb.readUInt32LE(12);
    const gltf = JSON.parse(glb.subarray(20, 20 + jsonLength).toString('utf8'));
    const fileVertices = gltf.accessors[gltf.meshes[0].primitives[0].attributes.POSITION].count;
    check(gprobe.mesh_vertices === fileVertices, `dropped walk.glb draws ${gprobe.mesh_vertices} vertices of its own mesh, the file has ${fileVertices}`);
    const gak = await init();
    const g = gak.loadClip(glb);
    const gpose = g.skeleton.createPose();
    g.clip.sample(1.0, gpose).fk();
    const gfk = gpose.positions();
    const ghead = g.skeleton.find('Head');
    const gscale = gprobe.joints.length ? (gprobe.joints[0][2] - gprobe.joints[ghead][2]) / (gfk[1] - gfk[3 * ghead + 1]) : 0;
    let gworst = 0;
    (gprobe.joints || []).forEach(([name, x, y, z], j) => {
      check(name === g.skeleton.names[j], `GLB joint ${j}: ${name} vs ${g.skeleton.names[j]}`);
      gworst = Math.max(gworst, Math.abs(x - gscale * gfk[3 * j]), Math.abs(y - gscale * gfk[3 * j + 1]), Math.abs(z - gscale * gfk[3 * j + 2]));
    });
    check(Math.abs(gscale - 1) < 1e-4, `GLB in metres: the page's scale is ${gscale} m per unit`);
    check(gworst < 1e-5 * 1.8, `GLB page joints vs module glTF FK: ${gworst} m`);
    console.log(`dropped walk.glb (${glb.length} B): ${gprobe.joints.length} joints, its own mesh of ${gprobe.mesh_vertices} vertices, ${gprobe.coral} character pixels, FK match ${gworst.toExponential(2)} m`);
    gpose.dispose(); g.clip.dispose(); g.skeleton.dispose();
    await gp.close();
  }

  // The file picker adds a second character.
  const input = await page.$('#file');
  await input.uploadFile(clipPath);
  await page.waitForFunction(() => JSON.parse(window.animkit.UTF8ToString(window.animkit._akv_web_probe())).characters === 2, { timeout: 20000 });

  // The test-clip list (web/dist/clips/clips.json) adds a third.
  const listed = await page.$$eval('#clips option', (o) => o.map((e) => e.value).filter((v) => v));
  check(listed.length >= 7, `test-clip list: ${listed.length} clips`);
  await page.select('#clips', listed[0]);
  await page.waitForFunction(() => JSON.parse(window.animkit.UTF8ToString(window.animkit._akv_web_probe())).characters === 3, { timeout: 20000 });

  // IK mode (button): the amber target ball is where the target projects.
  await page.click('#mode2');
  await page.waitForFunction(() => JSON.parse(window.animkit.UTF8ToString(window.animkit._akv_web_probe())).mode === 1, { timeout: 20000 });
  probe = await capture(page);
  check(probe.ik_error_m !== undefined && probe.ik_error_m < 0.01, `IK mode: error ${probe.ik_error_m} m`);
  const tp = project(probe, probe.ik_target);
  const [trgb] = await pixels(page, [tp]);
  check(inside(probe, tp) && trgb[0] > trgb[2] + 60 && trgb[1] > trgb[2] + 30, `IK target at ${tp}: rgb ${trgb} is not amber`);
  console.log(`IK mode: error ${(probe.ik_error_m * 1000).toFixed(3)} mm, target drawn at ${tp}`);

  // Walker mode (key 3): the character stands on the terrain where its hips project.
  await page.focus('#canvas');
  await page.keyboard.press('Digit3');
  await page.waitForFunction(() => JSON.parse(window.animkit.UTF8ToString(window.animkit._akv_web_probe())).mode === 2, { timeout: 60000 });
  probe = await capture(page);
  const hp = project(probe, probe.focus);
  const [hrgb] = await pixels(page, [hp]);
  check(inside(probe, hp) && isCharacter(hrgb), `walker hips at ${hp}: rgb ${hrgb} is not the character`);
  check(probe.colours > 40, `walker picture looks blank (${probe.colours} colours)`);
  console.log(`walker mode: hips drawn at ${hp}, ${probe.colours} colours`);

  // Back to playback (key 1).
  await page.keyboard.press('Digit1');
  await page.waitForFunction(() => JSON.parse(window.animkit.UTF8ToString(window.animkit._akv_web_probe())).mode === 0, { timeout: 20000 });

  // The three.js example: SkinnedMesh bones take animkit's local transforms; their world
  // positions (three.js's own matrices) equal animkit's FK, and limb IK reaches the ball.
  const example = await browser.newPage();
  example.on('pageerror', (e) => errors.push(`example page error: ${e.message}`));
  example.on('console', (m) => { if (m.type() === 'error') errors.push(`example console: ${m.text()}`); });
  await example.goto(`${server.url}web/examples/three/index.html`, { waitUntil: 'load' });
  await example.waitForFunction(() => window.example && window.example.ready, { timeout: 30000 });
  const ex = await example.evaluate(() => { window.example.update(0.4); return window.example.compare(); });
  check(ex.joints === 38 && ex.worst < 1e-5 * 1.8, `three.js example: bones vs animkit FK ${ex.worst} m over ${ex.joints} joints`);
  check(ex.ik && ex.ik.reached, `three.js example: IK ${JSON.stringify(ex.ik)}`);
  console.log(`three.js example: ${ex.joints} bones within ${ex.worst.toExponential(2)} m of animkit's FK, IK error ${ex.ik.error.toExponential(2)}`);
} finally {
  await browser.close();
  await server.close();
}
for (const e of errors) check(false, e);
console.log(failures ? `${failures} failure(s)` : 'all page tests passed');
process.exit(failures ? 1 : 0);
