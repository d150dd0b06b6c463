// A clip baked for animkit from the character's own animation: the local pose of each mapped
// bone (TransformRig order, names) at a fixed frame rate, kept as an asset. The walkers take it
// as their walk or idle clip on the user's own rig. It is baked at edit time from a Unity
// AnimationClip (Assets > animkit > Bake AnimationClip for the selected character, which
// samples the clip on the character with AnimationClip.SampleAnimation) or from any function
// that poses the rig (Bake below), e.g. a Timeline or a procedural animation in a test.
using UnityEngine;

namespace AnimKit.Unity
{
    [CreateAssetMenu(menuName = "animkit/Baked Clip", fileName = "BakedClip")]
    public class AnimKitClip : ScriptableObject
    {
        [Tooltip("The mapped bones' names, in the rig order the clip was baked on.")]
        public string[] jointNames = new string[0];
        [Tooltip("Seconds per frame.")]
        public float frameTime = 1f / 30f;
        [Tooltip("The clip loops (a walk cycle) or holds its last frame.")]
        public bool loop = true;
        [Tooltip("frameCount x jointNames.Length local transforms, frame-major: each 7 floats " +
                 "(rotation x,y,z,w then position x,y,z; each bone relative to its mapped parent bone in the bones' own " +
                 "frames, as TransformRig.ToBoneLocal gives it; Unity frame, metres).")]
        [HideInInspector] public float[] poses = new float[0];

        public int FrameCount { get { return jointNames.Length == 0 ? 0 : poses.Length / (7 * jointNames.Length); } }

        /// <summary>Samples `poseAt(t)` for t = 0, dt, ... up to `length` seconds (frameRate
        /// frames per second) and keeps the rig's local pose of each. `poseAt` poses the
        /// character's Transforms (AnimationClip.SampleAnimation, a script, ...); the rig reads
        /// them after each call. The rig's bones end as the last sample left them.</summary>
        public static AnimKitClip Bake(TransformRig rig, System.Action<float> poseAt, float length, float frameRate, bool loop)
        {
            if (rig == null || poseAt == null) throw new System.ArgumentNullException(rig == null ? "rig" : "poseAt");
            if (!(frameRate > 0f) || !(length >= 0f)) throw new System.ArgumentException("frameRate must be > 0 and length >= 0");
            int frames = Mathf.Max(1, Mathf.RoundToInt(length * frameRate) + 1);
            int n = rig.Bones.Length;
            AnimKitClip clip = CreateInstance<AnimKitClip>();
            clip.frameTime = 1f / frameRate;
            clip.loop = loop;
            clip.jointNames = (string[])rig.Skeleton.JointNames.Clone();
            clip.poses = new float[frames * n * 7];
            for (int f = 0; f < frames; ++f)
            {
                poseAt(Mathf.Min(f * clip.frameTime, length));
                rig.Read();
                for (int j = 0; j < n; ++j)
                {
                    int o = (f * n + j) * 7;
                    AkXform x = rig.ToBoneLocal(j, rig.Local[j]);
                    clip.poses[o] = x.rotation.x; clip.poses[o + 1] = x.rotation.y;
                    clip.poses[o + 2] = x.rotation.z; clip.poses[o + 3] = x.rotation.w;
                    clip.poses[o + 4] = x.position.x; clip.poses[o + 5] = x.position.y; clip.poses[o + 6] = x.position.z;
                }
            }
            return clip;
        }

        /// <summary>The clip on `rig` (joints matched by name, converted to the rig's frames;
        /// joints the clip lacks keep the rig's rest pose). The caller owns the result. Throws
        /// AnimKitException.</summary>
        public Clip ToClip(TransformRig rig)
        {
            Skeleton skeleton = rig.Skeleton;
            int frames = FrameCount, n = skeleton.JointCount, m = jointNames.Length;
            if (frames < 1 || poses.Length != frames * m * 7)
                throw new AnimKitException(AkStatus.InvalidArg, "AnimKitClip '" + name + "': no frames or a broken pose array");
            string[] names = skeleton.JointNames;
            int[] from = new int[n];
            int found = 0;
            for (int j = 0; j < n; ++j)
            {
                from[j] = System.Array.IndexOf(jointNames, names[j]);
                if (from[j] >= 0) ++found;
            }
            if (found == 0)
                throw new AnimKitException(AkStatus.InvalidArg, "AnimKitClip '" + name + "': none of its joints is in the rig (baked on another character?)");
            var rest = new AkXform[n];
            skeleton.RestPose(rest);
            var local = new AkXform[frames * n];
            for (int f = 0; f < frames; ++f)
                for (int j = 0; j < n; ++j)
                {
                    if (from[j] < 0) { local[f * n + j] = rest[j]; continue; }
                    int o = (f * m + from[j]) * 7;
                    AkXform bone;
                    bone.rotation = new AkQuat(poses[o], poses[o + 1], poses[o + 2], poses[o + 3]);
                    bone.position = new AkVec3(poses[o + 4], poses[o + 5], poses[o + 6]);
                    local[f * n + j] = rig.FromBoneLocal(j, bone);
                }
            return Clip.FromPoses(skeleton, local, frames, frameTime, loop);
        }
    }
}
