// The AnimationClip baker on a small Generic rig: the baked AnimKitClip has one frame per
// 1/frameRate of the clip, the clip's loop flag, and each bone's local rotation as the clip
// poses it (the keys' own values at key times); played back on the rig through the plugin it
// poses the bones as the clip does.
using AnimKit.Editor;
using AnimKit.Unity;
using NUnit.Framework;
using UnityEditor;
using UnityEngine;

namespace AnimKit.Tests
{
    [TestFixture]
    public class AnimationClipBakerTests
    {
        static Transform Child(string name, Transform parent, Vector3 local)
        {
            Transform t = new GameObject(name).transform;
            t.SetParent(parent, false);
            t.localPosition = local;
            return t;
        }

        [Test]
        public void A_clip_bakes_to_the_poses_it_gives_the_bones()
        {
            var go = new GameObject("Character");
            Transform hips = Child("Hips", go.transform, new Vector3(0f, 1f, 0f));
            Transform spine = Child("Spine", hips, new Vector3(0f, 0.2f, 0f));
            Child("Head", spine, new Vector3(0f, 0.4f, 0f));
            // The hips turn 90 degrees about Y over 1 s (keys at 0, 0.5, 1: w, y of the quaternion).
            float s45 = Mathf.Sin(22.5f * Mathf.Deg2Rad), c45 = Mathf.Cos(22.5f * Mathf.Deg2Rad);
            float s90 = Mathf.Sin(45f * Mathf.Deg2Rad), c90 = Mathf.Cos(45f * Mathf.Deg2Rad);
            var clip = new AnimationClip { frameRate = 10f };
            clip.SetCurve("Hips", typeof(Transform), "m_LocalRotation.x", new AnimationCurve(new Keyframe(0f, 0f), new Keyframe(1f, 0f)));
            clip.SetCurve("Hips", typeof(Transform), "m_LocalRotation.y", new AnimationCurve(new Keyframe(0f, 0f), new Keyframe(0.5f, s45), new Keyframe(1f, s90)));
            clip.SetCurve("Hips", typeof(Transform), "m_LocalRotation.z", new AnimationCurve(new Keyframe(0f, 0f), new Keyframe(1f, 0f)));
            clip.SetCurve("Hips", typeof(Transform), "m_LocalRotation.w", new AnimationCurve(new Keyframe(0f, 1f), new Keyframe(0.5f, c45), new Keyframe(1f, c90)));
            AnimationClipSettings settings = AnimationUtility.GetAnimationClipSettings(clip);
            settings.loopTime = true;
            AnimationUtility.SetAnimationClipSettings(clip, settings);

            AnimKitClip baked = AnimationClipBaker.Bake(go, clip);
            Assert.AreEqual(11, baked.FrameCount, "1 s at the clip's 10 frames per second");
            Assert.IsTrue(baked.loop);
            int h = System.Array.IndexOf(baked.jointNames, "Hips");
            Assert.GreaterOrEqual(h, 0);
            int o = (5 * baked.jointNames.Length + h) * 7; // frame 5 = 0.5 s, a key
            Assert.AreEqual(s45, baked.poses[o + 1], 1e-6, "hips y at 0.5 s");
            Assert.AreEqual(c45, baked.poses[o + 3], 1e-6, "hips w at 0.5 s");
            Assert.AreEqual(1f, baked.poses[o + 5], 1e-6, "hips height kept");

            // Played back on a rig of the same character, at rest again.
            hips.localRotation = Quaternion.identity;
            using (var rig = new TransformRig(go.transform, null, null, ""))
            using (Clip c = baked.ToClip(rig))
            {
                c.Sample(rig.Skeleton, 1f, Interpolation.Linear, rig.Local);
                rig.WriteLocal();
                Assert.AreEqual(s90, hips.localRotation.y, 1e-5);
                Assert.AreEqual(c90, hips.localRotation.w, 1e-5);
            }
            Object.DestroyImmediate(go);
        }
    }
}
