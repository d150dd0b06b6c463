// Issue 26: the JavaScript module's adversarial pass, generated from its public declaration
// (web/animkit.d.ts), not written call by call. Every method of the public interfaces (Animkit,
// Skeleton, Clip, Pose, Walker, Retargeter) and every field of their options objects is called
// with each boundary value in turn (NaN, +-Infinity, huge, negative, zero, a fraction, wrong
// types, null), the other arguments at a working baseline; then every method and property of
// each kind of object is called again after dispose(). A call must return finite results or
// throw AnimkitError/TypeError/RangeError. Findings: another exception or a WebAssembly trap,
// a NaN or infinity accepted without an error where a number is wanted, a non-finite result
// from finite input, a canary pose that changed (memory written that the call does not own),
// a disposed object that still answers, and a public method with no baseline here (so the pass
// grows with the declaration).
// Usage: node generated_probes.mjs MOCAP_DIR   (exit 1 on any finding)
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const [mocap] = process.argv.slice(2);
const root = fileURLToPath(new URL('../..', import.meta.url));
const { init, AnimkitError } = await import(join(root, 'web/animkit.mjs'));
const ak = await init();
const dts = readFileSync(join(root, 'web/animkit.d.ts'), 'utf8');
const bvh = readFileSync(join(mocap, 'cmu_02_01_walk.bvh'));

// ---- the declaration: interfaces -> methods (parameters with types) and properties ----
function splitTop(text, sep) {
  const out = [];
  let depth = 0, start = 0;
  for (let i = 0; i < text.length; ++i) {
    const c = text[i];
    if ('({[<'.includes(c)) ++depth;
    else if (')}]>'.includes(c) && text[i - 1] !== '=') --depth;
    else if (c === sep && depth === 0) { out.push(text.slice(start, i)); start = i + 1; }
  }
  if (text.slice(start).trim()) out.push(text.slice(start));
  return out.map((s) => s.trim()).filter(Boolean);
}
function interfaces(text) {
  const clean = text.replace(/\/\*\*?[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
  const out = {};
  for (const m of clean.matchAll(/export interface (\w+)\s*\{/g)) {
    let depth = 1, i = m.index + m[0].length;
    const start = i;
    for (; depth > 0; ++i) depth += clean[i] === '{' ? 1 : clean[i] === '}' ? -1 : 0;
    const body = clean.slice(start, i - 1);
    const methods = [], props = [];
    for (const member of splitTop(body, ';')) {
      const mm = member.match(/^(\w+)\s*\(([\s\S]*)\)\s*:\s*([\s\S]+)$/);
      if (mm) {
        const params = splitTop(mm[2], ',').map((p) => {
          const pm = p.match(/^(\w+)(\?)?\s*:\s*([\s\S]+)$/) || p.match(/^\{[\s\S]*\}\s*=?/) && [null, 'options', '?', 'object'];
          return pm ? { name: pm[1], optional: !!pm[2], type: pm[3].replace(/\s+/g, ' ') } : { name: p, optional: true, type: '?' };
        });
        methods.push({ name: mm[1], params });
        continue;
      }
      const pm = member.match(/^(readonly\s+)?(\w+)(\?)?\s*:\s*([\s\S]+)$/);
      if (pm) props.push({ name: pm[2], readonly: !!pm[1], type: pm[4].replace(/\s+/g, ' ') });
    }
    out[m[1]] = { methods, props };
  }
  return out;
}
const api = interfaces(dts);
// The fields of an options parameter: an object literal's or a named interface's.
function fieldsOf(type) {
  const named = type.match(/^(\w+)(\s*&|$)/);
  const found = [];
  if (named && api[named[1]]) found.push(...api[named[1]].props);
  for (const lit of type.matchAll(/\{([^{}]*)\}/g))
    for (const f of splitTop(lit[1], ';')) {
      const fm = f.match(/^(\w+)(\?)?\s*:\s*(.+)$/);
      if (fm) found.push({ name: fm[1], type: fm[3] });
    }
  for (const n of ['ChainIK', 'RetargetOptions', 'WalkerFlags'])
    if (type.includes(n) && !(named && named[1] === n)) found.push(...api[n].props);
  return found;
}
const numeric = (type) => /\bnumber\b|Vec3/.test(type);

// ---- working objects and baselines ----
const live = [];
const keep = (o) => { live.push(o); return o; };
const { skeleton, clip } = ak.loadBVH(bvh);
const other = ak.loadBVH(bvh);
const canary = ak.loadBVH(bvh);
const canaryPose = canary.skeleton.createPose();
canary.clip.sample(0.7, canaryPose).fk();
const expected = canaryPose.model.slice();
const pose = () => keep(skeleton.createPose()).rest().fk();
const walker = () => keep(ak.createWalker({ terrain: 'flat', start: [0, 0], target: [0, 2], maxTime: 1 }));
const retargeter = () => keep(ak.createRetargeter(skeleton, other.skeleton));
const leg = { upper: 'LeftUpLeg', middle: 'LeftLeg', end: 'LeftFoot' };
const spine = ['Hips', 'LowerBack', 'Spine', 'Spine1', 'Neck', 'Head'];
const owners = {
  Animkit: () => ak,
  Skeleton: () => skeleton,
  Clip: () => clip,
  Pose: pose,
  Walker: walker,
  Retargeter: retargeter,
};
const baseline = {
  'Animkit.loadBVH': () => [bvh],
  'Animkit.loadClip': () => [bvh],
  'Animkit.loadGLTF': () => [bvh],
  'Animkit.clipFormat': () => [bvh],
  'Animkit.writeBVH': () => [skeleton, clip],
  'Animkit.detectUnits': () => [1.7],
  'Animkit.chain': () => [skeleton, 'LeftUpLeg', 'LeftFoot'],
  'Animkit.limbIK': () => [pose(), { ...leg, target: [5, 5, 5] }],
  'Animkit.ccdIK': () => [pose(), { chain: spine, target: [0, 20, 5] }],
  'Animkit.fabrikIK': () => [pose(), { chain: spine, target: [0, 20, 5] }],
  'Animkit.jacobianIK': () => [pose(), { chain: spine, target: [0, 20, 5] }],
  'Animkit.aimIK': () => [pose(), { joint: 'Head', target: [0, 20, 50] }],
  'Animkit.lookAt': () => [pose(), { chain: ['Neck', 'Head'], target: [0, 20, 50] }],
  'Animkit.retarget': () => [{ skeleton, clip }, other.skeleton, {}],
  'Animkit.createRetargeter': () => [skeleton, other.skeleton, {}],
  'Animkit.createWalker': () => [{ terrain: 'flat', start: [0, 0], target: [0, 2], maxTime: 1 }],
  'Skeleton.find': () => ['Hips'],
  'Skeleton.restHeight': () => [],
  'Skeleton.humanoid': () => [],
  'Skeleton.createPose': () => [],
  'Skeleton.dispose': null, // disposing the shared skeleton: the dispose pass does that
  'Clip.sample': () => [0.1, pose()],
  'Clip.frame': () => [2, pose()],
  'Clip.standingHeight': () => [skeleton],
  'Clip.prepareCubic': () => [],
  'Clip.dispose': null,
  'Pose.fk': () => [],
  'Pose.rest': () => [],
  'Pose.positions': () => [],
  'Pose.dispose': () => [],
  'Walker.stepTo': () => [3],
  'Walker.step': () => [],
  'Walker.setTarget': () => [1, 1],
  'Walker.positions': () => [],
  'Walker.state': () => [],
  'Walker.summary': () => [],
  'Walker.dispose': () => [],
  'Retargeter.pose': () => { const p = pose(); return [p, keep(other.skeleton.createPose())]; },
  'Retargeter.mapPoint': () => [[0, 1, 0]],
  'Retargeter.sourceJoint': () => [1],
  'Retargeter.dispose': () => [],
};
// Numbers that are not "a number the library computes with": NaN there is the caller's own
// (an index is refused as a non-integer anyway). Documented sentinels only.
const nanAllowed = new Set([]);

const BAD = [['NaN', NaN], ['Infinity', Infinity], ['-Infinity', -Infinity], ['1e30', 1e30], ['-1e30', -1e30],
  ['2**31', 2 ** 31], ['-2**31-1', -(2 ** 31) - 1], ['-1', -1], ['0', 0], ['2.5', 2.5], ["''", ''], ["'nope'", 'nope'],
  ['null', null], ['{}', {}], ['[]', []], ['[NaN,NaN,NaN]', [NaN, NaN, NaN]], ['[Infinity,0,0]', [Infinity, 0, 0]],
  ['[1,2]', [1, 2]], ['true', true], ['Symbol', Symbol('s')], ['10n', 10n], ['Float32Array(NaN)', new Float32Array([NaN, 0, 0])]];
const nonFiniteInput = (v) => (typeof v === 'number' && !Number.isFinite(v)) ||
  ((Array.isArray(v) || v instanceof Float32Array) && Array.from(v).some((x) => typeof x === 'number' && !Number.isFinite(x)));

function nonFiniteResult(r, depth = 0) {
  if (depth > 3 || r == null) return false;
  if (typeof r === 'number') return !Number.isFinite(r);
  if (r instanceof Float32Array || r instanceof Float64Array) return !r.every(Number.isFinite);
  if (r.constructor && r.constructor.name === 'Pose') return nonFiniteResult(r.local, depth + 1);
  if (Array.isArray(r)) return r.slice(0, 64).some((x) => nonFiniteResult(x, depth + 1));
  if (typeof r === 'object' && Object.getPrototypeOf(r) === Object.prototype)
    return Object.values(r).some((x) => nonFiniteResult(x, depth + 1));
  return false;
}

let cases = 0;
const findings = [];
const clean = (e) => (e instanceof AnimkitError || e instanceof TypeError || e instanceof RangeError) &&
  !/memory access out of bounds|unreachable|RuntimeError/.test(String(e));

function probe(label, fn, badValue, numericSlot) {
  ++cases;
  let result;
  try {
    result = fn();
  } catch (e) {
    if (!clean(e)) findings.push(`${label}: ${e && e.constructor && e.constructor.name}: ${e && e.message}`);
    return;
  } finally {
    canary.clip.sample(0.7, canaryPose).fk();
    if (!canaryPose.model.every((v, k) => v === expected[k])) {
      findings.push(`${label}: the canary pose changed`);
      expected.set(canaryPose.model);
    }
  }
  if (numericSlot && nonFiniteInput(badValue) && !nanAllowed.has(label.split(' =')[0]))
    findings.push(`${label}: accepted without an error`);
  else if (!nonFiniteInput(badValue) && nonFiniteResult(result))
    findings.push(`${label}: non-finite result`);
}

// ---- every parameter and every options field, each boundary value ----
for (const [iface, { methods }] of Object.entries(api)) {
  if (!owners[iface]) continue;
  for (const m of methods) {
    const key = `${iface}.${m.name}`;
    if (!(key in baseline)) { findings.push(`${key}: no baseline (add it to generated_probes.mjs)`); continue; }
    if (!baseline[key]) continue;
    for (let i = 0; i < m.params.length; ++i) {
      const p = m.params[i];
      for (const [badLabel, bad] of BAD) {
        const args = baseline[key]();
        args[i] = bad;
        const owner = owners[iface]();
        probe(`${key}(${p.name} = ${badLabel})`, () => owner[m.name](...args), bad, numeric(p.type));
      }
      const fields = /\{|Options|ChainIK|Flags/.test(p.type) ? fieldsOf(p.type) : [];
      for (const f of fields) {
        if (f.name === 'flag') continue; // WalkerFlags' index signature
        for (const [badLabel, bad] of BAD) {
          const args = baseline[key]();
          args[i] = { ...(args[i] || {}), [f.name]: bad };
          const owner = owners[iface]();
          probe(`${key}(${p.name}.${f.name} = ${badLabel})`, () => owner[m.name](...args), bad, numeric(f.type));
        }
      }
    }
  }
}
// Settable properties (clip.loop).
for (const [iface, { props }] of Object.entries(api)) {
  if (!owners[iface]) continue;
  for (const p of props.filter((q) => !q.readonly)) {
    for (const [badLabel, bad] of BAD) {
      const owner = owners[iface]();
      probe(`${iface}.${p.name} = ${badLabel}`, () => { owner[p.name] = bad; }, bad, numeric(p.type));
    }
  }
}

// ---- after dispose(): every method and property of the disposed object throws ----
const fresh = {
  Skeleton: () => ak.loadBVH(bvh).skeleton,
  Clip: () => ak.loadBVH(bvh).clip,
  Pose: pose,
  Walker: walker,
  Retargeter: retargeter,
};
for (const [iface, make] of Object.entries(fresh)) {
  for (const m of api[iface].methods) {
    if (m.name === 'dispose') continue;
    const obj = make();
    obj.dispose();
    const args = (baseline[`${iface}.${m.name}`] || (() => []))();
    ++cases;
    try {
      obj[m.name](...args);
      findings.push(`${iface}.${m.name} after dispose(): answered`);
    } catch (e) {
      if (!(e instanceof AnimkitError && /disposed/.test(e.message)))
        findings.push(`${iface}.${m.name} after dispose(): ${e && e.message}`);
    }
  }
  for (const p of api[iface].props) {
    const obj = make();
    obj.dispose();
    // Plain numbers and names copied at creation (no library memory behind them).
    if (['jointCount', 'frameCount', 'frameTime', 'maxFrames', 'frame', 'names', 'skeleton', 'info'].includes(p.name)) continue;
    ++cases;
    try {
      void obj[p.name];
      findings.push(`${iface}.${p.name} after dispose(): answered`);
    } catch (e) {
      if (!(e instanceof AnimkitError && /disposed/.test(e.message)))
        findings.push(`${iface}.${p.name} after dispose(): ${e && e.message}`);
    }
  }
}

for (const o of live) try { o.dispose(); } catch { /* a case disposed it */ }
for (const f of findings.slice(0, 60)) console.log(`FINDING ${f}`);
console.log(`generated probes: ${cases} cases from web/animkit.d.ts, ${findings.length} findings`);
process.exit(findings.length ? 1 : 0);
