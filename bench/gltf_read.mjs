// glTF read time: animkit (the library's glTF clip reader compiled to WebAssembly, the JS
// module's loadClip: parse, evaluate every channel, resample into frames) against three.js's
// GLTFLoader.parse (parse, build the scene graph and AnimationClips) on the same GLB bytes, in
// the same node process, alternating, median of ROUNDS runs each after WARM warm-up runs (both
// readers' JIT-compiled code settles: three.js's GLTFLoader speeds up about 2x between its
// 15th and 100th parse, so a short warm-up flattered animkit).
// The GLBs are `animkit convert` of the test mocap clips (skeleton, animation, skinned body).
// Usage: node bench/gltf_read.mjs BUILD_DIR [ROUNDS [WARM]]   (defaults 101 and 50)
//   needs web/dist (make web), BUILD_DIR/bin/animkit and npm `three` in
//   BUILD_DIR/gltf-validator (ctest io_gltf_three installs it from tests/io/package.json).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const build = resolve(process.argv[2] || join(root, 'build'));
const rounds = Number(process.argv[3] || 101);
const warm = Number(process.argv[4] || 50);
const req = createRequire(join(build, 'gltf-validator', 'package.json'));
const THREE = await import(pathToFileURL(req.resolve('three')).href);
const { GLTFLoader } = await import(pathToFileURL(join(build, 'gltf-validator/node_modules/three/examples/jsm/loaders/GLTFLoader.js')).href);
const { init } = await import(join(root, 'web/animkit.mjs'));
if (!globalThis.ProgressEvent) {
  globalThis.ProgressEvent = class extends Event { constructor(t, i = {}) { super(t); Object.assign(this, i); } };
}

const ak = await init();
const mocap = join(root, 'tests/data/mocap');
const dir = mkdtempSync(join(tmpdir(), 'animkit-gltf-bench-'));
const median = (v) => [...v].sort((a, b) => a - b)[v.length >> 1];
const loader = new GLTFLoader();
const threeParse = (buf) => new Promise((ok, fail) => loader.parse(buf, '', ok, fail));

console.log('| file | size | frames x joints | animkit loadClip (WASM) ms | three.js GLTFLoader.parse ms | three / animkit |');
console.log('|---|---:|---:|---:|---:|---:|');
const ratios = [];
for (const name of readdirSync(mocap).filter((f) => f.endsWith('.bvh')).sort()) {
  const glb = join(dir, name.replace(/\.bvh$/, '.glb'));
  execFileSync(join(build, 'bin/animkit'), ['convert', join(mocap, name), glb], { stdio: 'ignore' });
  const bytes = readFileSync(glb);
  const buf = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length);
  const ours = [], theirs = [];
  let shape = '';
  for (let r = -warm; r < rounds; ++r) {
    let t = performance.now();
    const { skeleton, clip } = ak.loadClip(bytes);
    const a = performance.now() - t;
    shape = `${clip.frameCount} x ${skeleton.jointCount}`;
    clip.dispose(); skeleton.dispose();
    t = performance.now();
    const gltf = await threeParse(buf.slice(0));
    const b = performance.now() - t;
    if (!gltf.animations.length) throw new Error(`${name}: three.js found no animation`);
    if (r >= 0) ours.push(a), theirs.push(b);
  }
  const a = median(ours), b = median(theirs);
  ratios.push(b / a);
  console.log(`| ${name.replace(/\.bvh$/, '.glb')} | ${(bytes.length / 1024).toFixed(0)} KB | ${shape} | ${a.toFixed(2)} | ${b.toFixed(2)} | ${(b / a).toFixed(2)} |`);
}
rmSync(dir, { recursive: true, force: true });
console.log(`\nmedian ratio three.js / animkit: ${median(ratios).toFixed(2)} (above 1: animkit faster), ${rounds} rounds after ${warm} warm-up, three ${THREE.REVISION}`);
