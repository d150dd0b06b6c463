// animkit — motion matching from C#: a MotionDatabase built from clips of one skeleton (or
// loaded from its blob) and a Matcher that walks it to a target in the two-phase form.
// Bindings for the motion-matching part of include/animkit/plugin.h; same rules as
// AnimKitNative.cs (blittable arguments only, UTF-8 byte arrays for text, handles in
// SafeHandles). No UnityEngine here.
using System;
using System.Runtime.InteropServices;
using System.Text;

namespace AnimKit
{
    /// <summary>ak_plugin_motion_db_info.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct AkMotionDbInfo
    {
        public int frameCount, candidateCount, clipCount, jointCount;
        public float frameTime;
        public float minSpeed, maxSpeed;
    }

    /// <summary>ak_plugin_matcher_params: start from Matcher.Defaults().</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct AkMatcherParams
    {
        public AkVec3 start, target;
        public int faceTarget;
        public float startHeadingDeg;
        public float arrivalRadius;
        public float walkSpeed;
        public float turnRateDeg;
        public float inertiaHalflife;
        public int useController;
        public int footIk;
    }

    /// <summary>ak_plugin_matcher_state (Unity frame).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct AkMatcherState
    {
        public AkVec3 position;
        public AkQuat rotation;
        public AkVec3 facing;
        public float time, distance, pathLength;
        public int arrived, stopped, standing;
        public int frame, clip;
        public float sourceTime;
        public int transitions, searches;
        public int stanceLeft, stanceRight;
        public AkVec3 soleLeft, soleRight;
        public AkVec3 desired0, desired1, desired2;
        public AkVec3 matched0, matched1, matched2;
    }

    public sealed class MotionDatabaseHandle : AnimKitHandle { public MotionDatabaseHandle(IntPtr h) : base(h) { } }
    public sealed class MatcherHandle : AnimKitHandle { public MatcherHandle(IntPtr h) : base(h) { } }

    static class MatchingNative
    {
        const CallingConvention CC = CallingConvention.Cdecl;
        const string Lib = AnimKitNative.Lib;

        [DllImport(Lib, CallingConvention = CC)]
        public static extern int ak_plugin_motion_db_create(IntPtr skeleton, IntPtr[] clips, int clipCount,
            byte[] rootJointUtf8, out IntPtr db, byte[] errorBuffer, int errorSize);
        [DllImport(Lib, CallingConvention = CC)] public static extern int ak_plugin_motion_db_save(IntPtr db, byte[] pathUtf8);
        [DllImport(Lib, CallingConvention = CC)]
        public static extern int ak_plugin_motion_db_load(byte[] pathUtf8, out IntPtr db, byte[] errorBuffer, int errorSize);
        [DllImport(Lib, CallingConvention = CC)]
        public static extern int ak_plugin_motion_db_load_memory(byte[] data, int size, out IntPtr db,
            byte[] errorBuffer, int errorSize);
        [DllImport(Lib, CallingConvention = CC)] public static extern int ak_plugin_motion_db_info_get(IntPtr db, out AkMotionDbInfo info);
        [DllImport(Lib, CallingConvention = CC)] public static extern int ak_plugin_matcher_defaults(out AkMatcherParams p);
        [DllImport(Lib, CallingConvention = CC)]
        public static extern int ak_plugin_matcher_create(IntPtr db, ref AkMatcherParams p, out IntPtr matcher,
            byte[] errorBuffer, int errorSize);
        [DllImport(Lib, CallingConvention = CC)] public static extern int ak_plugin_matcher_set_target(IntPtr matcher, ref AkVec3 target);
        [DllImport(Lib, CallingConvention = CC)] public static extern int ak_plugin_matcher_begin(IntPtr matcher, float dt, out AkVec3 move);
        [DllImport(Lib, CallingConvention = CC)] public static extern int ak_plugin_matcher_set_position(IntPtr matcher, ref AkVec3 position);
        [DllImport(Lib, CallingConvention = CC)]
        public static extern int ak_plugin_matcher_ground_rays(IntPtr matcher, ref AkRay rays, int capacity, out int count);
        [DllImport(Lib, CallingConvention = CC)]
        public static extern int ak_plugin_matcher_finish(IntPtr matcher, ref AkGroundHit hits, int count);
        [DllImport(Lib, CallingConvention = CC)] public static extern int ak_plugin_matcher_state_get(IntPtr matcher, out AkMatcherState state);
        [DllImport(Lib, CallingConvention = CC)] public static extern int ak_plugin_matcher_summary_get(IntPtr matcher, out AkWalkSummary summary);
        [DllImport(Lib, CallingConvention = CC)]
        public static extern int ak_plugin_matcher_pose(IntPtr matcher, ref AkXform local, ref AkXform model, int count);
        [DllImport(Lib, CallingConvention = CC)]
        public static extern int ak_plugin_matcher_pose(IntPtr matcher, ref AkXform local, IntPtr model, int count);

        public static void ThrowIf(int status, byte[] err)
        {
            if (status < 0) throw new AnimKitException((AkStatus)status, AnimKitNative.FromUtf8(err));
        }

        public static byte[] Utf8(string s) { return Encoding.UTF8.GetBytes(s + "\0"); }
    }

    /// <summary>Captured frames, their features and search boxes: what a Matcher searches.</summary>
    public sealed class MotionDatabase : IDisposable
    {
        public readonly MotionDatabaseHandle Handle;

        MotionDatabase(IntPtr raw) { Handle = new MotionDatabaseHandle(raw); }

        /// <summary>From clips of one skeleton (loaded in metres). Offline cost. `rootJoint`
        /// names the joint whose horizontal travel is the root motion; null or "": measured
        /// over the clips. A name the skeleton does not have throws.</summary>
        public static MotionDatabase Build(Skeleton skeleton, Clip[] clips, string rootJoint = null)
        {
            var raws = new IntPtr[clips.Length];
            for (int i = 0; i < clips.Length; ++i) raws[i] = clips[i].Handle.Raw;
            IntPtr raw;
            byte[] err = new byte[512];
            MatchingNative.ThrowIf(MatchingNative.ak_plugin_motion_db_create(skeleton.Handle.Raw, raws, raws.Length,
                string.IsNullOrEmpty(rootJoint) ? null : MatchingNative.Utf8(rootJoint), out raw, err, err.Length), err);
            return new MotionDatabase(raw);
        }

        /// <summary>A database saved with Save (e.g. a TextAsset's bytes).</summary>
        public static MotionDatabase Load(byte[] blob)
        {
            IntPtr raw;
            byte[] err = new byte[512];
            MatchingNative.ThrowIf(MatchingNative.ak_plugin_motion_db_load_memory(blob, blob.Length, out raw, err,
                err.Length), err);
            return new MotionDatabase(raw);
        }

        public static MotionDatabase Load(string path)
        {
            IntPtr raw;
            byte[] err = new byte[512];
            MatchingNative.ThrowIf(MatchingNative.ak_plugin_motion_db_load(MatchingNative.Utf8(path), out raw, err,
                err.Length), err);
            return new MotionDatabase(raw);
        }

        /// <summary>Writes the blob (atomically: a temporary beside the file, then a rename).</summary>
        public void Save(string path)
        {
            AnimKitNative.Check(MatchingNative.ak_plugin_motion_db_save(Handle.Raw, MatchingNative.Utf8(path)),
                Handle.Raw);
        }

        public AkMotionDbInfo Info
        {
            get
            {
                AkMotionDbInfo i;
                AnimKitNative.Check(MatchingNative.ak_plugin_motion_db_info_get(Handle.Raw, out i), Handle.Raw);
                return i;
            }
        }

        public void Dispose() { Handle.Dispose(); }
    }

    /// <summary>The matching walker: every 0.1 s the database frame whose pose and future
    /// trajectory best fit the way to the target, inertialized, with foot IK.</summary>
    public sealed class Matcher : IDisposable
    {
        public readonly MatcherHandle Handle;
        public readonly int JointCount;
        readonly AkRay[] m_rays = new AkRay[AnimKitNative.CharacterMaxRays];

        IntPtr Raw { get { return Handle.Raw; } }

        public static AkMatcherParams Defaults()
        {
            AkMatcherParams p;
            AnimKitNative.Check(MatchingNative.ak_plugin_matcher_defaults(out p), IntPtr.Zero);
            return p;
        }

        /// <summary>The matcher keeps the database alive.</summary>
        public Matcher(MotionDatabase db, AkMatcherParams p)
        {
            IntPtr raw;
            byte[] err = new byte[512];
            MatchingNative.ThrowIf(MatchingNative.ak_plugin_matcher_create(db.Handle.Raw, ref p, out raw, err,
                err.Length), err);
            Handle = new MatcherHandle(raw);
            JointCount = db.Info.jointCount;
        }

        public AkMatcherState State
        {
            get
            {
                AkMatcherState s;
                AnimKitNative.Check(MatchingNative.ak_plugin_matcher_state_get(Raw, out s), Raw);
                return s;
            }
        }

        /// <summary>The walk's measures so far (every finished frame since create; the source
        /// is every frame of the database).</summary>
        public AkWalkSummary Summary
        {
            get
            {
                AkWalkSummary s;
                AnimKitNative.Check(MatchingNative.ak_plugin_matcher_summary_get(Raw, out s), Raw);
                return s;
            }
        }

        public void SetTarget(AkVec3 target)
        {
            AnimKitNative.Check(MatchingNative.ak_plugin_matcher_set_target(Raw, ref target), Raw);
        }

        /// <summary>Phase 1: advance dt seconds; returns the displacement the animation wants.</summary>
        public AkVec3 Begin(float dt)
        {
            AkVec3 move;
            AnimKitNative.Check(MatchingNative.ak_plugin_matcher_begin(Raw, dt, out move), Raw);
            return move;
        }

        /// <summary>Phase 2 (optional): where the engine's controller put the character.</summary>
        public void SetPosition(AkVec3 position)
        {
            AnimKitNative.Check(MatchingNative.ak_plugin_matcher_set_position(Raw, ref position), Raw);
        }

        /// <summary>Phase 3: the rays to cast (a reused array; rays[0..count)).</summary>
        public AkRay[] GroundRays(out int count)
        {
            int n;
            AnimKitNative.Check(MatchingNative.ak_plugin_matcher_ground_rays(Raw, ref AnimKitNative.First(m_rays),
                m_rays.Length, out n), Raw);
            count = n;
            return m_rays;
        }

        /// <summary>Phase 4: one hit per ray, same order.</summary>
        public void Finish(AkGroundHit[] hits, int count)
        {
            if (count > hits.Length) throw new ArgumentException("hits is shorter than count");
            AnimKitNative.Check(MatchingNative.ak_plugin_matcher_finish(Raw, ref AnimKitNative.First(hits), count),
                Raw);
        }

        /// <summary>Pose in the character's own space (under a Transform at State.position,
        /// State.rotation). `model` may be null.</summary>
        public void Pose(AkXform[] local, AkXform[] model)
        {
            int n = model != null ? Math.Min(local.Length, model.Length) : local.Length;
            int st = model != null
                ? MatchingNative.ak_plugin_matcher_pose(Raw, ref AnimKitNative.First(local), ref AnimKitNative.First(model), n)
                : MatchingNative.ak_plugin_matcher_pose(Raw, ref AnimKitNative.First(local), IntPtr.Zero, n);
            AnimKitNative.Check(st, Raw);
        }

        public void Dispose() { Handle.Dispose(); }
    }
}
