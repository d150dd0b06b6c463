// animkit — a thin managed API over AnimKitNative: objects that own their handles, arrays
// sized for you, exceptions instead of status codes. Everything here is in Unity's frame
// (left-handed, Y up, metres); the plugin converts from animkit's right-handed frame.
// No UnityEngine dependency (the MonoBehaviours in Runtime/Components build on it).
// Arrays cross as a reference to their first element (AnimKitNative.First), pinned for the
// call without a copy; no unsafe code.
using System;
using System.Runtime.InteropServices;

namespace AnimKit
{
    public enum Interpolation { Step = 0, Linear = 1, Cubic = 2 }

    /// <summary>Humanoid slots, in the plugin's order (ak_humanoid_slot).</summary>
    public enum HumanoidSlot
    {
        Hips, Spine, Chest, Neck, Head,
        LeftUpperLeg, LeftLowerLeg, LeftFoot, LeftToe,
        RightUpperLeg, RightLowerLeg, RightFoot, RightToe,
        LeftShoulder, LeftUpperArm, LeftLowerArm, LeftHand,
        RightShoulder, RightUpperArm, RightLowerArm, RightHand,
    }

    public static class AnimKitLibrary
    {
        /// <summary>ABI version of the loaded binary; throws when it is not the one this
        /// binding expects (an old plugin binary next to new scripts, or the reverse).</summary>
        public static int CheckAbi()
        {
            int v = AnimKitNative.ak_plugin_abi_version();
            if (v != AnimKitNative.ExpectedAbiVersion)
                throw new AnimKitException(AkStatus.State, string.Format(
                    "animkit plugin ABI {0}, these scripts need {1}: update the package's Plugins", v,
                    AnimKitNative.ExpectedAbiVersion));
            return v;
        }

        /// <summary>Live plugin handles of every kind (leak checks).</summary>
        public static int LiveHandles { get { return AnimKitNative.ak_plugin_live_handles(); } }

        /// <summary>The handedness conversion the plugin applies at its boundary, in place:
        /// position (x,y,z) -> (x,y,-z), rotation (x,y,z,w) -> (-x,-y,z,w). Its own inverse.</summary>
        public static void MirrorZ(AkXform[] xforms)
        {
            AnimKitNative.Check(AnimKitNative.ak_plugin_mirror_z(ref AnimKitNative.First(xforms), xforms.Length),
                IntPtr.Zero);
        }

        public static void ToMatrices(AkXform[] xforms, AkMat4[] matrices)
        {
            if (matrices.Length < xforms.Length) throw new ArgumentException("matrices is shorter than xforms");
            AnimKitNative.Check(AnimKitNative.ak_plugin_xforms_to_matrices(ref AnimKitNative.First(xforms),
                ref AnimKitNative.First(matrices), xforms.Length), IntPtr.Zero);
        }
    }

    /// <summary>A joint hierarchy (names, parents, rest pose) owned by the plugin.</summary>
    public sealed class Skeleton : IDisposable
    {
        public readonly SkeletonHandle Handle;
        public readonly int JointCount;
        public readonly string[] JointNames;
        public readonly int[] Parents;
        /// <summary>Scale applied at load (0.056444 for CMU units, 0.01 for centimetres...).</summary>
        public readonly float MetresPerUnit;
        /// <summary>Rest-pose height in metres.</summary>
        public readonly float RestHeight;
        /// <summary>Typical standing height over the clip it was loaded with, metres.</summary>
        public readonly float StandingHeight;

        internal Skeleton(IntPtr raw)
        {
            Handle = new SkeletonHandle(raw);
            AkSkeletonInfo info;
            AnimKitNative.Check(AnimKitNative.ak_plugin_skeleton_info_get(raw, out info), raw);
            JointCount = info.jointCount;
            MetresPerUnit = info.metresPerUnit;
            RestHeight = info.restHeight;
            StandingHeight = info.standingHeight;
            JointNames = new string[JointCount];
            byte[] buf = new byte[256];
            for (int j = 0; j < JointCount; ++j)
            {
                AnimKitNative.Check(AnimKitNative.ak_plugin_skeleton_joint_name(raw, j, buf, buf.Length), raw);
                JointNames[j] = AnimKitNative.FromUtf8(buf);
            }
            Parents = new int[JointCount];
            AnimKitNative.Check(AnimKitNative.ak_plugin_skeleton_parents(raw, ref AnimKitNative.First(Parents),
                JointCount), raw);
        }

        IntPtr Raw { get { return Handle.Raw; } }

        /// <summary>Index of the joint called `name`, or -1.</summary>
        public int Find(string name)
        {
            int j;
            int st = AnimKitNative.ak_plugin_skeleton_find(Raw, AnimKitNative.Utf8(name), out j);
            if (st == (int)AkStatus.NotFound) return -1;
            AnimKitNative.Check(st, Raw);
            return j;
        }

        /// <summary>Rest pose (local, parent space) into `local` (length >= JointCount).</summary>
        public void RestPose(AkXform[] local)
        {
            AnimKitNative.Check(AnimKitNative.ak_plugin_skeleton_rest_pose(Raw, ref AnimKitNative.First(local),
                local.Length), Raw);
        }

        /// <summary>Joint index per HumanoidSlot (-1 where not found). `overrides` like
        /// "left_foot=LeftAnkle,hips=Pelvis" win over the name matching. `missing` gets the
        /// plugin's message when hips or a leg could not be found (null otherwise).</summary>
        public int[] Humanoid(string overrides, out string missing)
        {
            int[] joints = new int[AnimKitNative.HumanoidSlotCount];
            int st;
            st = AnimKitNative.ak_plugin_skeleton_humanoid(Raw, AnimKitNative.Utf8(overrides),
                ref AnimKitNative.First(joints), joints.Length);
            missing = null;
            if (st == (int)AkStatus.NotFound) missing = AnimKitNative.LastError(Raw);
            else AnimKitNative.Check(st, Raw);
            return joints;
        }

        /// <summary>FK: model-space transforms from local ones (arrays of >= JointCount).</summary>
        public void Fk(AkXform[] local, AkXform[] model)
        {
            int n = Math.Min(local.Length, model.Length);
            AnimKitNative.Check(AnimKitNative.ak_plugin_fk(Raw, ref AnimKitNative.First(local),
                ref AnimKitNative.First(model), n), Raw);
        }

        /// <summary>Two-bone IK on a pose: `local` and `model` (FK of local) are updated in
        /// place. Set joints and target in `p` (start from IK.LimbDefaults()).</summary>
        public AkIkResult LimbIk(ref AkLimbIkParams p, AkXform[] local, AkXform[] model)
        {
            AkIkResult r;
            int n = Math.Min(local.Length, model.Length);
            AnimKitNative.Check(AnimKitNative.ak_plugin_limb_ik(Raw, ref p, ref AnimKitNative.First(local),
                ref AnimKitNative.First(model), n, out r), Raw);
            return r;
        }

        /// <summary>Look-at over `chain` (root first); `weights` null = even spread.
        /// `local` and `model` are updated in place.</summary>
        public AkIkResult LookAt(int[] chain, float[] weights, ref AkLookAtParams p, AkXform[] local, AkXform[] model)
        {
            if (weights != null && weights.Length != chain.Length)
                throw new ArgumentException("weights must have one entry per chain joint");
            AkIkResult r;
            int n = Math.Min(local.Length, model.Length);
            ref AkXform l = ref AnimKitNative.First(local), w = ref AnimKitNative.First(model);
            ref int c = ref AnimKitNative.First(chain);
            int st = weights == null
                ? AnimKitNative.ak_plugin_look_at(Raw, ref c, IntPtr.Zero, chain.Length, ref p, ref l, ref w, n, out r)
                : AnimKitNative.ak_plugin_look_at(Raw, ref c, ref AnimKitNative.First(weights), chain.Length, ref p,
                    ref l, ref w, n, out r);
            AnimKitNative.Check(st, Raw);
            return r;
        }

        public void Dispose() { Handle.Dispose(); }
    }

    /// <summary>Default parameter blocks, straight from the C library.</summary>
    public static class IK
    {
        public static AkLookAtParams LookAtDefaults()
        {
            AkLookAtParams p;
            AnimKitNative.Check(AnimKitNative.ak_plugin_look_at_defaults(out p), IntPtr.Zero);
            return p;
        }

        public static AkLimbIkParams LimbDefaults()
        {
            AkLimbIkParams p;
            AnimKitNative.Check(AnimKitNative.ak_plugin_limb_ik_defaults(out p), IntPtr.Zero);
            return p;
        }
    }

    /// <summary>Sampled animation for one skeleton.</summary>
    public sealed class Clip : IDisposable
    {
        public readonly ClipHandle Handle;
        public readonly int FrameCount;
        public readonly float FrameTime;

        internal Clip(IntPtr raw)
        {
            Handle = new ClipHandle(raw);
            AkClipInfo info = Info();
            FrameCount = info.frameCount;
            FrameTime = info.frameTime;
        }

        IntPtr Raw { get { return Handle.Raw; } }

        /// <summary>A clip of `skeleton` from poses: `frameCount` frames of local (parent-space)
        /// transforms, frame-major, Unity frame, metres (e.g. a Unity AnimationClip sampled on
        /// the character's own Transforms). Joint 0 and every joint that leaves its rest
        /// translation get a translation track.</summary>
        public static Clip FromPoses(Skeleton skeleton, AkXform[] localFrames, int frameCount, float frameTime, bool loop)
        {
            AnimKitLibrary.CheckAbi();
            if (localFrames == null || localFrames.Length == 0)
                throw new ArgumentException("localFrames must hold frameCount * joint count poses");
            byte[] err = new byte[512];
            IntPtr raw;
            int st = AnimKitNative.ak_plugin_clip_create(skeleton.Handle.Raw, frameCount, frameTime, loop ? 1 : 0,
                ref AnimKitNative.First(localFrames), localFrames.Length, out raw, err, err.Length);
            if (st < 0) throw new AnimKitException((AkStatus)st, AnimKitNative.FromUtf8(err));
            return new Clip(raw);
        }

        AkClipInfo Info()
        {
            AkClipInfo info;
            AnimKitNative.Check(AnimKitNative.ak_plugin_clip_info_get(Raw, out info), Raw);
            return info;
        }

        /// <summary>Seconds; a looping clip also blends its last frame back to the first.</summary>
        public float Duration { get { return Info().duration; } }

        public bool Loop
        {
            get { return Info().loop != 0; }
            set { AnimKitNative.Check(AnimKitNative.ak_plugin_clip_set_loop(Raw, value ? 1 : 0), Raw); }
        }

        /// <summary>The joint that carries this clip's horizontal travel: `name` null or ""
        /// measures it (the top joint, or the hips / a root bone under a top joint that never
        /// moves), a name takes that joint (throws AnimKitException NotFound, "no joint named
        /// 'X' to carry the root motion", when the skeleton has none). `reason` gets one line
        /// saying which joint and why. Walks every frame: call it once, at load.</summary>
        public AkRootJointInfo RootJoint(Skeleton skeleton, string name, out string reason)
        {
            AkRootJointInfo info;
            byte[] buf = new byte[512];
            AnimKitNative.Check(AnimKitNative.ak_plugin_clip_root_joint(Raw, skeleton.Handle.Raw,
                AnimKitNative.Utf8(name), out info, buf, buf.Length), Raw);
            reason = AnimKitNative.FromUtf8(buf);
            return info;
        }

        /// <summary>Local pose at `time` seconds into `local` (length >= joint count).</summary>
        public void Sample(Skeleton skeleton, float time, Interpolation interp, AkXform[] local)
        {
            AnimKitNative.Check(AnimKitNative.ak_plugin_clip_sample(Raw, skeleton.Handle.Raw, time, (int)interp,
                ref AnimKitNative.First(local), local.Length), Raw);
        }

        /// <summary>Model-space pose at `time` seconds into `model`.</summary>
        public void SampleModel(Skeleton skeleton, float time, Interpolation interp, AkXform[] model)
        {
            AnimKitNative.Check(AnimKitNative.ak_plugin_clip_sample_model(Raw, skeleton.Handle.Raw, time, (int)interp,
                ref AnimKitNative.First(model), model.Length), Raw);
        }

        public void Dispose() { Handle.Dispose(); }
    }

    /// <summary>A walking character: the guide-joint walker with foot IK over ground the
    /// engine ray-casts (two-phase: Begin -> move -> Rays -> cast -> Finish).</summary>
    public sealed class Character : IDisposable
    {
        public readonly CharacterHandle Handle;
        public readonly int JointCount;
        readonly AkRay[] m_rays = new AkRay[AnimKitNative.CharacterMaxRays];

        IntPtr Raw { get { return Handle.Raw; } }

        public static AkCharacterParams Defaults()
        {
            AkCharacterParams p;
            AnimKitNative.Check(AnimKitNative.ak_plugin_character_defaults(out p), IntPtr.Zero);
            return p;
        }

        /// <summary>`idle` may be null (the walker then holds a double-support frame).
        /// `rootJoint` names the joint whose horizontal travel is the root motion (a capture
        /// whose top joint stands still while the hips travel); null or "": measured. A name
        /// the skeleton does not have throws.</summary>
        public Character(Skeleton skeleton, Clip walk, Clip idle, AkCharacterParams p, string rootJoint = null)
        {
            IntPtr raw;
            byte[] err = new byte[512];
            int st;
            GCHandle name = default(GCHandle);
            try
            {
                if (!string.IsNullOrEmpty(rootJoint))
                {
                    name = GCHandle.Alloc(AnimKitNative.Utf8(rootJoint), GCHandleType.Pinned);
                    p.rootJoint = name.AddrOfPinnedObject();
                }
                st = AnimKitNative.ak_plugin_character_create(skeleton.Handle.Raw, walk.Handle.Raw,
                    idle != null ? idle.Handle.Raw : IntPtr.Zero, ref p, out raw, err, err.Length);
            }
            finally
            {
                if (name.IsAllocated) name.Free();
            }
            if (st < 0) throw new AnimKitException((AkStatus)st, AnimKitNative.FromUtf8(err));
            Handle = new CharacterHandle(raw);
            JointCount = Info.jointCount;
        }

        public AkCharacterInfo Info
        {
            get
            {
                AkCharacterInfo i;
                AnimKitNative.Check(AnimKitNative.ak_plugin_character_info_get(Raw, out i), Raw);
                return i;
            }
        }

        public AkCharacterState State
        {
            get
            {
                AkCharacterState s;
                AnimKitNative.Check(AnimKitNative.ak_plugin_character_state_get(Raw, out s), Raw);
                return s;
            }
        }

        /// <summary>The walk's measures so far (every finished frame since create).</summary>
        public AkWalkSummary Summary
        {
            get
            {
                AkWalkSummary s;
                AnimKitNative.Check(AnimKitNative.ak_plugin_character_summary_get(Raw, out s), Raw);
                return s;
            }
        }

        public void SetTarget(AkVec3 target)
        {
            AnimKitNative.Check(AnimKitNative.ak_plugin_character_set_target(Raw, ref target), Raw);
        }

        /// <summary>Phase 1: advance dt seconds; returns the displacement the animation wants.</summary>
        public AkVec3 Begin(float dt)
        {
            AkVec3 move;
            AnimKitNative.Check(AnimKitNative.ak_plugin_character_begin(Raw, dt, out move), Raw);
            return move;
        }

        /// <summary>Phase 2 (optional): where the engine's controller put the character.</summary>
        public void SetPosition(AkVec3 position)
        {
            AnimKitNative.Check(AnimKitNative.ak_plugin_character_set_position(Raw, ref position), Raw);
        }

        /// <summary>Phase 3: the rays to cast this frame, in rays[0..count) (a reused array of
        /// CharacterMaxRays entries; do not keep it).</summary>
        public AkRay[] GroundRays(out int count)
        {
            int n;
            AnimKitNative.Check(AnimKitNative.ak_plugin_character_ground_rays(Raw, ref AnimKitNative.First(m_rays),
                m_rays.Length, out n), Raw);
            count = n;
            return m_rays;
        }

        /// <summary>Phase 4: one hit per ray, same order; `count` as GroundRays returned.</summary>
        public void Finish(AkGroundHit[] hits, int count)
        {
            if (count > hits.Length) throw new ArgumentException("hits is shorter than count");
            AnimKitNative.Check(AnimKitNative.ak_plugin_character_finish(Raw, ref AnimKitNative.First(hits), count),
                Raw);
        }

        /// <summary>Pose in the character's own space (under a Transform at State.position,
        /// State.rotation). Either array may be null.</summary>
        public void Pose(AkXform[] local, AkXform[] model)
        {
            int n = local != null ? local.Length : model.Length;
            if (local != null && model != null) n = Math.Min(local.Length, model.Length);
            int st;
            if (local == null)
                st = AnimKitNative.ak_plugin_character_pose(Raw, IntPtr.Zero, ref AnimKitNative.First(model), n);
            else if (model == null)
                st = AnimKitNative.ak_plugin_character_pose(Raw, ref AnimKitNative.First(local), IntPtr.Zero, n);
            else
                st = AnimKitNative.ak_plugin_character_pose(Raw, ref AnimKitNative.First(local),
                    ref AnimKitNative.First(model), n);
            AnimKitNative.Check(st, Raw);
        }

        public void WorldPose(AkXform[] world)
        {
            AnimKitNative.Check(AnimKitNative.ak_plugin_character_world_pose(Raw, ref AnimKitNative.First(world),
                world.Length), Raw);
        }

        public void Dispose() { Handle.Dispose(); }
    }

    /// <summary>Standalone foot IK for a clip played without the walker (two-phase: Rays ->
    /// cast -> Apply on the pose, every frame after sampling and FK).</summary>
    public sealed class FootIkRig : IDisposable
    {
        public readonly FootIkHandle Handle;
        readonly AkRay[] m_rays = new AkRay[AnimKitNative.FootIkRayCount];
        IntPtr Raw { get { return Handle.Raw; } }

        public static AkFootIkParams Defaults()
        {
            AkFootIkParams p;
            AnimKitNative.Check(AnimKitNative.ak_plugin_foot_ik_defaults(out p), IntPtr.Zero);
            return p;
        }

        /// <summary>Finds the legs, detects the clip's foot contacts, calibrates the feet.</summary>
        public FootIkRig(Skeleton skeleton, Clip clip, AkFootIkParams p)
        {
            IntPtr raw;
            byte[] err = new byte[512];
            int st = AnimKitNative.ak_plugin_foot_ik_create(skeleton.Handle.Raw, clip.Handle.Raw, ref p, out raw, err, err.Length);
            if (st < 0) throw new AnimKitException((AkStatus)st, AnimKitNative.FromUtf8(err));
            Handle = new FootIkHandle(raw);
        }

        /// <summary>Phase 1: rays for the model-space pose at clip `time`, placed in the world by
        /// `character` (a reused array; count = 2).</summary>
        public AkRay[] Rays(float time, AkXform character, AkXform[] model, out int count)
        {
            int n;
            AnimKitNative.Check(AnimKitNative.ak_plugin_foot_ik_rays(Raw, time, ref character,
                ref AnimKitNative.First(model), model.Length, ref AnimKitNative.First(m_rays), m_rays.Length, out n), Raw);
            count = n;
            return m_rays;
        }

        /// <summary>Phase 2: the hits -> local and model poses rewritten in place.</summary>
        public void Apply(float dt, AkGroundHit[] hits, int count, AkXform[] local, AkXform[] model)
        {
            int n = Math.Min(local.Length, model.Length);
            AnimKitNative.Check(AnimKitNative.ak_plugin_foot_ik_apply(Raw, dt, ref AnimKitNative.First(hits),
                Math.Min(count, hits.Length), ref AnimKitNative.First(local), ref AnimKitNative.First(model), n), Raw);
        }

        /// <summary>Which feet stand from now on: 0 swing, else the contact bits that are down
        /// (1 heel, 2 toe: rolls over the toe, 3 both); -1 from the clip's contacts (the default).</summary>
        public void SetStance(int left, int right)
        {
            AnimKitNative.Check(AnimKitNative.ak_plugin_foot_ik_set_stance(Raw, left, right), Raw);
        }

        /// <summary>The heel (sole) and toe contact points [left, right] of any model-space pose
        /// placed at `character`, by the C library's rule and this rig's calibration (world,
        /// Unity frame; the toe is the heel where the rig has no toe joint).</summary>
        public void ContactPoints(AkXform character, AkXform[] model, AkVec3[] heel, AkVec3[] toe)
        {
            if (heel == null || toe == null || heel.Length < 2 || toe.Length < 2)
                throw new ArgumentException("heel and toe need 2 entries each");
            AnimKitNative.Check(AnimKitNative.ak_plugin_foot_ik_contact_points(Raw, ref character,
                ref AnimKitNative.First(model), model.Length, heel, toe), Raw);
        }

        public AkFootIkState State
        {
            get
            {
                AkFootIkState s;
                AnimKitNative.Check(AnimKitNative.ak_plugin_foot_ik_state_get(Raw, out s), Raw);
                return s;
            }
        }

        public void Dispose() { Handle.Dispose(); }
    }

    /// <summary>A BVH file read into a skeleton and a clip.</summary>
    public sealed class BvhFile : IDisposable
    {
        public readonly Skeleton Skeleton;
        public readonly Clip Clip;

        BvhFile(IntPtr skeleton, IntPtr clip)
        {
            try
            {
                Skeleton = new Skeleton(skeleton);
                Clip = new Clip(clip);
            }
            catch
            {
                AnimKitNative.ak_plugin_destroy(skeleton);
                AnimKitNative.ak_plugin_destroy(clip);
                throw;
            }
        }

        /// <summary>Reads a BVH file. metresPerUnit 0 detects the units from the rest
        /// height (CMU, cm, inches, mm or m). Throws AnimKitException ("...: line N: reason").</summary>
        public static BvhFile Load(string path, float metresPerUnit = 0f, bool loop = true)
        {
            AnimKitLibrary.CheckAbi();
            IntPtr s, c;
            byte[] err = new byte[512];
            int st = AnimKitNative.ak_plugin_bvh_load(AnimKitNative.Utf8(path), metresPerUnit, loop ? 1 : 0,
                out s, out c, err, err.Length);
            if (st < 0) throw new AnimKitException((AkStatus)st, AnimKitNative.FromUtf8(err));
            return new BvhFile(s, c);
        }

        /// <summary>Reads BVH text (e.g. a TextAsset's bytes).</summary>
        public static BvhFile LoadText(byte[] utf8, float metresPerUnit = 0f, bool loop = true)
        {
            AnimKitLibrary.CheckAbi();
            IntPtr s, c;
            byte[] err = new byte[512];
            int st = AnimKitNative.ak_plugin_bvh_load_memory(utf8, utf8.Length, metresPerUnit, loop ? 1 : 0,
                out s, out c, err, err.Length);
            if (st < 0) throw new AnimKitException((AkStatus)st, AnimKitNative.FromUtf8(err));
            return new BvhFile(s, c);
        }

        public void Dispose()
        {
            Clip.Dispose();
            Skeleton.Dispose();
        }
    }
}
