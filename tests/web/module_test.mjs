// The JavaScript module (web/animkit.mjs on the WebAssembly build) against the native CLI:
//  - world positions of every frame of every test clip equal `animkit positions` within
//    1e-5 of the skeleton's height (both are single-precision FK of the same keys);
//  - every IK solver gives the CLI's solved pose (`animkit ik --positions`) within float
//    tolerance of the chain;
//  - the walker's path, soles and hip drop equal `animkit walk`'s CSV frame by frame, a
//    capture under a still top joint (the hips carrying the travel) included, which walks as
//    its original and whose summary names the hips as the root-motion joint;
//  - a Z-up copy of a capture reads back as the original with loadBVH/loadClip's up 'auto' or
//    'z', and with 'y' keeps the file's axes (the CLI's --up, Python's up=);
//  - bad input throws an AnimkitError carrying the C message and line.
// Usage: node module_test.mjs ANIMKIT_CLI MOCAP_DIR
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, existsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const [cli, mocap] = process.argv.slice(2);
const root = fileURLToPath(new URL('../..', import.meta.url));
const { init, AnimkitError } = await import(join(root, 'web/animkit.mjs'));

let failures = 0;
function check(ok, what) {
  if (!ok) { failures++; console.log(`FAIL ${what}`); }
}
function run(args) {
  return execFileSync(cli, args, { encoding: 'utf8', maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'pipe'] });
}
// CSV frame,joint,x,y,z -> Float64Array per row in order.
function parsePositions(text) {
  const rows = text.trim().split('\n').slice(1);
  const out = new Float64Array(rows.length * 3);
  rows.forEach((r, i) => {
    const c = r.split(',');
    out[3 * i] = +c[2]; out[3 * i + 1] = +c[3]; out[3 * i + 2] = +c[4];
  });
  return out;
}
function clipFiles(dir) {
  const files = [];
  for (const d of [dir, join(dir, 'locomotion')]) {
    if (!existsSync(d)) continue;
    for (const f of readdirSync(d).sort()) if (f.endsWith('.bvh')) files.push(join(d, f));
  }
  return files;
}

const ak = await init();

// ---- positions of every test clip ----
const files = clipFiles(mocap);
check(files.length > 0, `no .bvh files in ${mocap}`);
for (const file of files) {
  const { skeleton, clip } = ak.loadBVH(readFileSync(file));
  const native = parsePositions(run(['positions', file]));
  const pose = skeleton.createPose();
  const n = skeleton.jointCount;
  check(native.length === clip.frameCount * n * 3, `${file}: row count`);
  const height = Math.max(skeleton.restHeight(), clip.standingHeight(skeleton));
  let worst = 0;
  for (let f = 0; f < clip.frameCount; ++f) {
    const p = clip.frame(f, pose).fk().positions();
    for (let k = 0; k < n * 3; ++k) worst = Math.max(worst, Math.abs(p[k] - native[f * n * 3 + k]));
  }
  check(worst <= 1e-5 * height, `${file}: positions differ by ${worst} (height ${height})`);
  console.log(`positions ${file.split('/').pop()}: ${clip.frameCount} frames x ${n} joints, worst ${(worst / height).toExponential(2)} of height`);
  pose.dispose(); clip.dispose(); skeleton.dispose();
}

// ---- every IK solver against `animkit ik` ----
{
  const file = files.find((f) => /02_01_walk/.test(f)) || files[0];
  const { skeleton, clip } = ak.loadBVH(readFileSync(file));
  const pose = skeleton.createPose();
  const h = skeleton.humanoid();
  const [rootJ, midJ, tipJ] = [h.right_upper_arm, h.right_lower_arm, h.right_hand];
  const frame = 60;
  clip.frame(frame, pose).fk();
  const w = pose.model, at = (j) => [w[7 * j + 4], w[7 * j + 5], w[7 * j + 6]];
  // A reachable target: two thirds of the way from the shoulder to the hand, lifted by a
  // quarter of the arm (the elbow must bend), in the file's units.
  const s = at(rootJ), e = at(tipJ);
  const arm = Math.hypot(e[0] - s[0], e[1] - s[1], e[2] - s[2]);
  const target = [0, 1, 2].map((k) => s[k] + (e[k] - s[k]) * 0.66 + (k === 1 ? 0.25 * arm : 0));
  const names = skeleton.names;
  const chain = ak.chain(skeleton, rootJ, tipJ);
  const solvers = {
    limb: () => ak.limbIK(pose, { upper: rootJ, middle: midJ, end: tipJ, target }),
    ccd: () => ak.ccdIK(pose, { chain, target }),
    fabrik: () => ak.fabrikIK(pose, { chain, target }),
    jacobian: () => ak.jacobianIK(pose, { chain, target, method: 'pseudo-inverse' }),
    dls: () => ak.jacobianIK(pose, { chain, target, method: 'dls' }),
  };
  for (const [name, solve] of Object.entries(solvers)) {
    clip.frame(frame, pose).fk();
    const result = solve();
    const out = run(['ik', file, '--root', names[rootJ], '--tip', names[tipJ], '--solver', name,
      '--frame', String(frame), '--target', target.join(','), '--positions']);
    const json = JSON.parse(out.split('\n').find((l) => l.startsWith('{')));
    const native = parsePositions(out.slice(out.indexOf('frame,joint')));
    const p = pose.positions();
    let worst = 0;
    for (let k = 0; k < p.length; ++k) worst = Math.max(worst, Math.abs(p[k] - native[k]));
    // Float tolerance of the chain: both solve in single precision; iterative solvers may
    // take a different last step, so allow the solvers' own tolerance (1e-4 of the chain).
    const tol = name === 'limb' ? 1e-5 * arm : 1e-4 * arm;
    check(result.reached === json.reached, `ik ${name}: reached ${result.reached} vs ${json.reached}`);
    check(worst <= tol, `ik ${name}: positions differ by ${worst} (chain ${arm})`);
    check(Math.abs(result.error - json.error) <= tol, `ik ${name}: error ${result.error} vs ${json.error}`);
    console.log(`ik ${name}: reached ${result.reached} in ${result.iterations}, error ${result.error.toExponential(2)}; worst joint vs native ${(worst / arm).toExponential(2)} of the arm`);
  }
  // Aim and look-at (no CLI command): the head's forward axis ends on the target.
  clip.frame(frame, pose).fk();
  const head = h.head, hp = at(head);
  const look = [hp[0] + arm, hp[1], hp[2] + arm];
  const aim = ak.aimIK(pose, { joint: head, target: look });
  check(aim.reached && aim.error < 1e-3, `aim: ${JSON.stringify(aim)}`);
  clip.frame(frame, pose).fk();
  const lookChain = ak.chain(skeleton, h.spine, head);
  const la = ak.lookAt(pose, { chain: lookChain, target: look });
  check(la.reached && la.error < 1e-3, `look-at: ${JSON.stringify(la)}`);
  pose.dispose(); clip.dispose(); skeleton.dispose();
}

// ---- the walker against `animkit walk` (both on the library's walk scenario) ----
// The built-in walk with its defaults, a CMU walk over stairs (the clip handed over as bytes),
// and that walk and its copy under a still top joint (issue 22: another studio's joint_Root
// that never moves above the Hips that travel) on flat ground.
// The still-top copy (the variant generator's AKV_STILL_TOP, studio_variants.h): joint_Root,
// six channels, zero offset and keys, above the file's hierarchy; every joint's motion unchanged.
function stillTopVariant(text) {
  const at = text.indexOf('MOTION');
  const body = text.slice(0, at).replace(/\r/g, '').replace(/^HIERARCHY\s*\n/, '').replace(/^ROOT /m, 'JOINT ');
  const indented = body.split('\n').map((l) => (l.trim() ? `\t${l}` : l)).join('\n');
  const lines = text.slice(at + 'MOTION'.length).replace(/\r/g, '').replace(/^\s+|\s+$/g, '').split('\n');
  const frames = lines.slice(2).filter((f) => f.trim()).map((f) => `0 0 0 0 0 0 ${f.trim()}`);
  return 'HIERARCHY\nROOT joint_Root\n{\n\tOFFSET 0 0 0\n' +
    '\tCHANNELS 6 Xposition Yposition Zposition Zrotation Yrotation Xrotation\n' +
    `${indented}}\nMOTION\n${[...lines.slice(0, 2), ...frames].join('\n')}\n`;
}
const walkClip = files.find((f) => /02_01_walk/.test(f)) || files[0];
const stillDir = mkdtempSync(join(tmpdir(), 'animkit-still-'));
const stillClip = join(stillDir, 'still_top.bvh');
writeFileSync(stillClip, stillTopVariant(readFileSync(walkClip, 'utf8')));
const flatWalk = ['--terrain', 'flat', '--start', '-3,0', '--target', '3,1'];
const flatSummaries = {};
for (const flags of [[], ['--clip', walkClip, '--terrain', 'stairs', '--start', '-5,-3', '--target', '5,2'],
  ['--clip', walkClip, ...flatWalk], ['--clip', stillClip, ...flatWalk]]) {
  const dir = mkdtempSync(join(tmpdir(), 'animkit-walk-'));
  run(['walk', ...flags, '--out', dir, '--quiet']);
  const rows = readFileSync(join(dir, 'walk.csv'), 'utf8').trim().split('\n').slice(1).map((r) => r.split(',').map(Number));
  const cliSummary = readFileSync(join(dir, 'summary.json'), 'utf8');
  rmSync(dir, { recursive: true, force: true });
  const options = {};
  for (let k = 0; k < flags.length; k += 2) options[flags[k].slice(2)] = flags[k + 1];
  if (options.clip) options.clip = readFileSync(options.clip);
  const walker = ak.createWalker(options);
  const what = `walk ${flags.join(' ').replace(walkClip, walkClip.split('/').pop()).replace(stillClip, 'still_top.bvh') || '(defaults: built-in walk, hills)'}`;
  let worst = 0, worstHeading = 0;
  for (let f = 0; f < rows.length; ++f) {
    walker.stepTo(f);
    const s = walker.state(), r = rows[f], w = walker.world;
    const mine = [w[4], w[5], w[6], ...s.sole[0], ...s.sole[1], s.hipDrop];
    const theirs = [r[1], r[2], r[3], r[5], r[6], r[7], r[10], r[11], r[12], r[15]];
    for (let k = 0; k < mine.length; ++k) worst = Math.max(worst, Math.abs(mine[k] - theirs[k]));
    worstHeading = Math.max(worstHeading, Math.abs(((s.heading * 180 / Math.PI - r[4] + 540) % 360) - 180));
  }
  check(walker.state().stopped || rows.length === walker.maxFrames, `${what}: not stopped after ${rows.length} frames`);
  // The CSV has 5 decimals (5e-6 m rounding) and 4 for the heading; 0.1 mm over a whole
  // walk leaves room for libm's last bit (musl in WebAssembly, glibc natively).
  check(worst <= 1e-4, `${what}: positions differ by ${worst} m`);
  check(worstHeading <= 1e-3, `${what}: heading differs by ${worstHeading} deg`);
  // The walk summary (issue 21's measures, one C function): the CLI's summary.json, key for
  // key in order; each figure within one unit of the last decimal the line prints (libm's
  // last bit may round a printed figure the other way), lengths also within the 1e-4 m the
  // poses agree to. Rates (skate, hip acceleration) are compared on the built-in walk only:
  // over the stairs the poses' 1e-4 m differ by up to 1e-4 m / dt in a speed and / dt² in an
  // acceleration, so no bound there says more than the poses' own.
  const mineSummary = walker.summary(), cliKeys = [...cliSummary.matchAll(/"(\w+)":("(?:[^"\\]|\\.)*"|[^,}]+)/g)];
  check(JSON.stringify(Object.keys(mineSummary)) === JSON.stringify(cliKeys.map((m) => m[1])),
    `${what}: summary keys ${Object.keys(mineSummary)} vs the CLI's ${cliKeys.map((m) => m[1])}`);
  for (const [, key, text] of cliKeys) {
    if (flags.length && /skate|accel/.test(key) && !key.startsWith('source_')) continue;
    const decimals = (text.split('.')[1] || '').length, theirs = JSON.parse(text), mine = mineSummary[key];
    const tolerance = Math.max(1.01 * 10 ** -decimals, /deg|_g$|frames|time/.test(key) ? 0 : 1e-4);
    const ok = typeof theirs === 'boolean' || typeof theirs === 'string' ? mine === theirs
      : Math.abs(mine - theirs) <= tolerance;
    check(ok, `${what}: summary ${key} ${mine} vs the CLI's ${text}`);
  }
  check(mineSummary.frames === rows.length, `${what}: summary counts ${mineSummary.frames} frames of ${rows.length}`);
  if (flags.includes('flat')) flatSummaries[flags[1] === stillClip ? 'still' : 'original'] = mineSummary;
  walker.stepTo(0); // back to the start: the summary starts again
  check(walker.summary().frames === 1, `${what}: summary after stepTo(0) counts ${walker.summary().frames} frames`);
  console.log(`${what}: ${rows.length} frames, worst ${worst.toExponential(2)} m, heading ${worstHeading.toExponential(2)} deg`);
  walker.dispose();
}
rmSync(stillDir, { recursive: true, force: true });
// The still-top copy walks as the original (the same arrival, path and body figures: the same
// capture), and the summary says which joint carries the travel and why, as `animkit info` does.
{
  const { still, original } = flatSummaries;
  check(original.root_joint === 'Hips' && original.root_joint_reason === 'top',
    `original: root joint ${original.root_joint} (${original.root_joint_reason})`);
  // what the walker starts and stops with, and why (CMU 02_01 begins and ends mid-stride)
  for (const key of ['start', 'stop'])
    check(original[key] === 'procedural' && original[`${key}_why`] === 'procedural (none captured around the cycle)',
      `original: ${key} ${original[key]}: ${original[`${key}_why`]}`);
  check(still.root_joint === 'Hips' && still.root_joint_reason === 'under_still_top' &&
    still.root_joint_why.startsWith('Hips (the top joint joint_Root is still: 0 on XZ;'),
    `still top joint: root joint ${still.root_joint} (${still.root_joint_reason}): ${still.root_joint_why}`);
  for (const key of ['arrived', 'time_s', 'path_length', 'hip_accel_min_g', 'hip_accel_max_g', 'knee_peak_deg', 'frames']) {
    const a = still[key], b = original[key];
    // the issue's 1 % on the body's figures; time, path and frames as the CLI test holds them
    const ok = typeof b === 'boolean' ? a === b : Math.abs(a - b) <= (/_g$|knee/.test(key) ? 0.01 * Math.abs(b) : 1e-3);
    check(ok, `still top joint: ${key} ${a}, the original ${b}`);
  }
  console.log(`still top joint on flat ground: ${still.time_s} s, path ${still.path_length} m (the original ${original.time_s} s, ${original.path_length} m), root joint ${still.root_joint_why}`);
}

// ---- retargeting against `animkit retarget` (a CMU walk onto another capture's rig) ----
{
  const srcFile = files.find((f) => /02_01_walk/.test(f)) || files[0];
  const rigFile = files.find((f) => /arena_louise/.test(f)) || files[1];
  const dir = mkdtempSync(join(tmpdir(), 'animkit-retarget-'));
  const outFile = join(dir, 'out.bvh');
  run(['retarget', srcFile, '--to', rigFile, '--out', outFile]);
  const native = parsePositions(run(['positions', outFile]));
  rmSync(dir, { recursive: true, force: true });
  const source = ak.loadBVH(readFileSync(srcFile));
  const rig = ak.loadBVH(readFileSync(rigFile));
  const { clip, info } = ak.retarget(source, rig.skeleton);
  const pose = rig.skeleton.createPose();
  const n = rig.skeleton.jointCount, height = rig.skeleton.restHeight();
  check(clip.frameCount === source.clip.frameCount && native.length === clip.frameCount * n * 3, 'retarget: frame and joint counts');
  let worst = 0;
  for (let f = 0; f < clip.frameCount; ++f) {
    const p = clip.frame(f, pose).fk().positions();
    for (let k = 0; k < n * 3; ++k) worst = Math.max(worst, Math.abs(p[k] - native[f * n * 3 + k]));
  }
  // The CLI's result went through a BVH file (written, read back: 1e-5 of the height).
  check(worst <= 2e-5 * height, `retarget: positions differ from the CLI's by ${worst} (height ${height})`);
  // The per-frame retargeter gives the offline result without contacts.
  const plain = ak.retarget(source, rig.skeleton, { contacts: false });
  const live = ak.createRetargeter(source.skeleton, rig.skeleton);
  const sp = source.skeleton.createPose(), tp = rig.skeleton.createPose(), ref = rig.skeleton.createPose();
  let liveWorst = 0;
  for (let f = 0; f < source.clip.frameCount; f += 7) {
    live.pose(source.clip.frame(f, sp), tp).fk();
    const a = tp.positions(), b = plain.clip.frame(f, ref).fk().positions();
    for (let k = 0; k < a.length; ++k) liveWorst = Math.max(liveWorst, Math.abs(a[k] - b[k]));
  }
  check(liveWorst <= 1e-5 * height, `retargeter per frame vs offline without contacts: ${liveWorst}`);
  console.log(`retarget ${srcFile.split('/').pop()} -> ${rigFile.split('/').pop()} rig: ${clip.frameCount} frames, worst ${(worst / height).toExponential(2)} of height vs the CLI, scale ${info.scale.toFixed(3)}, ${info.pinnedRuns} pinned runs; per-frame vs offline ${(liveWorst / height).toExponential(2)}`);
  for (const o of [sp, tp, ref, pose, live, plain.clip, clip, rig.clip, rig.skeleton, source.clip, source.skeleton]) o.dispose();
}

// ---- the retarget report and --reference-frame (issue 22), against `animkit retarget` ----
// retarget() takes the CLI's --reference-frame (referenceFrame) and reports what the CLI
// prints: the reference frame used and, per foot, the highest target ankle over the source's
// stances beside the source's own mapped (before: neither; a web user could not name the
// reference pose, nor see a foot held in the air behind a pin error near 0). CMU 02_01 onto
// the Arena rig: its zero pose stands (reference -1); named frame 113, positions equal the
// CLI's with --reference-frame 113 and the report's heights equal its text (3 digits).
{
  const srcFile = files.find((f) => /02_01_walk/.test(f)) || files[0];
  const rigFile = files.find((f) => /arena_louise/.test(f)) || files[1];
  const dir = mkdtempSync(join(tmpdir(), 'animkit-reference-'));
  const outFile = join(dir, 'out.bvh');
  const cliRun = spawnSync(cli, ['retarget', srcFile, '--to', rigFile, '--out', outFile, '--reference-frame', '113'],
    { encoding: 'utf8', maxBuffer: 1 << 28 });
  check(cliRun.status === 0, `retarget --reference-frame 113: ${cliRun.stderr}`);
  const native = parsePositions(run(['positions', outFile]));
  rmSync(dir, { recursive: true, force: true });
  const source = ak.loadBVH(readFileSync(srcFile));
  const rig = ak.loadBVH(readFileSync(rigFile));
  const auto = ak.retarget(source, rig.skeleton);
  check(auto.info.referenceFrame === -1, `retarget: reference frame ${auto.info.referenceFrame}, want -1 (CMU's zero pose stands)`);
  const { clip, info } = ak.retarget(source, rig.skeleton, { referenceFrame: 113 });
  check(info.referenceFrame === 113, `retarget referenceFrame 113: info says ${info.referenceFrame}`);
  const pose = rig.skeleton.createPose();
  const n = rig.skeleton.jointCount, height = rig.skeleton.restHeight();
  let worst = 0;
  for (let f = 0; f < clip.frameCount; ++f) {
    const p = clip.frame(f, pose).fk().positions();
    for (let k = 0; k < n * 3; ++k) worst = Math.max(worst, Math.abs(p[k] - native[f * n * 3 + k]));
  }
  check(worst <= 2e-5 * height, `retarget referenceFrame 113: positions differ from the CLI's by ${worst} (height ${height})`);
  const printed = [...cliRun.stderr.matchAll(/(left|right) foot over the source's stance: ankle up to (\S+) above the floor \(the source's, mapped: (\S+)\)/g)];
  check(printed.length === 2, `retarget --reference-frame 113: the CLI printed ${printed.length} foot lines`);
  for (const [, side, target, mapped] of printed) {
    const s = side === 'left' ? 0 : 1;
    const same = (a, text) => a !== null && Math.abs(a - +text) <= 0.0051 * Math.abs(+text); // %.3g
    check(same(info.stanceFootHeight[s], target) && same(info.sourceStanceFootHeight[s], mapped),
      `retarget ${side} stance ankle ${info.stanceFootHeight[s]} (source ${info.sourceStanceFootHeight[s]}) vs the CLI's ${target} (${mapped})`);
  }
  const off = ak.retarget(source, rig.skeleton, { contacts: false });
  check(off.info.stanceFootHeight.every((v) => v === null), `retarget without contacts: stance heights ${off.info.stanceFootHeight}`);
  let refused = '';
  try { ak.retarget(source, rig.skeleton, { referenceFrame: 1.5 }); } catch (e) { refused = e.message; }
  check(/referenceFrame must be a whole number/.test(refused), `retarget referenceFrame 1.5: '${refused}'`);
  console.log(`retarget referenceFrame 113: worst ${(worst / height).toExponential(2)} of height vs the CLI; stance ankles ${info.stanceFootHeight.map((v) => v.toFixed(3))} (source ${info.sourceStanceFootHeight.map((v) => v.toFixed(3))})`);
  for (const o of [pose, off.clip, clip, auto.clip, rig.clip, rig.skeleton, source.clip, source.skeleton]) o.dispose();
}

// ---- glTF and GLB clips (loadClip / loadGLTF) ----
// The repository's glTF test files read by the module equal `animkit positions` on the same
// file (native glTF reader); a BVH written as GLB by `animkit convert --scale S` and read back
// by the module equals S times the BVH's own FK at every frame (keys written on frames).
{
  const gltfDir = join(root, 'tests/data/gltf');
  for (const name of ['simple_skin.gltf', 'steps_cubic_sparse.gltf', 'quantized.gltf']) {
    const file = join(gltfDir, name);
    const bytes = readFileSync(file);
    check(ak.clipFormat(bytes) === 'glTF', `${name}: format ${ak.clipFormat(bytes)}`);
    const { skeleton, clip } = ak.loadGLTF(bytes);
    const native = parsePositions(run(['positions', file]));
    const pose = skeleton.createPose();
    const n = skeleton.jointCount;
    check(native.length === clip.frameCount * n * 3, `${name}: ${clip.frameCount} frames x ${n} joints vs ${native.length / 3} CLI rows`);
    let worst = 0, size = 0;
    for (let f = 0; f < clip.frameCount; ++f) {
      const p = clip.frame(f, pose).fk().positions();
      for (let k = 0; k < n * 3; ++k) {
        worst = Math.max(worst, Math.abs(p[k] - native[f * n * 3 + k]));
        size = Math.max(size, Math.abs(native[f * n * 3 + k]));
      }
    }
    check(worst <= 1e-5 * Math.max(size, 1e-3), `${name}: positions differ from the CLI's by ${worst} (model size ${size})`);
    console.log(`glTF ${name}: ${clip.frameCount} frames x ${n} joints, worst ${worst.toExponential(2)} vs the CLI (size ${size.toFixed(3)})`);
    pose.dispose(); clip.dispose(); skeleton.dispose();
  }
  // Two animations in one file, picked by name and by index; external buffers are not
  // available from memory: a clear error.
  try {
    ak.loadClip(readFileSync(join(gltfDir, 'two_anims_skin.gltf')));
    check(false, 'two_anims_skin.gltf (external buffer) read from memory');
  } catch (e) {
    check(e instanceof AnimkitError && /buffer/i.test(e.message), `external buffer from memory: ${e && e.message}`);
    console.log(`error: ${e.message}`);
  }
  const file = files.find((f) => /02_01_walk/.test(f)) || files[0];
  const dir = mkdtempSync(join(tmpdir(), 'animkit-glb-'));
  const glb = join(dir, 'walk.glb');
  const scale = 0.05;
  run(['convert', file, glb, '--scale', String(scale)]);
  const glbBytes = readFileSync(glb);
  rmSync(dir, { recursive: true, force: true });
  check(ak.clipFormat(glbBytes) === 'GLB', `convert output: format ${ak.clipFormat(glbBytes)}`);
  const a = ak.loadBVH(readFileSync(file));
  const b = ak.loadClip(glbBytes.buffer.slice(glbBytes.byteOffset, glbBytes.byteOffset + glbBytes.length));
  const n = a.skeleton.jointCount;
  check(b.skeleton.jointCount === n && b.clip.frameCount === a.clip.frameCount,
    `GLB round trip: ${b.skeleton.jointCount} joints x ${b.clip.frameCount} frames, BVH ${n} x ${a.clip.frameCount}`);
  check(b.skeleton.names.join() === a.skeleton.names.join(), 'GLB round trip: joint names');
  const pa = a.skeleton.createPose(), pb = b.skeleton.createPose();
  const height = scale * Math.max(a.skeleton.restHeight(), a.clip.standingHeight(a.skeleton));
  let worst = 0;
  for (let f = 0; f < a.clip.frameCount && b.skeleton.jointCount === n; ++f) {
    const x = a.clip.frame(f, pa).fk().positions(), y = b.clip.frame(f, pb).fk().positions();
    for (let k = 0; k < n * 3; ++k) worst = Math.max(worst, Math.abs(scale * x[k] - y[k]));
  }
  check(worst <= 1e-5 * height, `GLB round trip: positions differ by ${worst} m (height ${height} m)`);
  console.log(`GLB ${file.split('/').pop()} -> convert -> loadClip: ${b.clip.frameCount} frames x ${n} joints, worst ${(worst / height).toExponential(2)} of height`);
  try {
    ak.loadGLTF(readFileSync(file));
    check(false, 'loadGLTF accepted a BVH');
  } catch (e) {
    check(e instanceof AnimkitError && /BVH/.test(e.message), `loadGLTF of a BVH: ${e && e.message}`);
  }
  try {
    ak.loadClip(glbBytes.subarray(0, glbBytes.length >> 1));
    check(false, 'a truncated GLB was accepted');
  } catch (e) {
    check(e instanceof AnimkitError && e.statusName === 'AK_ERR_PARSE', `truncated GLB: ${e && e.message} [${e && e.statusName}]`);
    console.log(`error: ${e.message} [${e.statusName}]`);
  }
  // up is for BVH: a glTF/GLB is Y-up by its specification and reads the same with up 'z'
  const c = ak.loadClip(glbBytes, null, { up: 'z' });
  const pc = c.skeleton.createPose();
  let moved = 0;
  for (let f = 0; f < b.clip.frameCount; ++f) {
    const y = b.clip.frame(f, pb).fk().positions(), z = c.clip.frame(f, pc).fk().positions();
    for (let k = 0; k < n * 3; ++k) moved = Math.max(moved, Math.abs(y[k] - z[k]));
  }
  check(moved === 0 && c.warning === '', `GLB with up 'z': moved ${moved}, warning '${c.warning}'`);
  for (const o of [pa, pb, pc, a.clip, a.skeleton, b.clip, b.skeleton, c.clip, c.skeleton]) o.dispose();
}

// ---- the up axis of a BVH file (loadBVH / loadClip options.up, issue 22) ----
// The capture as a Z-up tool writes it (the variant generator's AKV_Z_UP, studio_variants.h;
// python/tests/conftest.py's z_up_variant): the whole file turned +90 degrees about X (+Y to
// +Z), the motion unchanged. Offsets and positions (x, y, z) -> (x, -z, y); a joint's
// "Zrotation Yrotation Xrotation" keys (a, b, c) turn to "Yrotation Zrotation Xrotation"
// (-a, b, c), as R Rz(a) R^-1 = Ry(-a), R Ry(b) R^-1 = Rz(b), R Rx(c) R^-1 = Rx(c).
function zUpVariant(text) {
  const at = text.indexOf('MOTION');
  const g9 = (x) => String(Number(x.toPrecision(9)));
  const channels = [];
  const head = text.slice(0, at).split('\n').map((line) => {
    const words = line.trim().split(/\s+/);
    const indent = line.slice(0, line.length - line.trimStart().length);
    if (words[0] === 'OFFSET') {
      const [x, y, z] = words.slice(1, 4).map(Number);
      return `${indent}OFFSET ${g9(x)} ${g9(-z)} ${g9(y)}`;
    }
    if (words[0] === 'CHANNELS') {
      const names = words.slice(2);
      const rot = names.filter((n) => n.endsWith('rotation')).join(' ');
      if (rot !== '' && rot !== 'Zrotation Yrotation Xrotation') throw new Error(`zUpVariant: channels ${rot}`);
      channels.push(names);
      return line.replace('Zrotation Yrotation', 'Yrotation Zrotation');
    }
    return line;
  });
  const lines = text.slice(at + 'MOTION'.length).replace(/^\s+|\s+$/g, '').split('\n');
  const frames = lines.slice(2).filter((f) => f.trim()).map((frame) => {
    const values = frame.trim().split(/\s+/).map(Number), out = [];
    let k = 0;
    for (const names of channels) {
      const v = {};
      names.forEach((name, i) => { v[name] = values[k + i]; });
      k += names.length;
      if ('Xposition' in v) out.push(v.Xposition, -v.Zposition, v.Yposition);
      if ('Zrotation' in v) out.push(-v.Zrotation, v.Yrotation, v.Xrotation);
    }
    return out.map(g9).join(' ');
  });
  return `${head.join('\n')}MOTION\n${[...lines.slice(0, 2), ...frames].join('\n')}\n`;
}
{
  const file = files.find((f) => /02_01_walk/.test(f)) || files[0];
  const text = readFileSync(file, 'utf8');
  const zup = zUpVariant(text);
  const o = ak.loadBVH(text);
  const height = o.clip.standingHeight(o.skeleton);
  const n = o.skeleton.jointCount;
  const po = o.skeleton.createPose();
  // worst |axis a of the read copy - sign * axis b of the original| over every joint and frame
  const worst = (r, map) => {
    check(r.skeleton.jointCount === n && r.clip.frameCount === o.clip.frameCount, 'Z-up copy: joints and frames');
    const pr = r.skeleton.createPose();
    let w = 0;
    for (let f = 0; f < o.clip.frameCount; ++f) {
      const x = o.clip.frame(f, po).fk().positions(), y = r.clip.frame(f, pr).fk().positions();
      for (let j = 0; j < n; ++j)
        for (const [a, b, sign] of map) w = Math.max(w, Math.abs(y[3 * j + a] - sign * x[3 * j + b]));
    }
    pr.dispose();
    return w;
  };
  const same = [[0, 0, 1], [1, 1, 1], [2, 2, 1]], kept = [[0, 0, 1], [1, 2, -1], [2, 1, 1]];
  check(o.warning === '', `original: warning '${o.warning}'`);
  const reads = [
    ["loadBVH auto", ak.loadBVH(zup), same],
    ["loadBVH up 'auto'", ak.loadBVH(zup, { up: 'auto' }), same],
    ["loadBVH up 'z'", ak.loadBVH(zup, { up: 'z' }), same],
    ["loadBVH up 'y'", ak.loadBVH(zup, { up: 'y' }), kept],
    ["loadClip auto", ak.loadClip(zup), same],
    ["loadClip up 'z'", ak.loadClip(zup, null, { up: 'z' }), same],
    ["loadClip up 'y'", ak.loadClip(new TextEncoder().encode(zup), null, { up: 'y' }), kept],
  ];
  for (const [what, r, map] of reads) {
    const w = worst(r, map);
    // 1e-5 of the height: the text's rounding (%.9g), as Python's and the C reader's tests
    check(w <= 1e-5 * height, `Z-up copy, ${what}: positions differ by ${w} (height ${height})`);
    if (/auto/.test(what)) check(/stands along \+Z: read as Z-up \(turned to Y-up\)/.test(r.warning), `Z-up copy, ${what}: warning '${r.warning}'`);
    if (/'y'/.test(what)) check(r.warning === '', `Z-up copy, ${what}: warning '${r.warning}'`);
    console.log(`Z-up ${file.split('/').pop()}, ${what}: worst ${(w / height).toExponential(2)} of height${r.warning ? `; warning: ${r.warning}` : ''}`);
    r.clip.dispose(); r.skeleton.dispose();
  }
  for (const [what, call] of [["loadBVH up 'x'", () => ak.loadBVH(zup, { up: 'x' })],
    ['loadBVH up 2', () => ak.loadBVH(zup, { up: 2 })],
    ["loadBVH options 'z'", () => ak.loadBVH(zup, 'z')],
    ["loadClip up 'Z'", () => ak.loadClip(zup, null, { up: 'Z' })]]) {
    try {
      const r = call();
      check(false, `${what} was accepted`);
      r.clip.dispose(); r.skeleton.dispose();
    } catch (e) {
      check(e instanceof AnimkitError && e.statusName === 'AK_ERR_INVALID_ARG' && /up|options/.test(e.message), `${what}: ${e && e.message}`);
      console.log(`error: ${e.message}`);
    }
  }
  po.dispose(); o.clip.dispose(); o.skeleton.dispose();
}

// ---- errors are exceptions with the C message and line ----
try {
  ak.loadBVH('HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0 0\n  CHANNELS 3 Xrotation Yrotation Zrotation\n}\nMOTION\nFrames: 1\nFrame Time: 0.1\n1 2 nan\n');
  check(false, 'a NaN frame value was accepted');
} catch (e) {
  check(e instanceof AnimkitError && e.line === 10 && e.statusName === 'AK_ERR_PARSE' && e.reason.length > 0,
    `bad BVH: ${e && e.message} (line ${e && e.line})`);
  console.log(`error: ${e.message} [${e.statusName}]`);
}
for (const bad of [['--terrain', 'lava'], { terrain: 'lava' }, { maxTime: -1 }]) {
  try {
    ak.createWalker(bad);
    check(false, `walker flags ${JSON.stringify(bad)} were accepted`);
  } catch (e) {
    check(e instanceof AnimkitError && /lava|max-time/.test(e.message), `bad walker flag: ${e && e.message}`);
    console.log(`error: ${e.message}`);
  }
}

console.log(failures ? `${failures} failure(s)` : 'all module tests passed');
process.exit(failures ? 1 : 0);
