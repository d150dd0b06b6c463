// Types of web/animkit.mjs: animkit (C) in WebAssembly. Transforms are 7 floats
// (qx, qy, qz, qw, tx, ty, tz); vectors are [x, y, z]; joints are indices or names.
// Typed-array properties are views into WebAssembly memory: read them again after any call
// that may allocate. Every object that owns memory has dispose().

export type Vec3 = [number, number, number] | Float32Array | number[];
export type Joint = number | string;
export type Interp = 'step' | 'linear' | 'cubic';

/** A failed animkit call: the library's message, status and (for parsers) line/column. */
export class AnimkitError extends Error {
  readonly status: number;
  readonly statusName: string;
  readonly line: number;
  readonly column: number;
  /** The C message without the line suffix. */
  readonly reason: string;
}

export interface InitOptions {
  /** The bytes of animkit.wasm (otherwise fetched beside animkit.js, or read from disk in Node). */
  wasmBinary?: ArrayBuffer | Uint8Array;
}
export function init(options?: InitOptions): Promise<Animkit>;

export interface IKResult {
  reached: boolean;
  unreachable: boolean;
  iterations: number;
  /** Final end-effector distance (model-space units); aim solvers: remaining angle, radians. */
  error: number;
}

export interface Animkit {
  /** Reads BVH text; throws AnimkitError (with .line) on malformed input. `up` (default 'auto',
   * as the CLI's --up and Python's up=): 'auto' measures the axis the rig stands along and turns
   * a rig standing along +Z to Y-up, with a warning; 'y' keeps the file's axes; 'z' turns them.
   * `warning`: what the reader read that other tools accept (the up axis, more or fewer frame
   * lines than Frames: says), '' when nothing. */
  loadBVH(input: string | Uint8Array | ArrayBuffer, options?: { up?: 'auto' | 'y' | 'z' }): { skeleton: Skeleton; clip: Clip; warning: string };
  /** Reads BVH text, glTF JSON (buffers as data: URIs) or GLB, told apart by the first bytes;
   * `animation` picks a glTF animation by name or index (default: the first); `up` is
   * loadBVH's, for BVH (glTF is Y-up by its specification). */
  loadClip(input: string | Uint8Array | ArrayBuffer, animation?: string | number | null, options?: { up?: 'auto' | 'y' | 'z' }): { skeleton: Skeleton; clip: Clip; warning: string };
  /** loadClip for glTF/GLB only: other formats throw AnimkitError 'AK_ERR_INVALID_ARG'. */
  loadGLTF(input: string | Uint8Array | ArrayBuffer, animation?: string | number | null): { skeleton: Skeleton; clip: Clip; warning: string };
  /** The format the first bytes say. */
  clipFormat(input: string | Uint8Array | ArrayBuffer): 'BVH' | 'glTF' | 'GLB' | 'FBX' | 'unknown';
  /** BVH text with every joint's rotation channels in `order` (default 'ZYX'). */
  writeBVH(skeleton: Skeleton, clip: Clip, order?: 'XYZ' | 'XZY' | 'YXZ' | 'YZX' | 'ZXY' | 'ZYX'): string;
  /** Units from a standing height in file units. */
  detectUnits(standingHeight: number): { units: 'm' | 'cm' | 'cmu' | 'in' | 'mm'; metresPerUnit: number };

  /** Joint indices from root down to tip (root first); zero-length links skipped by default. */
  chain(skeleton: Skeleton, root: Joint, tip: Joint, options?: { skipZeroBones?: boolean }): Int32Array;
  /** Analytic two-bone IK (law of cosines); optional pole, soft limit. */
  limbIK(pose: Pose, o: { upper: Joint; middle: Joint; end: Joint; target: Vec3; pole?: Vec3;
    softLimit?: number; tolerance?: number; weight?: number }): IKResult;
  ccdIK(pose: Pose, o: ChainIK & { jointWeights?: number[] }): IKResult;
  fabrikIK(pose: Pose, o: ChainIK): IKResult;
  /** Jacobian IK: pseudo-inverse or damped least squares; one chain or several effectors. */
  jacobianIK(pose: Pose, o: (ChainIK | { joints: Joint[]; effectors: Joint[]; targets: Vec3[];
    effectorWeights?: number[] }) & { method?: 'dls' | 'pseudo-inverse'; damping?: number;
    maxIterations?: number; tolerance?: number; weight?: number }): IKResult;
  aimIK(pose: Pose, o: { joint: Joint; target: Vec3; forward?: Vec3; up?: Vec3; upModel?: Vec3;
    clampWeight?: number; weight?: number }): IKResult;
  lookAt(pose: Pose, o: { chain: ArrayLike<Joint>; target: Vec3; jointWeights?: number[];
    forward?: Vec3; up?: Vec3; upModel?: Vec3; clampWeight?: number; weight?: number }): IKResult;

  /** Plays a humanoid capture on another humanoid rig: a new clip on `target`. */
  retarget(source: { skeleton: Skeleton; clip: Clip }, target: Skeleton, options?: RetargetOptions):
    { clip: Clip; info: RetargetInfo };
  /** Per-frame retargeting (no contacts). */
  createRetargeter(source: Skeleton, target: Skeleton, options?: RetargetOptions): Retargeter;

  /** The guide-joint walker on terrain from `animkit walk` flags (array or object). */
  createWalker(flags?: string[] | WalkerFlags): Walker;
}

export interface RetargetOptions {
  /** "slot=Joint,..." humanoid overrides (slots as skeleton.humanoid() names them). */
  sourceOverrides?: string;
  targetOverrides?: string;
  /** Extra scale on top of the leg-length ratio (default 1). */
  scale?: number;
  /** Target soles at this height (target units); default: the source's floor carried over. */
  floor?: number;
  /** Pin stance feet with limb IK (default true; retarget() only). */
  contacts?: boolean;
  pinHands?: boolean;
  fadeTime?: number;
  /** retarget() only: the source frame whose pose is matched to the target's rest pose
   * (`animkit retarget --reference-frame`); default: the zero pose when it stands, else the
   * clip's most upright frame. */
  referenceFrame?: number;
}

export interface RetargetInfo {
  scale: number; legRatio: number; headingOffset: number; sourceSole: number; targetSole: number;
  sourceFloor: number; targetFloor: number; mappedJoints: number; chainJoints: number;
  restJoints: number; stanceFrames: number[]; pinnedRuns: number; maxPinError: number;
  /** [left, right]: the highest target ankle above targetFloor over the source's heel-down
   * frames, and the source's own ankle mapped onto the target there (target units); null for a
   * foot without stance or with contacts off. A pin error near 0 with a height well above the
   * source's is a foot held in the air. */
  stanceFootHeight: (number | null)[]; sourceStanceFootHeight: (number | null)[];
  /** The source frame used as the reference pose; -1: its zero pose. */
  referenceFrame: number;
}

export interface Retargeter {
  readonly info: RetargetInfo;
  /** targetPose.local from sourcePose.local. */
  pose(sourcePose: Pose, targetPose: Pose): Pose;
  mapPoint(p: Vec3): number[];
  sourceJoint(targetJoint: Joint): number;
  dispose(): void;
}

export interface ChainIK {
  chain: ArrayLike<Joint>;
  target: Vec3;
  maxIterations?: number;
  tolerance?: number;
  weight?: number;
}

export interface WalkerFlags {
  /** A walk clip (BVH, glTF or GLB bytes, or BVH text); default: the built-in procedural walk. */
  clip?: Uint8Array | ArrayBuffer | string;
  terrain?: 'flat' | 'hills' | 'stairs';
  seed?: number;
  start?: [number, number];
  target?: [number, number];
  steer?: 'cycle' | 'continuous';
  turnRate?: number;
  arrival?: number;
  maxTime?: number;
  scale?: number;
  cycle?: string;
  noFootIk?: boolean;
  /** The BVH clips' up axis (`animkit walk --up`; loadBVH's up). */
  up?: 'auto' | 'y' | 'z';
  /** The clip's joint that carries the travel (`animkit walk --root-joint`); default: measured
   * (the top joint, or the hips under a still top joint). summary() names it (root_joint,
   * root_joint_reason, root_joint_why). */
  rootJoint?: string;
  [flag: string]: unknown;
}

export interface Skeleton {
  readonly jointCount: number;
  readonly names: string[];
  /** Parent index per joint, -1 for a root; parents come before children. */
  readonly parents: Int32Array;
  /** Rest pose, parent space, 7 floats per joint. */
  readonly restLocal: Float32Array;
  readonly boneLengths: Float32Array;
  readonly isEndSite: Uint8Array;
  find(name: string): number;
  restHeight(): number;
  /** Humanoid slots ('hips', 'left_foot', 'right_hand', ...) -> joint index or -1. */
  humanoid(overrides?: string): Record<string, number>;
  createPose(): Pose;
  dispose(): void;
}

export interface Clip {
  readonly jointCount: number;
  readonly frameCount: number;
  readonly frameTime: number;
  readonly duration: number;
  loop: boolean;
  /** Frame-major rotation keys, 4 floats per joint per frame. */
  readonly rotations: Float32Array;
  /** Frame-major translation keys, 3 floats per track per frame. */
  readonly translations: Float32Array;
  readonly trackJoints: Int32Array;
  sample(t: number, pose: Pose, interp?: Interp): Pose;
  frame(frame: number, pose: Pose): Pose;
  standingHeight(skeleton: Skeleton): number;
  prepareCubic(): void;
  dispose(): void;
}

export interface Pose {
  readonly skeleton: Skeleton;
  /** Parent-space transforms, 7 floats per joint. */
  readonly local: Float32Array;
  /** Model-space transforms after fk(), 7 floats per joint. */
  readonly model: Float32Array;
  fk(): Pose;
  rest(): Pose;
  /** Model-space positions, 3 floats per joint (a copy). */
  positions(out?: Float32Array): Float32Array;
  dispose(): void;
}

export interface WalkerState {
  time: number; clipTime: number; cycle: number; position: number[]; heading: number;
  guideHeading: number; distance: number; pathLength: number; arrived: boolean; stopped: boolean;
  idleWeight: number; stance: [boolean, boolean]; sole: [number[], number[]];
  soleGround: [number, number]; tilt: [number, number]; hipDrop: number;
  /** AK_CONTACT_* of each foot (0 in swing); toe contact points and the ground under them. */
  contact: [number, number]; toe: [number[], number[]]; toeGround: [number, number];
  /** The walk clip's playback rate, 0 (standing) .. 1. */
  rate: number;
  /** Seconds simulated, in double precision (`time` is the same as a float32). */
  elapsed: number;
}

export interface Walker {
  /** Frames in --max-time, counting frame 0 (state().stopped says when it has arrived). */
  readonly maxFrames: number;
  /** The last frame stepped (0: the start, placed on the ground). */
  readonly frame: number;
  readonly frameTime: number;
  readonly jointCount: number;
  /** The walk motion's skeleton in metres (owned by the walker). */
  readonly skeleton: Skeleton;
  stepTo(frame: number): Walker;
  step(): Walker;
  /** The walk's measures over every frame stepped since frame 0, keyed as `animkit walk`'s
   * summary line (arrived, time_s, ..., deepest_any_phase, deepest_planted, hip_accel_min_g,
   * hip_accel_max_g, knee_peak_deg, drag_m_s, source_..., source_drag_m_s, frames), the root
   * joint (root_joint, root_joint_reason, root_joint_why) and, for the guide walker, what it
   * starts and stops with (start, stop: 'captured' or 'procedural') and why (start_why,
   * stop_why: a captured one left out names the bound it breaks); stepping back starts it
   * again. */
  summary(): Record<string, number | boolean | string>;
  setTarget(x: number, z: number): void;
  /** World transforms (metres) after the last step, 7 floats per joint. */
  readonly world: Float32Array;
  positions(): Float32Array;
  state(): WalkerState;
  dispose(): void;
}
