// Compares animkit's joints (gltf_joint_dump's CSV on stdin) with three.js: GLTFLoader +
// AnimationMixer at the same times, each node's matrixWorld after scene.updateMatrixWorld.
// Positions must agree within 1e-5 of the model's size, the joints' X and Y axes (the
// rotation part, orthonormalised by Gram-Schmidt as animkit does) within 1e-5.
// Skinned vertices (the dump's "v," lines, when the file has a skinned mesh): animkit's LBS
// against SkinnedMesh.applyBoneTransform of three.js's meshes for the same skin (nodes in
// file order, their primitives in order, as animkit's mesh reader concatenates them), within
// 1e-5 of the model's size.
// Usage: gltf_joint_dump MODEL | node three_joints.mjs MODEL
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as THREE from 'three';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';

const model = process.argv[2];
const ours = fs.readFileSync(0, 'utf8').trim().split('\n');
const size = parseFloat(ours.shift().split(' ')[1]);
const data = fs.readFileSync(model);
const buf = data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength);
const loader = new GLTFLoader();
const base = pathToFileURL(path.dirname(path.resolve(model)) + '/').href;
// three's FileLoader fetches external buffers; node's fetch reads no file: URLs, so serve them.
const realFetch = globalThis.fetch;
globalThis.fetch = async (url, opts) => {
  const u = typeof url === 'string' ? url : url.url;
  if (u.startsWith('file:')) return new Response(fs.readFileSync(new URL(u)));
  return realFetch(url, opts);
};
// three's FileLoader reports progress with the browser's ProgressEvent, which node lacks.
if (!globalThis.ProgressEvent) {
  globalThis.ProgressEvent = class extends Event {
    constructor(type, init = {}) { super(type); Object.assign(this, init); }
  };
}
const gltf = await new Promise((ok, bad) => loader.parse(buf, base, ok, bad));
// The glTF spec asks for unit rotation keys; three.js plays the numbers as they are (STEP and
// the ends of a CUBICSPLINE track unnormalised), animkit normalises them. Files that round
// their quaternions (simple_skin: |q| = 1.00023) or quantize them would differ by that
// rounding's shear, not by reading: normalise three's keys (the value of each cubic key).
for (const clip of gltf.animations)
  for (const track of clip.tracks) {
    if (!track.name.endsWith('.quaternion')) continue;
    const cubic = track.createInterpolant && track.createInterpolant.isInterpolantFactoryMethodGLTFCubicSpline;
    const v = track.values, step = cubic ? 12 : 4, at = cubic ? 4 : 0;
    for (let k = at; k + 4 <= v.length; k += step) {
      const n = Math.hypot(v[k], v[k + 1], v[k + 2], v[k + 3]);
      if (n > 0) for (let i = 0; i < 4; i++) v[k + i] /= n;
    }
  }
const byNode = new Map();
gltf.scene.traverse((o) => {
  const a = gltf.parser.associations.get(o);
  if (a && a.nodes !== undefined && !byNode.has(a.nodes)) byNode.set(a.nodes, o);
});
const mixer = new THREE.AnimationMixer(gltf.scene);
function axes(m) {
  const e = m.elements;
  const x = new THREE.Vector3(e[0], e[1], e[2]).normalize();
  const y = new THREE.Vector3(e[4], e[5], e[6]);
  y.addScaledVector(x, -x.dot(y)).normalize();
  return [x, y];
}
// three.js's skinned meshes of skin k in animkit's vertex order: [mesh, vertex] per vertex.
function skinVertices(k) {
  const json = gltf.parser.json, list = [];
  (json.nodes || []).forEach((def, i) => {
    if (def.mesh === undefined || def.skin !== k) return;
    const o = byNode.get(i);
    const prims = o.isSkinnedMesh ? [o] : o.children.filter(
      (c) => c.isSkinnedMesh && gltf.parser.associations.get(c)?.primitives !== undefined);
    prims.sort((a, b) => gltf.parser.associations.get(a).primitives - gltf.parser.associations.get(b).primitives);
    for (const m of prims) {
      // the spec asks weights to sum to 1; animkit scales them so, three uses them as stored
      m.normalizeSkinWeights();
      for (let v = 0; v < m.geometry.attributes.position.count; ++v) list.push([m, v]);
    }
  });
  return list;
}
let skinned = null, worstVertex = 0, vertexRows = 0, vertexWhere = '';
const sv = new THREE.Vector3();
function checkVertex(f) {
  const [, anim, sample, index] = f;
  const hit = skinned[index];
  if (!hit) { console.error(`vertex ${index}: three.js has only ${skinned.length}`); process.exit(1); }
  sv.fromBufferAttribute(hit[0].geometry.attributes.position, hit[1]);
  hit[0].applyBoneTransform(hit[1], sv);
  const d = Math.hypot(sv.x - f[4], sv.y - f[5], sv.z - f[6]) / size;
  if (d > worstVertex) { worstVertex = d; vertexWhere = `anim ${anim} sample ${sample} vertex ${index}`; }
  vertexRows++;
}
let worstPos = 0, worstAxis = 0, rows = 0, where = '';
let current = -1, action = null, posed = '';
for (const line of ours) {
  if (line.startsWith('skin ')) { skinned = skinVertices(Number(line.slice(5))); continue; }
  if (line.startsWith('v,')) { checkVertex(line.split(',').map(Number)); continue; }
  const f = line.split(',').map(Number);
  const [anim, sample, time, node] = f;
  if (anim !== current) {
    if (action) action.stop();
    current = anim;
    if (gltf.animations.length > 0) {
      action = mixer.clipAction(gltf.animations[anim]);
      action.setLoop(THREE.LoopOnce);
      action.clampWhenFinished = true;
      action.play();
    }
  }
  if (`${anim},${sample}` !== posed) { // once per time: a finished LoopOnce action pauses
    posed = `${anim},${sample}`;
    if (action) {
      action.paused = false;
      mixer.setTime(time);
    }
    gltf.scene.updateMatrixWorld(true);
  }
  const o = byNode.get(node);
  if (!o) { console.error(`node ${node}: three.js made no object for it`); process.exit(1); }
  const m = o.matrixWorld;
  const p = new THREE.Vector3().setFromMatrixPosition(m);
  const dp = Math.hypot(p.x - f[4], p.y - f[5], p.z - f[6]) / size;
  const [x, y] = axes(m);
  const da = Math.max(Math.hypot(x.x - f[7], x.y - f[8], x.z - f[9]),
                      Math.hypot(y.x - f[10], y.y - f[11], y.z - f[12]));
  if (dp > worstPos) { worstPos = dp; where = `anim ${anim} sample ${sample} node ${node}`; }
  worstAxis = Math.max(worstAxis, da);
  rows++;
}
const ok = worstPos <= 1e-5 && worstAxis <= 1e-5 && rows > 0 && worstVertex <= 1e-5;
const skin = vertexRows ? `; ${vertexRows} skinned vertices (LBS), worst ${worstVertex.toExponential(2)} of size (${vertexWhere})` : '';
console.log(`${path.basename(model)}: ${gltf.animations.length} animation(s), ${rows} joint samples; ` +
            `worst position ${worstPos.toExponential(2)} of size ${size.toPrecision(4)} (${where}), ` +
            `worst axis ${worstAxis.toExponential(2)}${skin} -> ${ok ? 'ok' : 'FAIL'}`);
process.exit(ok ? 0 : 1);
