// animkit — P/Invoke declarations for the native plugin (include/animkit/plugin.h).
//
// Rules followed so the same code runs under Mono, .NET and IL2CPP:
//  - every import is static extern, Cdecl, with blittable parameters only (int, float,
//    IntPtr, pointers to blittable structs, byte[] for UTF-8 text); no bool, no string
//    marshalling (IL2CPP would use the ANSI code page on Windows), no callbacks;
//  - arrays cross as `ref T` to their first element (`ref local[0]`): a by-ref blittable
//    argument is passed as the address of the caller's memory, pinned for the call, with no
//    copy (Mono marshals a struct-array argument at ~5 us per call for 38 joints) and no
//    `unsafe` code, so the assembly needs no allowUnsafeCode. Optional arrays have an
//    IntPtr overload for "none";
//  - handles cross as IntPtr; the SafeHandle wrappers below own them;
//  - errors come back as status codes, turned into AnimKitException with the plugin's
//    ak_plugin_last_error text.
// No UnityEngine dependency: this file compiles and runs with plain Mono (see tests/plugin).
using System;
using System.Runtime.InteropServices;
using System.Text;

namespace AnimKit
{
    /// <summary>Unity-frame vector (same layout as UnityEngine.Vector3).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct AkVec3
    {
        public float x, y, z;
        public AkVec3(float x, float y, float z) { this.x = x; this.y = y; this.z = z; }
        public override string ToString() { return string.Format("({0:F4}, {1:F4}, {2:F4})", x, y, z); }
    }

    /// <summary>Unity-frame rotation (same layout as UnityEngine.Quaternion: x, y, z, w).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct AkQuat
    {
        public float x, y, z, w;
        public AkQuat(float x, float y, float z, float w) { this.x = x; this.y = y; this.z = z; this.w = w; }
        public static AkQuat Identity { get { return new AkQuat(0f, 0f, 0f, 1f); } }
    }

    /// <summary>A rigid transform: rotation, then position (ak_plugin_xform, 7 floats).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct AkXform
    {
        public AkQuat rotation;
        public AkVec3 position;
        public static AkXform Identity { get { AkXform x; x.rotation = AkQuat.Identity; x.position = new AkVec3(0f, 0f, 0f); return x; } }
    }

    /// <summary>Column-major 4x4 (the memory order of UnityEngine.Matrix4x4).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct AkMat4
    {
        public float m00, m10, m20, m30, m01, m11, m21, m31, m02, m12, m22, m32, m03, m13, m23, m33;
    }

    [StructLayout(LayoutKind.Sequential)]
    public struct AkSkeletonInfo
    {
        public int jointCount;
        public int units;
        public float metresPerUnit;
        public float restHeight;
        public float standingHeight;
    }

    [StructLayout(LayoutKind.Sequential)]
    public struct AkIkResult
    {
        public int reached;
        public int unreachable;
        public int iterations;
        public float error;
    }

    /// <summary>ak_plugin_limb_ik_params: Unity frame, model space (the space of `model`).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct AkLimbIkParams
    {
        public int upper, middle, end;
        public int usePole;
        public AkVec3 target;
        public AkVec3 pole;
        public AkVec3 midAxis;
        public float softLimit;
        public int matchEndRotation;
        public AkQuat endRotation;
        public float tolerance;
        public float weight;
    }

    /// <summary>Why a joint carries the clip's travel (ak_plugin_root_joint_info.reason).</summary>
    public enum RootJointReason { TopTravels = 0, UnderStillTop = 1, Named = 2 }

    /// <summary>Which joint carries a clip's horizontal travel (ak_plugin_root_joint_info).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct AkRootJointInfo
    {
        public int joint;       // the joint whose horizontal travel is the root motion
        public int top;         // the top joint above it
        public int reason;      // RootJointReason
        public float travel;    // metres: its largest XZ distance from its frame-0 place
        public float topTravel; // metres: the top joint's
        public float height;    // metres: the clip's standing height
    }

    [StructLayout(LayoutKind.Sequential)]
    public struct AkClipInfo
    {
        public int jointCount;
        public int frameCount;
        public float frameTime;
        public float duration;
        public int loop;
    }

    /// <summary>ak_plugin_look_at_params: Unity frame; target in model space, axes in the
    /// last joint's local space.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct AkLookAtParams
    {
        public AkVec3 target;
        public AkVec3 forward;
        public AkVec3 up;
        public AkVec3 upModel;
        public float clampWeight;
        public float tolerance;
        public float weight;
    }

    [StructLayout(LayoutKind.Sequential)]
    public struct AkCharacterParams
    {
        public AkVec3 start;
        public AkVec3 target;
        public int faceTarget;
        public float startHeadingDeg;
        public float arrivalRadius;
        public int steer;
        public float turnRateDeg;
        public int interp;
        public float groundSmoothing;
        public float idleFade;
        public int useController;
        public int footIk;
        public float footWeight;
        public float maxTiltDeg;
        public float maxHipDrop;
        public float hipDropRate;
        public float poleDistance;
        public int lockFeet;
        public int cycleStart;
        public int cycleEnd;
        public float seamBlend;
        /// <summary>const char *root_joint: UTF-8 name of the joint whose horizontal travel is
        /// the root motion, or IntPtr.Zero (default): measured. Character's constructor fills it
        /// from its rootJoint argument (pinned for the call).</summary>
        public IntPtr rootJoint;
    }

    /// <summary>What became of the walk clip's captured start or stop (ak_plugin_transition,
    /// ABI 7): a captured one whose own frames break issue 21's bounds around the cycle's
    /// figures is left out, and the walker starts or stops procedurally.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct AkTransition
    {
        /// <summary>0: none captured around the cycle, 1: played, 2: left out (broken says
        /// why), 3: not looked for.</summary>
        public int use;
        /// <summary>Bits: 1 the hips fall faster than hipAccelLowG, 2 rise faster than
        /// hipAccelHighG, 4 the knee bends past kneeBoundDeg.</summary>
        public int broken;
        public int firstFrame, lastFrame;
        public float hipAccelMinG, hipAccelMaxG;
        public float hipAccelLowG, hipAccelHighG;
        public float kneePeakDeg, kneeBoundDeg;
    }

    [StructLayout(LayoutKind.Sequential)]
    public struct AkCharacterInfo
    {
        public int jointCount;
        public int cycleStart, cycleEnd;
        public float cycleTime;
        public float strideLength;
        public float speed;
        public float soleHeightLeft, soleHeightRight;
        public AkTransition start;
        public AkTransition stop;
    }

    [StructLayout(LayoutKind.Sequential)]
    public struct AkCharacterState
    {
        public AkVec3 position;
        public AkQuat rotation;
        public AkVec3 facing;
        public float time;
        public float clipTime;
        public int cycle;
        public float distance;
        public float pathLength;
        public int arrived;
        public int stopped;
        public float idleWeight;
        public int stanceLeft, stanceRight;
        public AkVec3 soleLeft, soleRight;
        public float tiltDegLeft, tiltDegRight;
        /// <summary>Metres the hips were lowered; negative when raised over a stance foot on
        /// higher ground (up to 0.3 m).</summary>
        public float hipDrop;
    }

    /// <summary>The walk's measures over every frame since create (ak_plugin_walk_summary):
    /// the CLI's walk summary figures, each beside the source's own. Metres, m/s, g, degrees.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct AkWalkSummary
    {
        public int frames;
        /// <summary>Deepest heel, toe or ankle below the ground in any phase, metres.</summary>
        public float deepestAnyPhase;
        /// <summary>The same over the frames its foot is planted, metres.</summary>
        public float deepestPlanted;
        /// <summary>Mean and worst horizontal speed of the point holding a planted foot, m/s.</summary>
        public float skate, maxSkate;
        /// <summary>The hips' vertical acceleration (33 ms average), lowest and highest, g.</summary>
        public float hipAccelMinG, hipAccelMaxG;
        /// <summary>Peak knee flexion (0: straight), degrees.</summary>
        public float kneePeakDeg;
        /// <summary>The source's own (the walk cycle; a matcher's database).</summary>
        public float sourceHipAccelMinG, sourceHipAccelMaxG, sourceKneePeakDeg;
        /// <summary>Drag: a heel or toe within 5 mm of the ground at both ends of a frame, its
        /// horizontal speed, m/s (the point farthest over its bound: a swinging foot held down
        /// along the ground), and that point's bound, the source's own fastest that low (at
        /// least 0.01 m/s).</summary>
        public float drag, sourceDrag;
    }

    /// <summary>A downward ray the plugin wants cast (world, Unity frame).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct AkRay
    {
        public AkVec3 origin;
        public AkVec3 direction;
        public float maxDistance;
    }

    /// <summary>The engine's answer for one AkRay.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct AkGroundHit
    {
        public int hit;
        public float height;
        public AkVec3 normal;
    }

    [StructLayout(LayoutKind.Sequential)]
    public struct AkFootIkParams
    {
        public float weight;
        public float maxTiltDeg;
        public float maxHipDrop;
        public float hipDropRate;
        public float poleDistance;
        public int lockFeet;
        public float rayUp;
        public float rayDown;
    }

    [StructLayout(LayoutKind.Sequential)]
    public struct AkFootIkState
    {
        public int stanceLeft, stanceRight;
        public AkVec3 soleLeft, soleRight;
        public float tiltDegLeft, tiltDegRight;
        public int reachedLeft, reachedRight;
        public float hipDrop;
    }

    /// <summary>Status codes (ak_status in status.h, plus the plugin's handle error).</summary>
    public enum AkStatus
    {
        Ok = 0,
        InvalidArg = -1,
        Parse = -2,
        Io = -3,
        Limit = -4,
        NoMem = -5,
        NotFound = -6,
        Degenerate = -7,
        State = -8,
        Handle = -32,
    }

    /// <summary>A failed plugin call: the status and the plugin's own explanation.</summary>
    public sealed class AnimKitException : Exception
    {
        public readonly AkStatus Status;
        public AnimKitException(AkStatus status, string message) : base(message) { Status = status; }
    }

    /// <summary>Owns one plugin handle; releases it with ak_plugin_destroy.</summary>
    public abstract class AnimKitHandle : SafeHandle
    {
        protected AnimKitHandle(IntPtr h) : base(IntPtr.Zero, true) { SetHandle(h); }
        public override bool IsInvalid { get { return handle == IntPtr.Zero; } }
        protected override bool ReleaseHandle() { return AnimKitNative.ak_plugin_destroy(handle) == 0; }
        /// <summary>The raw handle value (stays the old value after Dispose, so a use after
        /// dispose reaches the plugin, which reports it instead of crashing).</summary>
        public IntPtr Raw { get { return handle; } }
    }

    public sealed class SkeletonHandle : AnimKitHandle { public SkeletonHandle(IntPtr h) : base(h) { } }
    public sealed class ClipHandle : AnimKitHandle { public ClipHandle(IntPtr h) : base(h) { } }
    public sealed class CharacterHandle : AnimKitHandle { public CharacterHandle(IntPtr h) : base(h) { } }
    public sealed class FootIkHandle : AnimKitHandle { public FootIkHandle(IntPtr h) : base(h) { } }

    public static class AnimKitNative
    {
        // Resolves to libanimkit_unity.so (Linux) and animkit_unity.dll (Windows).
        public const string Lib = "animkit_unity";
        /// <summary>The ABI this binding was written for (AK_PLUGIN_ABI_VERSION).</summary>
        public const int ExpectedAbiVersion = 7;
        public const int HumanoidSlotCount = 21;
        const CallingConvention CC = CallingConvention.Cdecl;

        [DllImport(Lib, CallingConvention = CC)] public static extern int ak_plugin_abi_version();
        [DllImport(Lib, CallingConvention = CC)] public static extern int ak_plugin_live_handles();
        [DllImport(Lib, CallingConvention = CC)] public static extern int ak_plugin_last_error(IntPtr handle, byte[] buffer, int size);
        [DllImport(Lib, CallingConvention = CC)] public static extern int ak_plugin_destroy(IntPtr handle);

        [DllImport(Lib, CallingConvention = CC)]
        public static extern int ak_plugin_bvh_load(byte[] pathUtf8, float metresPerUnit, int loop,
            out IntPtr skeleton, out IntPtr clip, byte[] errorBuffer, int errorSize);
        [DllImport(Lib, CallingConvention = CC)]
        public static extern int ak_plugin_bvh_load_memory(byte[] text, int size, float metresPerUnit, int loop,
            out IntPtr skeleton, out IntPtr clip, byte[] errorBuffer, int errorSize);

        [DllImport(Lib, CallingConvention = CC)] public static extern int ak_plugin_skeleton_info_get(IntPtr skeleton, out AkSkeletonInfo info);
        [DllImport(Lib, CallingConvention = CC)] public static extern int ak_plugin_skeleton_joint_name(IntPtr skeleton, int joint, byte[] buffer, int size);
        [DllImport(Lib, CallingConvention = CC)] public static extern int ak_plugin_skeleton_parents(IntPtr skeleton, ref int parents, int count);
        [DllImport(Lib, CallingConvention = CC)] public static extern int ak_plugin_skeleton_find(IntPtr skeleton, byte[] nameUtf8, out int joint);
        [DllImport(Lib, CallingConvention = CC)] public static extern int ak_plugin_skeleton_rest_pose(IntPtr skeleton, ref AkXform local, int count);
        [DllImport(Lib, CallingConvention = CC)] public static extern int ak_plugin_skeleton_humanoid(IntPtr skeleton, byte[] overridesUtf8, ref int joints, int count);

        [DllImport(Lib, CallingConvention = CC)] public static extern int ak_plugin_clip_info_get(IntPtr clip, out AkClipInfo info);
        [DllImport(Lib, CallingConvention = CC)] public static extern int ak_plugin_clip_set_loop(IntPtr clip, int loop);
        [DllImport(Lib, CallingConvention = CC)]
        public static extern int ak_plugin_clip_root_joint(IntPtr clip, IntPtr skeleton, byte[] nameUtf8,
            out AkRootJointInfo info, byte[] buffer, int size);
        [DllImport(Lib, CallingConvention = CC)]
        public static extern int ak_plugin_clip_create(IntPtr skeleton, int frameCount, float frameTime, int loop,
            ref AkXform localFrames, int count, out IntPtr clip, byte[] errorBuffer, int errorSize);
        [DllImport(Lib, CallingConvention = CC)]
        public static extern int ak_plugin_clip_sample(IntPtr clip, IntPtr skeleton, float time, int interp, ref AkXform local, int count);
        [DllImport(Lib, CallingConvention = CC)]
        public static extern int ak_plugin_clip_sample_model(IntPtr clip, IntPtr skeleton, float time, int interp, ref AkXform model, int count);
        [DllImport(Lib, CallingConvention = CC)]
        public static extern int ak_plugin_fk(IntPtr skeleton, ref AkXform local, ref AkXform model, int count);
        [DllImport(Lib, CallingConvention = CC)]
        public static extern int ak_plugin_xforms_to_matrices(ref AkXform xforms, ref AkMat4 matrices, int count);
        [DllImport(Lib, CallingConvention = CC)]
        public static extern int ak_plugin_mirror_z(ref AkXform xforms, int count);

        [DllImport(Lib, CallingConvention = CC)] public static extern int ak_plugin_limb_ik_defaults(out AkLimbIkParams p);
        [DllImport(Lib, CallingConvention = CC)]
        public static extern int ak_plugin_limb_ik(IntPtr skeleton, ref AkLimbIkParams p, ref AkXform local,
            ref AkXform model, int count, out AkIkResult result);

        [DllImport(Lib, CallingConvention = CC)] public static extern int ak_plugin_look_at_defaults(out AkLookAtParams p);
        [DllImport(Lib, CallingConvention = CC)]
        public static extern int ak_plugin_look_at(IntPtr skeleton, ref int chain, ref float jointWeights, int chainLength,
            ref AkLookAtParams p, ref AkXform local, ref AkXform model, int count, out AkIkResult result);
        /// <summary>Look-at with even weights (jointWeights = NULL).</summary>
        [DllImport(Lib, CallingConvention = CC)]
        public static extern int ak_plugin_look_at(IntPtr skeleton, ref int chain, IntPtr noJointWeights, int chainLength,
            ref AkLookAtParams p, ref AkXform local, ref AkXform model, int count, out AkIkResult result);

        /// <summary>Room for the character's ground rays/hits (AK_PLUGIN_CHARACTER_MAX_RAYS);
        /// the number used is returned by ak_plugin_character_ground_rays.</summary>
        public const int CharacterMaxRays = 8;
        [DllImport(Lib, CallingConvention = CC)] public static extern int ak_plugin_character_defaults(out AkCharacterParams p);
        [DllImport(Lib, CallingConvention = CC)]
        public static extern int ak_plugin_character_create(IntPtr skeleton, IntPtr walkClip, IntPtr idleClip,
            ref AkCharacterParams p, out IntPtr character, byte[] errorBuffer, int errorSize);
        [DllImport(Lib, CallingConvention = CC)] public static extern int ak_plugin_character_info_get(IntPtr character, out AkCharacterInfo info);
        [DllImport(Lib, CallingConvention = CC)] public static extern int ak_plugin_character_set_target(IntPtr character, ref AkVec3 target);
        [DllImport(Lib, CallingConvention = CC)] public static extern int ak_plugin_character_begin(IntPtr character, float dt, out AkVec3 move);
        [DllImport(Lib, CallingConvention = CC)] public static extern int ak_plugin_character_set_position(IntPtr character, ref AkVec3 position);
        [DllImport(Lib, CallingConvention = CC)]
        public static extern int ak_plugin_character_ground_rays(IntPtr character, ref AkRay rays, int capacity, out int count);
        [DllImport(Lib, CallingConvention = CC)]
        public static extern int ak_plugin_character_finish(IntPtr character, ref AkGroundHit hits, int count);
        [DllImport(Lib, CallingConvention = CC)] public static extern int ak_plugin_character_state_get(IntPtr character, out AkCharacterState state);
        [DllImport(Lib, CallingConvention = CC)] public static extern int ak_plugin_character_summary_get(IntPtr character, out AkWalkSummary summary);
        [DllImport(Lib, CallingConvention = CC)]
        public static extern int ak_plugin_character_pose(IntPtr character, ref AkXform local, ref AkXform model, int count);
        /// <summary>Only the model pose (local = NULL).</summary>
        [DllImport(Lib, CallingConvention = CC)]
        public static extern int ak_plugin_character_pose(IntPtr character, IntPtr noLocal, ref AkXform model, int count);
        /// <summary>Only the local pose (model = NULL).</summary>
        [DllImport(Lib, CallingConvention = CC)]
        public static extern int ak_plugin_character_pose(IntPtr character, ref AkXform local, IntPtr noModel, int count);
        [DllImport(Lib, CallingConvention = CC)]
        public static extern int ak_plugin_character_world_pose(IntPtr character, ref AkXform world, int count);

        public const int FootIkRayCount = 2;
        [DllImport(Lib, CallingConvention = CC)] public static extern int ak_plugin_foot_ik_defaults(out AkFootIkParams p);
        [DllImport(Lib, CallingConvention = CC)]
        public static extern int ak_plugin_foot_ik_create(IntPtr skeleton, IntPtr clip, ref AkFootIkParams p,
            out IntPtr footIk, byte[] errorBuffer, int errorSize);
        [DllImport(Lib, CallingConvention = CC)]
        public static extern int ak_plugin_foot_ik_rays(IntPtr footIk, float time, ref AkXform character, ref AkXform model,
            int count, ref AkRay rays, int capacity, out int rayCount);
        [DllImport(Lib, CallingConvention = CC)]
        public static extern int ak_plugin_foot_ik_apply(IntPtr footIk, float dt, ref AkGroundHit hits, int hitCount,
            ref AkXform local, ref AkXform model, int count);
        [DllImport(Lib, CallingConvention = CC)] public static extern int ak_plugin_foot_ik_state_get(IntPtr footIk, out AkFootIkState state);
        [DllImport(Lib, CallingConvention = CC)] public static extern int ak_plugin_foot_ik_set_stance(IntPtr footIk, int left, int right);
        [DllImport(Lib, CallingConvention = CC)]
        public static extern int ak_plugin_foot_ik_contact_points(IntPtr footIk, ref AkXform character, ref AkXform model,
                                                                  int count, [Out] AkVec3[] heel, [Out] AkVec3[] toe);

        // ---- helpers ----

        /// <summary>The first element of `a` by reference: what an array parameter (`ref T`) of
        /// the imports above takes, e.g. `ref AnimKitNative.First(local)`. The marshaller passes
        /// its address, pinned for the call. A null or empty array has no first element:
        /// ArgumentException.</summary>
        public static ref T First<T>(T[] a) where T : struct
        {
            if (a == null || a.Length == 0)
                throw new ArgumentException("animkit: an array argument is null or empty");
            return ref a[0];
        }

        /// <summary>NUL-terminated UTF-8 bytes of s (null stays null).</summary>
        public static byte[] Utf8(string s)
        {
            if (s == null) return null;
            int n = Encoding.UTF8.GetByteCount(s);
            byte[] b = new byte[n + 1];
            Encoding.UTF8.GetBytes(s, 0, s.Length, b, 0);
            return b;
        }

        /// <summary>Text of a NUL-terminated UTF-8 buffer.</summary>
        public static string FromUtf8(byte[] b)
        {
            int n = Array.IndexOf(b, (byte)0);
            return Encoding.UTF8.GetString(b, 0, n < 0 ? b.Length : n);
        }

        /// <summary>The plugin's last error text for a handle.</summary>
        public static string LastError(IntPtr handle)
        {
            byte[] buf = new byte[512];
            ak_plugin_last_error(handle, buf, buf.Length);
            return FromUtf8(buf);
        }

        /// <summary>Throws AnimKitException when status is an error; the text comes from the
        /// plugin's last error on `handle`.</summary>
        public static void Check(int status, IntPtr handle)
        {
            if (status >= 0) return;
            throw new AnimKitException((AkStatus)status, LastError(handle));
        }
    }
}
