// animkit for JavaScript: the C library compiled to WebAssembly (web/dist/animkit.wasm, the
// same build as the web page), wrapped in small classes. Works in browsers and in Node >= 18.
//
//   import { init } from 'animkit';
//   const ak = await init();
//   const { skeleton, clip } = ak.loadClip(bytes);         // BVH, glTF or GLB; throws AnimkitError on bad input
//   const pose = skeleton.createPose();
//   clip.sample(1.25, pose);  pose.fk();                   // pose.model: 7 floats per joint
//   ak.limbIK(pose, { upper: 'RightArm', middle: 'RightForeArm', end: 'RightHand', target: [x, y, z] });
//   pose.dispose(); clip.dispose(); skeleton.dispose();
//
// Objects own WebAssembly memory and must be freed with dispose(). After dispose() every
// property and method of the object (and of objects that depend on it: a pose of a disposed
// skeleton, a walker's skeleton) throws AnimkitError 'AK_ERR_INVALID_ARG' ('... was
// disposed'). Typed arrays you may write (clip.rotations/translations, pose.local/model) are
// views into that memory: read them again after any call that may allocate (memory growth
// replaces the buffer) and never keep one past dispose(). What you only read (skeleton.parents,
// restLocal, boneLengths, isEndSite, clip.trackJoints, walker.world) comes as a copy.
// Transforms are 7 floats (qx, qy, qz, qw, tx, ty, tz) like the C ak_xform; quaternions are
// x, y, z, w.
import createAnimkit from './dist/animkit.js';

const XF = 7; // floats per ak_xform
const INTERP = { step: 0, linear: 1, cubic: 2 };
const UNITS = ['m', 'cm', 'cmu', 'in', 'mm'];
const UP = { auto: 0, y: 1, z: 2 }; // ak_up_axis (clip.h)
const HUMANOID_SLOTS = [
  'hips', 'spine', 'chest', 'neck', 'head',
  'left_upper_leg', 'left_lower_leg', 'left_foot', 'left_toe',
  'right_upper_leg', 'right_lower_leg', 'right_foot', 'right_toe',
  'left_shoulder', 'left_upper_arm', 'left_lower_arm', 'left_hand',
  'right_shoulder', 'right_upper_arm', 'right_lower_arm', 'right_hand',
];
// Sizes this file assumes, checked against the .wasm at init (akw_abi).
const ABI = [[0, 268], [1, 12], [2, 28], [3, 16], [4, 64], [5, 21], [6, 168]];

// A string (UTF-8 text), Uint8Array or ArrayBuffer as bytes; anything else is refused.
function inputBytes(input, what) {
  const bytes = typeof input === 'string' ? new TextEncoder().encode(input)
    : input instanceof ArrayBuffer ? new Uint8Array(input) : input;
  if (!(bytes instanceof Uint8Array)) throw argError(`${what} wants a string, Uint8Array or ArrayBuffer`);
  return bytes;
}

/** An animkit call failed: `message` is the library's, `line`/`column` point into the input. */
export class AnimkitError extends Error {
  constructor(message, status, statusName, line, column) {
    super(line > 0 ? `${message} (line ${line})` : message);
    this.name = 'AnimkitError';
    this.status = status;
    this.statusName = statusName;
    this.line = line;
    this.column = column;
    this.reason = message;
  }
}

// The error every use of a disposed object throws (status AK_ERR_INVALID_ARG).
function disposedError(what) {
  return new AnimkitError(`${what} was disposed`, -1, 'AK_ERR_INVALID_ARG', 0, 0);
}
// A bad argument, found before any C call (status AK_ERR_INVALID_ARG).
function argError(message) {
  return new AnimkitError(message, -1, 'AK_ERR_INVALID_ARG', 0, 0);
}
// The ak_up_axis of a BVH read from loadBVH/loadClip's options ({ up: 'auto' | 'y' | 'z' },
// 'auto' when left out), else AnimkitError naming `what`.
function upAxis(options, what) {
  if (options == null) return UP.auto;
  if (typeof options !== 'object') throw argError(`${what}: options must be an object ({ up })`);
  const up = options.up ?? 'auto';
  if (typeof up !== 'string' || !Object.hasOwn(UP, up)) {
    throw argError(`${what}: up must be 'auto', 'y' or 'z', not ${typeof up === 'string' ? `'${up}'` : String(up)}`);
  }
  return UP[up];
}
// n finite numbers (an array or typed array of exactly n), else AnimkitError naming `what`.
function finiteList(value, n, what) {
  if (value == null || typeof value !== 'object' || typeof value.length !== 'number' || value.length !== n) {
    throw argError(`${what} must be ${n} numbers`);
  }
  for (let k = 0; k < n; ++k) {
    if (typeof value[k] !== 'number' || !Number.isFinite(value[k])) throw argError(`${what} must be ${n} finite numbers`);
  }
  return value;
}
// A finite number or undefined (then `fallback`).
function finiteOr(value, fallback, what) {
  if (value === undefined || value === null) return fallback;
  // Infinity too: -Infinity as a tolerance or fade time silently meant "the default".
  if (typeof value !== 'number' || !Number.isFinite(value)) throw argError(`${what} must be a finite number`);
  return value;
}

const isNode = typeof process === 'object' && process.versions && process.versions.node;

/** Loads the WebAssembly module; options.wasmBinary skips fetching/reading animkit.wasm. */
export async function init(options = {}) {
  const args = { print: () => {}, printErr: () => {} };
  if (options.wasmBinary) {
    args.wasmBinary = options.wasmBinary;
  } else if (isNode) {
    const { readFile } = await import('node:fs/promises');
    args.wasmBinary = await readFile(new URL('./dist/animkit.wasm', import.meta.url));
  }
  const m = await createAnimkit(args);
  for (const [what, size] of ABI) {
    if (m._akw_abi(what) !== size) throw new Error(`animkit.mjs does not match animkit.wasm (abi ${what})`);
  }
  return new Animkit(m);
}

class Animkit {
  constructor(m) {
    this.m = m;
    this.err = m._malloc(268);
    this.result = m._malloc(16);
    this.scratchSize = 1 << 16;
    this.scratch = m._malloc(this.scratchSize);
    this.scratchTop = 0;
    this.workspace = 0;
    this.workspaceSize = 0;
  }

  // ---- memory helpers ----
  get f32() { return this.m.HEAPF32; }
  get i32() { return this.m.HEAP32; }
  get u8() { return this.m.HEAPU8; }

  alloc(bytes) {
    const at = (this.scratchTop + 7) & ~7;
    if (at + bytes > this.scratchSize) throw new RangeError('animkit: arguments too large');
    this.scratchTop = at + bytes;
    return this.scratch + at;
  }
  floats(values) {
    if (values == null) return 0;
    const p = this.alloc(4 * values.length);
    this.f32.set(values, p >> 2);
    return p;
  }
  ints(values) {
    if (values == null) return 0;
    const p = this.alloc(4 * values.length);
    this.i32.set(values, p >> 2);
    return p;
  }
  cstring(text) {
    const n = this.m.lengthBytesUTF8(text) + 1;
    const p = this.alloc(n);
    this.m.stringToUTF8(text, p, n);
    return p;
  }
  // Runs fn with scratch allocations that are released afterwards (calls may nest).
  call(fn) {
    const top = this.scratchTop;
    try { return fn(); } finally { this.scratchTop = top; }
  }
  check(status) {
    if (status >= 0) return status;
    const i = this.err >> 2;
    const message = this.m.UTF8ToString(this.err + 12);
    const name = this.m.UTF8ToString(this.m._ak_status_name(status));
    throw new AnimkitError(message || name, status, name, this.i32[i + 1], this.i32[i + 2]);
  }
  readResult() {
    const i = this.result >> 2;
    return {
      reached: this.i32[i] !== 0, unreachable: this.i32[i + 1] !== 0,
      iterations: this.i32[i + 2], error: this.f32[i + 3],
    };
  }

  // ---- clip files: BVH, glTF 2.0, GLB ----
  /** Reads BVH text (string, Uint8Array or ArrayBuffer): { skeleton, clip, warning }.
   * `options.up` ('auto' by default, 'y' or 'z'; the CLI's --up, Python's up=): 'auto' measures
   * the axis the rig stands along and turns a rig standing along +Z to Y-up, which `warning`
   * then says; 'y' keeps the file's axes; 'z' turns them. `warning` is the reader's warning
   * about a file other tools read (more frame lines than Frames: says, the up axis), '' none. */
  loadBVH(input, options = {}) {
    const bytes = inputBytes(input, 'loadBVH');
    const up = upAxis(options, 'loadBVH');
    return this.readClip(bytes, null, (text, out) => this.m._akw_bvh_read_memory(text, bytes.length, up, out, out + 4, this.err));
  }

  /** Reads any clip file the library reads, told apart by its first bytes: BVH text, glTF
   * JSON (buffers as data: URIs) or GLB. `animation` picks a glTF animation by name or index
   * (the first by default); `options.up` is loadBVH's, for BVH (glTF is Y-up by its
   * specification). { skeleton, clip, warning }, as loadBVH. */
  loadClip(input, animation = null, options = {}) {
    const bytes = inputBytes(input, 'loadClip');
    if (animation != null && typeof animation !== 'string' && !Number.isInteger(animation)) {
      throw argError('animation must be a name or an index');
    }
    const up = upAxis(options, 'loadClip');
    return this.readClip(bytes, animation, (text, out, name) => this.m._ak_clip_read_memory_up(text, bytes.length, name, up, out, out + 4, this.err));
  }

  /** Reads a glTF 2.0 (.gltf JSON) or GLB file's animation (see loadClip); other formats are
   * refused with AK_ERR_INVALID_ARG. */
  loadGLTF(input, animation = null) {
    const bytes = inputBytes(input, 'loadGLTF');
    const format = this.clipFormat(bytes);
    if (format !== 'glTF' && format !== 'GLB') throw argError(`loadGLTF: the data is ${format}, not glTF or GLB`);
    return this.loadClip(bytes, animation);
  }

  /** 'BVH', 'glTF', 'GLB', 'FBX' or 'unknown', from the first bytes (string, Uint8Array or ArrayBuffer). */
  clipFormat(input) {
    const bytes = inputBytes(input, 'clipFormat').subarray(0, 64);
    return this.call(() => {
      const p = this.alloc(Math.max(1, bytes.length));
      this.u8.set(bytes, p);
      return this.m.UTF8ToString(this.m._ak_clip_format_name(this.m._ak_clip_format_detect(0, p, bytes.length)));
    });
  }

  readClip(bytes, animation, read) {
    const m = this.m;
    const text = m._malloc(Math.max(1, bytes.length));
    const out = m._malloc(8);
    let name = 0;
    try {
      this.u8.set(bytes, text);
      if (animation != null) {
        const s = String(animation), n = m.lengthBytesUTF8(s) + 1;
        name = m._malloc(n);
        m.stringToUTF8(s, name, n);
      }
      this.u8[this.err + 12] = 0;
      this.check(read(text, out, name));
      const warning = m.UTF8ToString(this.err + 12);
      return { skeleton: new Skeleton(this, this.i32[out >> 2], true), clip: new Clip(this, this.i32[(out >> 2) + 1]), warning };
    } finally {
      if (name) m._free(name);
      m._free(out);
      m._free(text);
    }
  }

  /** BVH text of a skeleton + clip with every joint's rotation channels in `order` ('XYZ' ... 'ZYX'). */
  writeBVH(skeleton, clip, order = 'ZYX') {
    const orders = ['XYZ', 'XZY', 'YXZ', 'YZX', 'ZXY', 'ZYX'];
    const m = this.m;
    const out = m._malloc(8);
    try {
      this.check(m._ak_bvh_write_memory(skeleton.live(), clip.live(), orders.indexOf(String(order).toUpperCase()), out, out + 4, this.err));
      const p = this.i32[out >> 2];
      const text = m.UTF8ToString(p, this.i32[(out >> 2) + 1]);
      m._ak_free(p);
      return text;
    } finally {
      m._free(out);
    }
  }

  /** Units of a character from its standing height in file units: { units, metresPerUnit }. */
  detectUnits(standingHeight) {
    if (typeof standingHeight !== 'number' || !(standingHeight > 0) || !Number.isFinite(standingHeight)) {
      throw argError('standingHeight must be a finite number > 0 (file units)');
    }
    return this.call(() => {
      const p = this.alloc(4);
      const units = this.m._ak_units_detect(standingHeight, p);
      return { units: UNITS[units], metresPerUnit: this.f32[p >> 2] };
    });
  }

  // ---- IK: every solver of ik.h. Joints are indices or names; vectors are [x, y, z] in the
  // pose's model space (the space of pose.model). pose.local and pose.model are updated. ----

  /** Joints from `root` down to `tip` (root first); zero-length links left out by default. */
  chain(skeleton, root, tip, { skipZeroBones = true } = {}) {
    return this.call(() => {
      const p = this.alloc(4 * 64);
      let n = this.check(this.m._ak_ik_chain_from_joints(skeleton.live(), skeleton.index(root), skeleton.index(tip), p, 64));
      if (skipZeroBones) n = this.m._ak_ik_chain_skip_zero_bones(skeleton.live(), p, n);
      return Int32Array.from(this.i32.subarray(p >> 2, (p >> 2) + n));
    });
  }

  limbIK(pose, o) {
    const sk = livePose(pose).skeleton;
    o = options(o);
    const target = finiteList(o.target, 3, 'target'), pole = o.pole == null ? null : finiteList(o.pole, 3, 'pole');
    return this.solve(() => this.m._akw_limb_ik(sk.live(), pose.localPtr, pose.modelPtr, sk.index(o.upper), sk.index(o.middle),
      sk.index(o.end), this.floats(target), this.floats(pole), finiteOr(o.softLimit, 0, 'softLimit'),
      finiteOr(o.tolerance, -1, 'tolerance'), finiteOr(o.weight, 1, 'weight'), this.result, this.err));
  }
  ccdIK(pose, o) { return this.chainIK(0, pose, o); }
  fabrikIK(pose, o) { return this.chainIK(1, pose, o); }
  chainIK(kind, pose, o) {
    const sk = livePose(pose).skeleton;
    o = options(o);
    const chain = sk.indices(listOf(o.chain, 'chain'));
    const target = finiteList(o.target, 3, 'target');
    const weights = o.jointWeights == null ? null : finiteList(o.jointWeights, chain.length, 'jointWeights');
    return this.solve(() => this.m._akw_chain_ik(kind, sk.live(), pose.localPtr, pose.modelPtr, this.ints(chain), chain.length,
      this.floats(target), this.floats(weights), count(o.maxIterations, 'maxIterations'),
      finiteOr(o.tolerance, -1, 'tolerance'), finiteOr(o.weight, 1, 'weight'), this.result, this.err));
  }
  /** method 'dls' (default) or 'pseudo-inverse'; either { chain, target } or several effectors:
   * { joints, effectors, targets: [[x,y,z], ...], effectorWeights }. */
  jacobianIK(pose, o) {
    const sk = livePose(pose).skeleton;
    o = options(o);
    const multi = o.effectors != null;
    const chain = multi ? [] : sk.indices(listOf(o.chain, 'chain'));
    const joints = multi ? sk.indices(listOf(o.joints, 'joints')) : [];
    const effectors = multi ? sk.indices(listOf(o.effectors, 'effectors')) : [];
    if (multi) {
      // one [x, y, z] per effector: fewer targets than effectors read garbage before
      if (!Array.isArray(o.targets) || o.targets.length !== effectors.length) {
        throw argError(`targets must hold one [x, y, z] per effector (${effectors.length})`);
      }
      o.targets.forEach((t, k) => finiteList(t, 3, `targets[${k}]`));
      if (o.effectorWeights != null) finiteList(o.effectorWeights, effectors.length, 'effectorWeights');
    } else {
      finiteList(o.target, 3, 'target');
    }
    const method = o.method ?? 'dls';
    if (method !== 'dls' && method !== 'pseudo-inverse') throw argError(`method must be 'dls' or 'pseudo-inverse'`);
    const need = this.m._ak_jacobian_ik_workspace_size(multi ? joints.length : chain.length - 1, multi ? effectors.length : 1);
    if (need > this.workspaceSize) {
      if (this.workspace) this.m._free(this.workspace);
      this.workspace = this.m._malloc(need);
      this.workspaceSize = need;
    }
    return this.solve(() => this.m._akw_jacobian_ik(sk.live(), pose.localPtr, pose.modelPtr, method === 'dls' ? 1 : 0,
      multi ? 0 : this.ints(chain), chain.length, multi ? 0 : this.floats(o.target),
      multi ? this.ints(joints) : 0, joints.length, multi ? this.ints(effectors) : 0,
      multi ? this.floats(o.targets.flat()) : 0, this.floats(o.effectorWeights), effectors.length,
      finiteOr(o.damping, -1, 'damping'), count(o.maxIterations, 'maxIterations'), finiteOr(o.tolerance, -1, 'tolerance'),
      finiteOr(o.weight, 1, 'weight'), this.workspace, this.workspaceSize,
      this.result, this.err));
  }
  aimIK(pose, o) {
    const sk = livePose(pose).skeleton;
    o = options(o);
    const v = (name, need) => (o[name] == null && !need ? null : finiteList(o[name], 3, name));
    const [target, forward, up, upModel] = [v('target', true), v('forward'), v('up'), v('upModel')];
    return this.solve(() => this.m._akw_aim_ik(sk.live(), pose.localPtr, pose.modelPtr, sk.index(o.joint),
      this.floats(target), this.floats(forward), this.floats(up), this.floats(upModel),
      finiteOr(o.clampWeight, 0, 'clampWeight'), finiteOr(o.weight, 1, 'weight'), this.result, this.err));
  }
  lookAt(pose, o) {
    const sk = livePose(pose).skeleton;
    o = options(o);
    const chain = sk.indices(listOf(o.chain, 'chain'));
    const v = (name, need) => (o[name] == null && !need ? null : finiteList(o[name], 3, name));
    const [target, forward, up, upModel] = [v('target', true), v('forward'), v('up'), v('upModel')];
    const weights = o.jointWeights == null ? null : finiteList(o.jointWeights, chain.length, 'jointWeights');
    return this.solve(() => this.m._akw_look_at(sk.live(), pose.localPtr, pose.modelPtr, this.ints(chain), chain.length,
      this.floats(weights), this.floats(target), this.floats(forward), this.floats(up),
      this.floats(upModel), finiteOr(o.clampWeight, 0, 'clampWeight'), finiteOr(o.weight, 1, 'weight'),
      this.result, this.err));
  }
  solve(fn) {
    return this.call(() => {
      this.check(fn());
      return this.readResult();
    });
  }

  // ---- retargeting ----
  /** Plays a humanoid capture on another humanoid rig (animkit/retarget.h): a new Clip on
   * `target` (its units), with stance feet pinned by limb IK unless contacts is false.
   * Returns { clip, info }. */
  retarget(source, target, o = {}) {
    const m = this.m;
    return this.call(() => {
      const out = this.alloc(4), info = this.alloc(4 * RETARGET_INFO);
      const reference = o.referenceFrame == null || o.referenceFrame === -1 ? -1 : count(o.referenceFrame, 'referenceFrame');
      this.check(m._akw_retarget_run(source.skeleton.live(), source.clip.live(), target.live(),
        o.sourceOverrides ? this.cstring(o.sourceOverrides) : 0, o.targetOverrides ? this.cstring(o.targetOverrides) : 0,
        finiteOr(o.scale, 1, 'scale'), finiteOr(o.floor, NaN, 'floor'), o.contacts === false ? 0 : 1, o.pinHands ? 1 : 0,
        finiteOr(o.fadeTime, -1, 'fadeTime'), reference,
        out, info, this.err));
      return { clip: new Clip(this, this.i32[out >> 2]), info: retargetInfo(this.f32, info >> 2) };
    });
  }
  /** The per-frame form (no contacts): retargeter.pose(sourcePose, targetPose) each frame. */
  createRetargeter(sourceSkeleton, targetSkeleton, o = {}) {
    let info;
    const ptr = this.call(() => {
      const p = this.alloc(4 * RETARGET_INFO);
      finiteOr(o.fadeTime, -1, 'fadeTime'); // retarget() only, but never a NaN taken in silence
      // A frame of a clip: the live retargeter has none, so a reference frame is not taken in silence.
      if (o.referenceFrame != null) throw argError('referenceFrame is a frame of the source clip: retarget() only');
      const r = this.m._akw_retargeter_create(sourceSkeleton.live(), targetSkeleton.live(),
        o.sourceOverrides ? this.cstring(o.sourceOverrides) : 0, o.targetOverrides ? this.cstring(o.targetOverrides) : 0,
        finiteOr(o.scale, 1, 'scale'), finiteOr(o.floor, NaN, 'floor'), p, this.err);
      info = retargetInfo(this.f32, p >> 2);
      return r;
    });
    if (!ptr) this.check(this.i32[this.err >> 2] || -1);
    return new Retargeter(this, ptr, sourceSkeleton, targetSkeleton, info);
  }

  // ---- the walker ----
  /** The guide-joint walker on terrain, set up from `animkit walk` flags: an array
   * (['--terrain', 'stairs']) or an object ({ terrain: 'stairs', seed: 3, start: [-6, -4],
   * target: [6, 4], noFootIk: true }). A walk clip comes as { clip: BVH, glTF or GLB bytes, or BVH text }. */
  createWalker(flags = {}) {
    let clipPath = null;
    try {
      const ptr = this.call(() => {
        if (Array.isArray(flags)) {
          const list = flags.map((a) => this.cstring(String(a)));
          return this.m._akw_walker_create(list.length, this.ints(list), this.err);
        }
        // An object becomes the scenario's URL query (its own parser: switches, ranges).
        const query = [];
        for (const [key, value] of Object.entries(flags)) {
          if (value == null) continue;
          const name = key.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase());
          let text = Array.isArray(value) ? value.join(',') : String(value);
          if (key === 'clip' && !(typeof value === 'string' || value instanceof Uint8Array || value instanceof ArrayBuffer)) {
            throw argError('clip must be BVH text, or BVH, glTF or GLB bytes (Uint8Array or ArrayBuffer)');
          }
          if (key === 'clip' && typeof value !== 'string' || value instanceof Uint8Array || value instanceof ArrayBuffer) {
            clipPath = `/walker-clip-${Date.now()}-${Math.random().toString(36).slice(2)}`;
            this.m.FS.writeFile(clipPath, value instanceof ArrayBuffer ? new Uint8Array(value) : value);
            text = clipPath;
          }
          query.push(`${encodeURIComponent(name)}=${encodeURIComponent(text)}`);
        }
        return this.m._akw_walker_create_query(this.cstring(query.join('&')), this.err);
      });
      if (!ptr) this.check(this.i32[this.err >> 2] || -1);
      return new Walker(this, ptr);
    } finally {
      if (clipPath) this.m.FS.unlink(clipPath);
    }
  }
}

// The options object of a solver (an object, else AnimkitError).
function options(o) {
  if (o == null || typeof o !== 'object') throw argError('options must be an object');
  return o;
}
// A list of joints (array or typed array), else AnimkitError.
function listOf(value, what) {
  if (value == null || typeof value !== 'object' || typeof value.length !== 'number') throw argError(`${what} must be a list of joints`);
  return value;
}
// A whole number >= 0 or undefined (0: the solver's default).
function count(value, what) {
  if (value == null) return 0;
  if (!Number.isInteger(value) || value < 0 || value > 0x7fffffff) throw argError(`${what} must be a whole number >= 0`);
  return value;
}
// The pose (a live Pose of a live skeleton), else AnimkitError.
function livePose(pose) {
  if (!(pose instanceof Pose)) throw argError('pose must be a Pose (skeleton.createPose())');
  pose.live();
  return pose;
}

// Floats of api.c's info_floats (ak_retarget_info).
const RETARGET_INFO = 21;
// A stance height, or null where the foot has no stance (the library's -INFINITY).
const heightOrNull = (v) => (Number.isFinite(v) ? v : null);
function retargetInfo(f, k) {
  return {
    scale: f[k], legRatio: f[k + 1], headingOffset: f[k + 2], sourceSole: f[k + 3], targetSole: f[k + 4],
    sourceFloor: f[k + 5], targetFloor: f[k + 6], mappedJoints: f[k + 7], chainJoints: f[k + 8],
    restJoints: f[k + 9], stanceFrames: [f[k + 10], f[k + 11], f[k + 12], f[k + 13]],
    pinnedRuns: f[k + 14], maxPinError: f[k + 15],
    stanceFootHeight: [heightOrNull(f[k + 16]), heightOrNull(f[k + 17])],
    sourceStanceFootHeight: [heightOrNull(f[k + 18]), heightOrNull(f[k + 19])],
    referenceFrame: f[k + 20],
  };
}

/** Live retargeting: the source's local pose in, the target's local pose out. */
class Retargeter {
  constructor(ak, ptr, source, target, info) {
    Object.assign(this, { ak, ptr, source, target, info });
  }
  /** Writes targetPose.local from sourcePose.local (run targetPose.fk() for model). */
  live() {
    if (!this.ptr) throw disposedError('retargeter');
    return this.ptr;
  }
  pose(sourcePose, targetPose) {
    const ptr = this.live();
    livePose(sourcePose);
    livePose(targetPose);
    if (sourcePose.skeleton !== this.source || targetPose.skeleton !== this.target) {
      throw argError("retargeter.pose wants a pose of the retargeter's source and one of its target");
    }
    this.ak.m._ak_retargeter_pose(ptr, sourcePose.localPtr, targetPose.localPtr);
    return targetPose;
  }
  /** Where a source world point lands in the target's world. */
  mapPoint(p) {
    const ptr = this.live();
    finiteList(p, 3, 'point');
    return this.ak.call(() => {
      const q = this.ak.floats(p);
      this.ak.m._akw_retargeter_map_point(ptr, q);
      return Array.from(this.ak.f32.subarray(q >> 2, (q >> 2) + 3));
    });
  }
  /** The source joint driving target joint j, or -1. */
  sourceJoint(j) { return this.ak.m._ak_retargeter_source_joint(this.live(), this.target.index(j)); }
  dispose() {
    if (this.ptr) this.ak.m._ak_retargeter_destroy(this.ptr);
    this.ptr = 0;
  }
}

/** A joint hierarchy (parents before children). */
class Skeleton {
  constructor(ak, ptr, owned) {
    this.ak = ak;
    this.ptr = ptr;
    this.owned = owned;
    const f = ak.call(() => {
      const p = ak.alloc(24);
      ak.m._akw_skeleton_fields(ptr, p);
      return Array.from(ak.i32.subarray(p >> 2, (p >> 2) + 6));
    });
    [this.jointCount, this.namesPtr, this.parentsPtr, this.restPtr, this.lengthsPtr, this.endPtr] = f;
    this.names = [];
    for (let j = 0; j < this.jointCount; ++j) this.names.push(ak.m.UTF8ToString(this.namesPtr + 64 * j));
    this.byName = new Map(this.names.map((n, j) => [n, j]));
  }
  live() {
    if (!this.ptr) throw disposedError('skeleton');
    return this.ptr;
  }
  // Copies: writing a parent index into library memory could send FK out of its arrays.
  get parents() { this.live(); return new Int32Array(this.ak.i32.buffer, this.parentsPtr, this.jointCount).slice(); }
  get restLocal() { this.live(); return new Float32Array(this.ak.f32.buffer, this.restPtr, this.jointCount * XF).slice(); }
  get boneLengths() { this.live(); return new Float32Array(this.ak.f32.buffer, this.lengthsPtr, this.jointCount).slice(); }
  get isEndSite() { this.live(); return new Uint8Array(this.ak.u8.buffer, this.endPtr, this.jointCount).slice(); }
  /** Index of the joint called `name`, or -1. */
  find(name) { this.live(); return this.byName.get(name) ?? -1; }
  index(joint) {
    this.live();
    if (typeof joint === 'number' && joint >= 0 && joint < this.jointCount) return joint;
    const j = typeof joint === 'string' ? this.find(joint) : -1;
    if (j < 0) throw new AnimkitError(`no joint '${joint}'`, -6, 'AK_ERR_NOT_FOUND', 0, 0);
    return j;
  }
  indices(joints) { return Array.from(joints, (j) => this.index(j)); }
  /** Height of the rest pose along Y, file units. */
  restHeight() { return this.ak.m._ak_skeleton_rest_height(this.live()); }
  /** The humanoid joints found by name ({ hips: 0, left_foot: 5, ... }, -1 where missing). */
  humanoid(overrides = null) {
    const ak = this.ak, ptr = this.live();
    if (overrides != null && typeof overrides !== 'string') throw argError('overrides must be a string slot=Joint,...');
    return ak.call(() => {
      const p = ak.alloc(4 * HUMANOID_SLOTS.length);
      const st = ak.m._ak_humanoid_find(ptr, overrides ? ak.cstring(overrides) : 0, p, ak.err);
      // Missing slots are -1 in the answer; a bad override (unknown slot or joint) throws.
      if (st < 0 && !ak.m.UTF8ToString(ak.err + 12).startsWith('humanoid joints not found')) ak.check(st);
      const out = {};
      HUMANOID_SLOTS.forEach((slot, k) => { out[slot] = ak.i32[(p >> 2) + k]; });
      return out;
    });
  }
  createPose() { this.live(); return new Pose(this.ak, this); }
  dispose() {
    if (this.ptr && this.owned) this.ak.m._ak_skeleton_destroy(this.ptr);
    this.ptr = 0;
  }
}

/** Sampled keys per joint: rotations for every joint, translations for the tracked ones. */
class Clip {
  constructor(ak, ptr) {
    this.ak = ak;
    this.ptr = ptr;
    this.refresh();
  }
  refresh() {
    const ak = this.ak;
    [this.jointCount, this.frameCount, this.loopFlag, this.rotationsPtr, this.trackCount, this.trackJointPtr,
      this.translationsPtr, this.frameTime] = ak.call(() => {
      const p = ak.alloc(32);
      ak.m._akw_clip_fields(this.ptr, p, p + 28);
      return [...ak.i32.subarray(p >> 2, (p >> 2) + 7), ak.f32[(p >> 2) + 7]];
    });
  }
  live() {
    if (!this.ptr) throw disposedError('clip');
    return this.ptr;
  }
  // The pose must be live and of a skeleton with this clip's joint count.
  posed(pose) {
    livePose(pose);
    if (pose.skeleton.jointCount !== this.jointCount) {
      throw argError(`the pose has ${pose.skeleton.jointCount} joints, the clip ${this.jointCount}`);
    }
    return pose;
  }
  get loop() { this.live(); return this.loopFlag !== 0; }
  set loop(on) { this.ak.m._akw_clip_set_loop(this.live(), on ? 1 : 0); this.loopFlag = on ? 1 : 0; }
  /** Seconds: (frames - 1) * frameTime clamped, frames * frameTime looping. */
  get duration() { return this.ak.m._ak_clip_duration(this.live()); }
  /** Rotation keys, frame-major: 4 floats (x, y, z, w) per joint per frame (a view: writable). */
  get rotations() { this.live(); return new Float32Array(this.ak.f32.buffer, this.rotationsPtr, this.frameCount * this.jointCount * 4); }
  /** Translation keys, frame-major: 3 floats per track per frame; trackJoints says whose. */
  get translations() { this.live(); return new Float32Array(this.ak.f32.buffer, this.translationsPtr, this.frameCount * this.trackCount * 3); }
  get trackJoints() { this.live(); return new Int32Array(this.ak.i32.buffer, this.trackJointPtr, this.trackCount).slice(); }
  /** Local pose at time t (seconds) into pose.local; interp 'step' | 'linear' | 'cubic'. */
  sample(t, pose, interp = 'linear') {
    const ptr = this.live();
    this.posed(pose);
    if (typeof t !== 'number' || !Number.isFinite(t)) throw argError('t must be a finite number of seconds');
    if (!(interp in INTERP)) throw argError(`interp must be 'step', 'linear' or 'cubic'`);
    this.ak.m._ak_clip_sample(ptr, pose.skeleton.ptr, t, INTERP[interp], pose.localPtr);
    return pose;
  }
  /** Exactly frame f (clamped) into pose.local. */
  frame(f, pose) {
    const ptr = this.live();
    this.posed(pose);
    if (!Number.isInteger(f)) throw argError('f must be a whole frame number');
    this.ak.m._ak_clip_frame(ptr, pose.skeleton.ptr, Math.max(0, Math.min(f, this.frameCount - 1)), pose.localPtr);
    return pose;
  }
  /** Median standing height over the clip, file units (feed it to ak.detectUnits). */
  standingHeight(skeleton) {
    const ptr = this.live();
    if (!(skeleton instanceof Skeleton) || skeleton.live() && skeleton.jointCount !== this.jointCount) {
      throw argError("standingHeight wants the clip's skeleton");
    }
    return this.ak.m._ak_clip_standing_height(ptr, skeleton.ptr);
  }
  /** Precomputes the cubic spline points (cubic sampling about 3x faster). */
  prepareCubic() { this.ak.check(this.ak.m._ak_clip_prepare_cubic(this.live())); }
  dispose() {
    if (this.ptr) this.ak.m._ak_clip_destroy(this.ptr);
    this.ptr = 0;
  }
}

/** Local (parent-space) and model-space transforms of one skeleton's joints. */
class Pose {
  constructor(ak, skeleton) {
    this.ak = ak;
    this.skeleton = skeleton;
    this.localPtr = ak.m._malloc(skeleton.jointCount * XF * 4 * 2);
    this.modelPtr = this.localPtr + skeleton.jointCount * XF * 4;
    ak.m._ak_pose_rest(skeleton.ptr, this.localPtr);
    this.fk();
  }
  // The pose's own memory and its skeleton must both be alive.
  live() {
    if (!this.localPtr) throw disposedError('pose');
    this.skeleton.live();
    return this.localPtr;
  }
  get local() { this.live(); return new Float32Array(this.ak.f32.buffer, this.localPtr, this.skeleton.jointCount * XF); }
  get model() { this.live(); return new Float32Array(this.ak.f32.buffer, this.modelPtr, this.skeleton.jointCount * XF); }
  /** model[j] = model[parent[j]] * local[j]. */
  fk() { this.ak.m._ak_fk(this.skeleton.live(), this.live(), this.modelPtr); return this; }
  rest() { this.ak.m._ak_pose_rest(this.skeleton.live(), this.live()); return this; }
  /** Model-space positions, a new Float32Array of 3 floats per joint. */
  positions(out = new Float32Array(this.skeleton.jointCount * 3)) {
    const w = this.model;
    if (!(out instanceof Float32Array) || out.length < this.skeleton.jointCount * 3) {
      throw argError(`out must be a Float32Array of at least ${this.skeleton.jointCount * 3} floats`);
    }
    for (let j = 0; j < this.skeleton.jointCount; ++j) {
      out[3 * j] = w[XF * j + 4]; out[3 * j + 1] = w[XF * j + 5]; out[3 * j + 2] = w[XF * j + 6];
    }
    return out;
  }
  dispose() {
    if (this.localPtr) this.ak.m._free(this.localPtr);
    this.localPtr = this.modelPtr = 0;
  }
}

/** The walker of the walk scenario (the CLI's `animkit walk`): steps at the walk clip's frame
 * time; its pose is in the world, metres. Frame 0 (placing the character) is stepped at creation. */
class Walker {
  constructor(ak, ptr) {
    this.ak = ak;
    this.ptr = ptr;
    const [maxFrames, jointCount, skeletonPtr, frame, frameTime] = ak.call(() => {
      const p = ak.alloc(20);
      ak.m._akw_walker_fields(ptr, p, p + 16);
      return [...ak.i32.subarray(p >> 2, (p >> 2) + 4), ak.f32[(p >> 2) + 4]];
    });
    this.maxFrames = maxFrames; // frames in --max-time, counting frame 0
    this.jointCount = jointCount;
    this.frameTime = frameTime;
    this.skeleton = new Skeleton(ak, skeletonPtr, false); // the walk motion's, in metres
    this.frame = frame - 1;
    // The walk summary (summary()), fed every frame stepTo steps; freed by dispose.
    this.summaryPtr = ak.m._malloc(ak.m._akw_summary_size());
    if (!this.summaryPtr) throw new AnimkitError('out of memory for the walk summary', -5, 'AK_ERR_NOMEM', 0, 0);
    ak.check(ak.m._akw_summary_begin(this.summaryPtr, ptr, ak.err));
  }
  live() {
    if (!this.ptr) throw disposedError('walker');
    return this.ptr;
  }
  /** Simulates up to frame f (0 is the start pose, maxFrames - 1 the last); going back
   * restarts. A frame outside that range throws. */
  stepTo(f) {
    const ptr = this.live();
    if (!Number.isInteger(f) || f < 0 || f >= this.maxFrames) {
      throw argError(`frame ${f} is outside 0..${this.maxFrames - 1} (the walk's max-time in frames)`);
    }
    this.ak.check(this.ak.m._akw_walker_step_to(ptr, f, this.summaryPtr, this.ak.err));
    this.frame = f;
    return this;
  }
  step() { return this.stepTo(this.frame + 1); }
  setTarget(x, z) {
    const ptr = this.live();
    finiteList([x, z], 2, 'target x, z');
    this.ak.m._akw_walker_set_target(ptr, x, z);
  }
  /** World transforms of every joint after the last step (7 floats per joint; a copy). */
  get world() { return new Float32Array(this.ak.f32.buffer, this.ak.m._akw_walker_world(this.live()), this.jointCount * XF).slice(); }
  positions() {
    const w = this.world, out = new Float32Array(this.jointCount * 3);
    for (let j = 0; j < this.jointCount; ++j) out.set(w.subarray(XF * j + 4, XF * j + 7), 3 * j);
    return out;
  }
  /** What the walker is doing: position, heading (radians), stance, soles, hip drop ... */
  state() {
    const ak = this.ak;
    return ak.call(() => {
      const p = ak.alloc(ABI[6][1]);
      ak.m._akw_walker_state(this.live(), p);
      const f = ak.f32, i = ak.i32, k = p >> 2;
      const v = (o) => [f[k + o], f[k + o + 1], f[k + o + 2]];
      return {
        time: f[k], clipTime: f[k + 1], cycle: i[k + 2], position: v(3), heading: f[k + 6],
        guideHeading: f[k + 7], distance: f[k + 8], pathLength: f[k + 9], arrived: i[k + 10] !== 0,
        stopped: i[k + 11] !== 0, idleWeight: f[k + 12], stance: [i[k + 13] !== 0, i[k + 14] !== 0],
        sole: [v(15), v(18)], soleGround: [f[k + 21], f[k + 22]], tilt: [f[k + 23], f[k + 24]],
        hipDrop: f[k + 25], contact: [i[k + 26], i[k + 27]], toe: [v(28), v(31)],
        toeGround: [f[k + 34], f[k + 35]], rate: f[k + 36],
        elapsed: new Float64Array(f.buffer, p + 152, 1)[0],
      };
    });
  }
  /** The walk's measures over every frame stepped since frame 0, as `animkit walk` prints them
   * (one C function): arrival, foot-ground figures in every phase (deepest_any_phase) and while
   * planted (deepest_planted), skate, the hips' acceleration in g, the peak knee and the drag
   * (drag_m_s: a heel or toe within 5 mm of the ground dragged along it) beside the source
   * clip's; what the walker starts and stops with (start, stop: "captured" or "procedural")
   * and why (start_why, stop_why: a captured one left out names the bound it breaks, with the
   * figure). Going back (stepTo a smaller frame) starts it again. */
  summary() {
    const ak = this.ak, ptr = this.live();
    return ak.call(() => {
      const cap = 4096, buf = ak.alloc(cap);
      ak.check(ak.m._akw_summary_json(this.summaryPtr, ptr, buf, cap, ak.err));
      return JSON.parse(ak.m.UTF8ToString(buf));
    });
  }
  dispose() {
    if (this.ptr) this.ak.m._akw_walker_destroy(this.ptr);
    if (this.summaryPtr) this.ak.m._free(this.summaryPtr);
    this.ptr = this.summaryPtr = 0;
    this.skeleton.ptr = 0; // the walker owned it
  }
}
