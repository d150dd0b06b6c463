// Issue 26 for the JavaScript module (web/animkit.mjs): nothing crashes or lies.
//  - after dispose() every accessor and method of the object (and of what depends on it: a
//    pose of a disposed skeleton, a walker's skeleton) throws AnimkitError 'was disposed';
//  - what is only read (parents, restLocal, ...) is a copy, so writing it changes nothing;
//  - walker.stepTo respects maxFrames (1e9 blocked for 2,900 s, 2**31-1 overflowed);
//  - limbIK/jacobianIK with missing or short targets, humanoid('left_foot=Nope') throw;
//  - an adversarial generator calls every public method with randomized bad arguments: each
//    call returns or throws an AnimkitError/TypeError/RangeError (never a WebAssembly trap or
//    another exception), and a canary pose sampled before is sampled the same afterwards
//    (nothing wrote into memory it does not own). It prints how many probes it made.
// Usage: node reliability_test.mjs MOCAP_DIR [PROBES]
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const [mocap, probesArg] = process.argv.slice(2);
const root = fileURLToPath(new URL('../..', import.meta.url));
const { init, AnimkitError } = await import(join(root, 'web/animkit.mjs'));
const ak = await init();

let failures = 0;
function check(ok, what) {
  if (!ok) { failures++; console.log(`FAIL ${what}`); }
}
function throwsAnimkit(fn, pattern, what) {
  try {
    fn();
  } catch (e) {
    check(e instanceof AnimkitError && (!pattern || pattern.test(e.message)), `${what}: threw ${e && e.stack}`);
    return;
  }
  check(false, `${what}: did not throw`);
}
const bvh = readFileSync(join(mocap, 'cmu_02_01_walk.bvh'));

// ---- dispose: every accessor and method throws afterwards ----
{
  const { skeleton, clip } = ak.loadBVH(bvh);
  const pose = skeleton.createPose();
  const other = ak.loadBVH(bvh);
  const otherPose = other.skeleton.createPose();
  clip.sample(0.5, pose).fk();
  pose.dispose();
  for (const [name, fn] of Object.entries({
    'pose.local': () => pose.local, 'pose.model': () => pose.model, 'pose.fk': () => pose.fk(),
    'pose.rest': () => pose.rest(), 'pose.positions': () => pose.positions(),
    'clip.sample(disposed pose)': () => clip.sample(0.1, pose), 'limbIK(disposed pose)': () => ak.limbIK(pose,
      { upper: 'LeftUpLeg', middle: 'LeftLeg', end: 'LeftFoot', target: [0, 0, 0] }),
  })) throwsAnimkit(fn, /pose was disposed/, `after pose.dispose(): ${name}`);
  const pose2 = skeleton.createPose();
  clip.dispose();
  for (const [name, fn] of Object.entries({
    rotations: () => clip.rotations, translations: () => clip.translations, trackJoints: () => clip.trackJoints,
    duration: () => clip.duration, loop: () => clip.loop, setLoop: () => { clip.loop = true; },
    sample: () => clip.sample(0.1, pose2), frame: () => clip.frame(0, pose2),
    standingHeight: () => clip.standingHeight(skeleton), prepareCubic: () => clip.prepareCubic(),
    writeBVH: () => ak.writeBVH(skeleton, clip), retarget: () => ak.retarget({ skeleton, clip }, other.skeleton),
  })) throwsAnimkit(fn, /clip was disposed/, `after clip.dispose(): ${name}`);
  skeleton.dispose();
  for (const [name, fn] of Object.entries({
    parents: () => skeleton.parents, restLocal: () => skeleton.restLocal, boneLengths: () => skeleton.boneLengths,
    isEndSite: () => skeleton.isEndSite, find: () => skeleton.find('Hips'), index: () => skeleton.index(0),
    restHeight: () => skeleton.restHeight(), humanoid: () => skeleton.humanoid(), createPose: () => skeleton.createPose(),
    'pose of it: local': () => pose2.local, 'pose of it: fk': () => pose2.fk(),
    chain: () => ak.chain(skeleton, 'Hips', 'LeftFoot'),
    createRetargeter: () => ak.createRetargeter(skeleton, other.skeleton),
  })) throwsAnimkit(fn, /(skeleton|pose) was disposed/, `after skeleton.dispose(): ${name}`);
  const r = ak.createRetargeter(other.skeleton, other.skeleton);
  r.pose(otherPose, otherPose);
  r.dispose();
  throwsAnimkit(() => r.pose(otherPose, otherPose), /retargeter was disposed/, 'after retargeter.dispose(): pose');
  throwsAnimkit(() => r.mapPoint([0, 0, 0]), /retargeter was disposed/, 'after retargeter.dispose(): mapPoint');
  const walker = ak.createWalker({ terrain: 'flat', maxTime: 2 });
  const walkSkeleton = walker.skeleton;
  walker.dispose();
  for (const [name, fn] of Object.entries({
    step: () => walker.step(), stepTo: () => walker.stepTo(3), world: () => walker.world, state: () => walker.state(),
    positions: () => walker.positions(), setTarget: () => walker.setTarget(1, 1),
    'walker.skeleton.parents': () => walkSkeleton.parents, 'walker.skeleton.humanoid': () => walkSkeleton.humanoid(),
  })) throwsAnimkit(fn, /(walker|skeleton) was disposed/, `after walker.dispose(): ${name}`);
  skeleton.dispose(); // twice is harmless
  otherPose.dispose();
  other.clip.dispose();
  other.skeleton.dispose();
}

// ---- read-only data comes as copies; stepTo, IK arguments, humanoid overrides ----
{
  const { skeleton, clip } = ak.loadBVH(bvh);
  const parents = skeleton.parents;
  parents[3] = 1e6;
  check(skeleton.parents[3] < 3, 'skeleton.parents is a copy: writing it changed the skeleton');
  const pose = skeleton.createPose();
  clip.sample(0.3, pose).fk();
  check(pose.model.every(Number.isFinite), 'pose after writing a parents copy is finite');
  const walker = ak.createWalker({ terrain: 'flat', maxTime: 2 });
  const t0 = Date.now();
  throwsAnimkit(() => walker.stepTo(1e9), /outside 0\.\./, 'walker.stepTo(1e9)');
  throwsAnimkit(() => walker.stepTo(2 ** 31 - 1), /outside 0\.\./, 'walker.stepTo(2**31-1)');
  throwsAnimkit(() => walker.stepTo(-1), /outside 0\.\./, 'walker.stepTo(-1)');
  throwsAnimkit(() => walker.stepTo(2.5), /outside 0\.\./, 'walker.stepTo(2.5)');
  check(Date.now() - t0 < 2000, 'refusing frames past maxFrames is immediate');
  walker.stepTo(walker.maxFrames - 1);
  check(walker.state().time > 1.9, `the last frame of maxTime 2: time ${walker.state().time}`);
  walker.dispose();
  const leg = { upper: 'LeftUpLeg', middle: 'LeftLeg', end: 'LeftFoot' };
  throwsAnimkit(() => ak.limbIK(pose, leg), /target must be 3 numbers/, 'limbIK without a target');
  throwsAnimkit(() => ak.limbIK(pose, { ...leg, target: [1] }), /target must be 3 numbers/, 'limbIK with a 1-element target');
  throwsAnimkit(() => ak.limbIK(pose, { ...leg, target: [0, NaN, 0] }), /finite/, 'limbIK with a NaN target');
  throwsAnimkit(() => ak.limbIK(pose, { ...leg, target: [0, 0, 0], pole: [1, 2] }), /pole/, 'limbIK with a short pole');
  throwsAnimkit(() => ak.jacobianIK(pose, { joints: ['LeftUpLeg', 'LeftLeg'], effectors: ['LeftFoot', 'LeftToeBase'],
    targets: [[0, 0, 0]] }), /one \[x, y, z\] per effector/, 'jacobianIK with fewer targets than effectors');
  throwsAnimkit(() => skeleton.humanoid('left_foot=Nope'), /Nope/, "humanoid('left_foot=Nope')");
  throwsAnimkit(() => skeleton.humanoid('left_foot=LeftFoot,right_foot=LeftFoot'), /one joint/,
    'humanoid with two slots on one joint');
  check(skeleton.humanoid().left_foot === skeleton.find('LeftFoot'), 'humanoid() still finds LeftFoot');
  throwsAnimkit(() => ak.detectUnits(NaN), /standingHeight/, 'detectUnits(NaN)');
  throwsAnimkit(() => ak.retarget({ skeleton, clip }, skeleton, { fadeTime: 1e20 }), /fade_time/, 'retarget fadeTime 1e20');
  pose.dispose();
  clip.dispose();
  skeleton.dispose();
}

// ---- the adversarial generator ----
{
  const { skeleton, clip } = ak.loadBVH(bvh);
  const canary = ak.loadBVH(bvh);
  const canaryPose = canary.skeleton.createPose();
  canary.clip.sample(0.7, canaryPose).fk();
  const expected = canaryPose.model.slice();
  const pose = skeleton.createPose();
  const walker = ak.createWalker({ terrain: 'hills', maxTime: 3 });
  let seed = 2626;
  const rand = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
  const pick = (list) => list[Math.floor(rand() * list.length)];
  const numbers = [NaN, Infinity, -Infinity, 1e30, -1e30, 1e20, 2 ** 31 - 1, -(2 ** 31), 2 ** 53, -1, 0, 0.5, 1, 2, 1e-30, -0];
  const scalars = () => pick([...numbers, undefined, null, 'x', '', true, {}, [], [1], () => 0, Symbol('s'), 10n]);
  const vec = () => pick([[0, 1, 0], [pick(numbers), pick(numbers), pick(numbers)], [1, 2], [1, 2, 3, 4], null, undefined,
    'abc', new Float32Array(3), new Float32Array([NaN, 0, 0]), {}, 7, [[1, 2, 3]]]);
  const joint = () => pick([0, 1, 5, -1, 1e9, 2.5, NaN, 'Hips', 'LeftFoot', 'Nope', '', null, undefined, {}, [0]]);
  const joints = () => pick([[0, 1, 2], ['LeftUpLeg', 'LeftLeg', 'LeftFoot'], [], [0], [0, 0, 0], [-1, 2], null, 'abc',
    new Int32Array([1, 2, 3]), [1e9], Array(100).fill(1), [[0]], undefined]);
  const opts = () => pick([undefined, null, 3, 'o', {
    upper: joint(), middle: joint(), end: joint(), joint: joint(), chain: joints(), joints: joints(),
    effectors: joints(), target: vec(), targets: pick([[vec()], [vec(), vec()], [], null, vec()]), pole: vec(), forward: vec(),
    up: vec(), upModel: vec(), weight: scalars(), tolerance: scalars(), maxIterations: scalars(),
    softLimit: scalars(), damping: scalars(), clampWeight: scalars(), jointWeights: pick([[1, 1, 1], [NaN], null, 'w']),
    method: pick(['dls', 'pseudo-inverse', 'x', 3, undefined]), effectorWeights: pick([[1], null, [NaN, 1]]),
    scale: scalars(), floor: scalars(), fadeTime: scalars(), contacts: scalars(), sourceOverrides: pick([null, 'hips=Nope', 'x', 3]),
    targetOverrides: pick([null, 'left_foot=Hips,right_foot=Hips', '=', 5]),
  }]);
  const anyPose = () => pick([pose, pose, pose, null, undefined, {}, skeleton, 3, canaryPose]);
  const calls = {
    loadBVH: () => ak.loadBVH(pick(['', 'HIERARCHY', '\u0000\u0001', 5, null, new Uint8Array([0, 0, 0]), {}, bvh.subarray(0, 200)])),
    writeBVH: () => ak.writeBVH(pick([skeleton, null, {}]), pick([clip, null, 1]), pick(['ZYX', 'QQQ', 5, null])),
    detectUnits: () => ak.detectUnits(scalars()),
    chain: () => ak.chain(pick([skeleton, null, {}]), joint(), joint(), pick([undefined, {}, { skipZeroBones: false }])),
    limbIK: () => ak.limbIK(anyPose(), opts()),
    ccdIK: () => ak.ccdIK(anyPose(), opts()),
    fabrikIK: () => ak.fabrikIK(anyPose(), opts()),
    jacobianIK: () => ak.jacobianIK(anyPose(), opts()),
    aimIK: () => ak.aimIK(anyPose(), opts()),
    lookAt: () => ak.lookAt(anyPose(), opts()),
    retarget: () => ak.retarget(pick([{ skeleton, clip }, {}, null, { skeleton }]), pick([skeleton, null, 3]), opts() ?? {}),
    createRetargeter: () => ak.createRetargeter(pick([skeleton, null]), pick([skeleton, {}]), opts() ?? {}).dispose(),
    createWalker: () => ak.createWalker(pick([{ terrain: pick(['lava', 'flat', 3]), maxTime: scalars() },
      { start: vec(), target: vec(), maxTime: 1 }, ['--max-time', String(scalars())], null, 5, 'x'])).dispose(),
    'skeleton.find': () => skeleton.find(scalars()),
    'skeleton.index': () => skeleton.index(joint()),
    'skeleton.indices': () => skeleton.indices(joints() ?? []),
    'skeleton.humanoid': () => skeleton.humanoid(pick([null, 'left_foot=Nope', 'x=y', 'hips=Hips', 3, '', '==,,'])),
    'clip.sample': () => clip.sample(scalars(), anyPose(), pick(['linear', 'cubic', 'x', 3, undefined])),
    'clip.frame': () => clip.frame(scalars(), anyPose()),
    'clip.standingHeight': () => clip.standingHeight(pick([skeleton, null, canary.skeleton, {}])),
    'pose.positions': () => pose.positions(pick([undefined, new Float32Array(2), [], null, new Float32Array(400)])),
    'walker.stepTo': () => walker.stepTo(scalars()),
    'walker.setTarget': () => walker.setTarget(scalars(), scalars()),
    'walker.state': () => walker.state(),
  };
  const names = Object.keys(calls);
  const probes = Number(probesArg || 3000);
  let thrown = 0, serious = 0;
  for (let i = 0; i < probes; ++i) {
    const name = names[i % names.length];
    try {
      calls[name]();
    } catch (e) {
      ++thrown;
      // TypeError/RangeError come from JavaScript itself on values of the wrong kind (a
      // Symbol in a template, a BigInt in arithmetic); a WebAssembly trap is not acceptable.
      if (!(e instanceof AnimkitError || e instanceof TypeError || e instanceof RangeError) ||
          /memory access out of bounds|unreachable|RuntimeError/.test(String(e))) {
        ++serious;
        if (serious <= 10) console.log(`FAIL probe ${i} ${name}: ${e && e.stack}`);
      }
    }
    // Whatever happened, the canary samples exactly as before and the walker stays finite.
    if (i % 25 === 0 || i === probes - 1) {
      canary.clip.sample(0.7, canaryPose).fk();
      const w = canaryPose.model;
      if (!w.every((v, k) => v === expected[k])) { ++serious; console.log(`FAIL probe ${i} ${name}: the canary pose changed`); }
      if (!walker.world.every(Number.isFinite)) { ++serious; console.log(`FAIL probe ${i} ${name}: walker pose non-finite`); }
      pose.rest();
    }
  }
  check(serious === 0, `${serious} serious findings`);
  console.log(`adversarial generator: ${probes} probes over ${names.length} public functions, ${thrown} refused with an error, ${serious} serious`);
  walker.dispose();
  pose.dispose();
  canaryPose.dispose();
  clip.dispose();
  skeleton.dispose();
  canary.clip.dispose();
  canary.skeleton.dispose();
}

if (failures) {
  console.log(`${failures} failure(s)`);
  process.exit(1);
}
console.log('web reliability: all checks passed');
