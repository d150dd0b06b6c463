// animkit — retargeting from C#: rigs from arrays or glTF skins, whole clips retargeted onto
// another rig (stance feet kept planted), and a live per-frame Retargeter. Bindings for the
// retargeting part of include/animkit/plugin.h; same rules as AnimKitNative.cs (blittable
// arguments only, UTF-8 byte arrays for text, handles in SafeHandles). No UnityEngine here.
using System;
using System.Runtime.InteropServices;
using System.Text;

namespace AnimKit
{
    /// <summary>ak_plugin_retarget_params: start from Retarget.Defaults().</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct AkRetargetParams
    {
        /// <summary>Extra scale on top of the leg-length ratio (1).</summary>
        public float scale;
        /// <summary>Unity Y of the target's floor; NaN (default) carries the source's floor over.</summary>
        public float floorHeight;
        /// <summary>1: stance feet pinned with limb IK (whole-clip retargeting only).</summary>
        public int contacts;
        /// <summary>1: hands that hold still are pinned too.</summary>
        public int pinHands;
        /// <summary>Seconds a pin fades in before / out after its stance (0.1).</summary>
        public float fadeTime;
        /// <summary>Source frame used as the reference pose for whole-clip retargeting; -1
        /// (default): picked by measure (the zero pose when it stands, else the most upright
        /// frame).</summary>
        public int referenceFrame;
    }

    public sealed class RetargeterHandle : AnimKitHandle { public RetargeterHandle(IntPtr h) : base(h) { } }

    static class RetargetNative
    {
        const CallingConvention CC = CallingConvention.Cdecl;
        const string Lib = AnimKitNative.Lib;

        [DllImport(Lib, CallingConvention = CC)]
        public static extern int ak_plugin_skeleton_create(int count, byte[] names, int namesSize, ref int parents,
            ref AkXform restLocal, out IntPtr skeleton, byte[] errorBuffer, int errorSize);
        [DllImport(Lib, CallingConvention = CC)]
        public static extern int ak_plugin_gltf_skin_load(byte[] pathUtf8, int skin, out IntPtr skeleton,
            byte[] errorBuffer, int errorSize);
        [DllImport(Lib, CallingConvention = CC)] public static extern int ak_plugin_retarget_defaults(out AkRetargetParams p);
        [DllImport(Lib, CallingConvention = CC)]
        public static extern int ak_plugin_retarget_clip(IntPtr sourceSkeleton, IntPtr sourceClip, IntPtr targetSkeleton,
            byte[] sourceOverrides, byte[] targetOverrides, ref AkRetargetParams p, out IntPtr clip,
            byte[] errorBuffer, int errorSize);
        [DllImport(Lib, CallingConvention = CC)]
        public static extern int ak_plugin_retargeter_create(IntPtr sourceSkeleton, IntPtr targetSkeleton,
            byte[] sourceOverrides, byte[] targetOverrides, ref AkRetargetParams p, out IntPtr retargeter,
            byte[] errorBuffer, int errorSize);
        [DllImport(Lib, CallingConvention = CC)]
        public static extern int ak_plugin_retargeter_pose(IntPtr retargeter, ref AkXform sourceLocal, int sourceCount,
            ref AkXform targetLocal, int targetCount);

        public static void ThrowIf(int status, byte[] err)
        {
            if (status < 0) throw new AnimKitException((AkStatus)status, AnimKitNative.FromUtf8(err));
        }
    }

    /// <summary>Rigs and whole-clip retargeting.</summary>
    public static class Retarget
    {
        public static AkRetargetParams Defaults()
        {
            AkRetargetParams p;
            AnimKitNative.Check(RetargetNative.ak_plugin_retarget_defaults(out p), IntPtr.Zero);
            return p;
        }

        /// <summary>A rig from joint names, parents (-1 for a root, parents first, depth-first
        /// order) and rest local transforms in Unity's frame (metres), e.g. a character's bone
        /// Transforms' localRotation/localPosition in its rest (T- or A-) pose.</summary>
        public static Skeleton SkeletonFromArrays(string[] names, int[] parents, AkXform[] restLocal)
        {
            AnimKitLibrary.CheckAbi();
            if (names.Length == 0 || parents.Length != names.Length || restLocal.Length != names.Length)
                throw new ArgumentException("names, parents and restLocal need one entry per joint");
            var bytes = new System.Collections.Generic.List<byte>();
            foreach (string n in names) { bytes.AddRange(Encoding.UTF8.GetBytes(n ?? "")); bytes.Add(0); }
            byte[] packed = bytes.ToArray(), err = new byte[512];
            IntPtr raw;
            int st = RetargetNative.ak_plugin_skeleton_create(names.Length, packed, packed.Length,
                ref AnimKitNative.First(parents), ref AnimKitNative.First(restLocal), out raw, err, err.Length);
            RetargetNative.ThrowIf(st, err);
            return new Skeleton(raw);
        }

        /// <summary>A rig from a glTF/GLB skin: its joints in the bind pose, metres.</summary>
        public static Skeleton LoadGltfSkin(string path, int skin = 0)
        {
            AnimKitLibrary.CheckAbi();
            byte[] err = new byte[512];
            IntPtr raw;
            int st = RetargetNative.ak_plugin_gltf_skin_load(AnimKitNative.Utf8(path), skin, out raw, err, err.Length);
            RetargetNative.ThrowIf(st, err);
            return new Skeleton(raw);
        }

        /// <summary>`clip` (of `source`) played on `target`: a new clip for the target rig, with
        /// stance feet planted when p.contacts is 1. Overrides "slot=Joint,..." fix the
        /// humanoid maps where names are not recognised (null: none).</summary>
        public static Clip RetargetClip(Skeleton source, Clip clip, Skeleton target, AkRetargetParams p,
            string sourceOverrides = null, string targetOverrides = null)
        {
            byte[] err = new byte[512];
            IntPtr raw;
            int st = RetargetNative.ak_plugin_retarget_clip(source.Handle.Raw, clip.Handle.Raw, target.Handle.Raw,
                AnimKitNative.Utf8(sourceOverrides), AnimKitNative.Utf8(targetOverrides), ref p, out raw, err, err.Length);
            RetargetNative.ThrowIf(st, err);
            return new Clip(raw);
        }
    }

    /// <summary>Live retargeting, one pose at a time (no contact pinning: that needs the whole
    /// clip; use Retarget.RetargetClip for it). Pose allocates nothing.</summary>
    public sealed class Retargeter : IDisposable
    {
        public readonly RetargeterHandle Handle;
        public readonly int SourceJointCount, TargetJointCount;

        public Retargeter(Skeleton source, Skeleton target, AkRetargetParams p, string sourceOverrides = null,
            string targetOverrides = null)
        {
            byte[] err = new byte[512];
            IntPtr raw;
            int st = RetargetNative.ak_plugin_retargeter_create(source.Handle.Raw, target.Handle.Raw,
                AnimKitNative.Utf8(sourceOverrides), AnimKitNative.Utf8(targetOverrides), ref p, out raw, err, err.Length);
            RetargetNative.ThrowIf(st, err);
            Handle = new RetargeterHandle(raw);
            SourceJointCount = source.JointCount;
            TargetJointCount = target.JointCount;
        }

        /// <summary>Source local pose in (Unity frame), target local pose out.</summary>
        public void Pose(AkXform[] sourceLocal, AkXform[] targetLocal)
        {
            AnimKitNative.Check(RetargetNative.ak_plugin_retargeter_pose(Handle.Raw, ref AnimKitNative.First(sourceLocal),
                sourceLocal.Length, ref AnimKitNative.First(targetLocal), targetLocal.Length), Handle.Raw);
        }

        public void Dispose() { Handle.Dispose(); }
    }
}
