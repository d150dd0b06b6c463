// BvhAnimation: the joint hierarchy and the AnimationClip built from a BVH pose the
// Transforms exactly as the plugin does (checked at every frame and half-way between
// frames, where Unity's per-component quaternion interpolation meets the plugin's slerp).
using NUnit.Framework;
using AnimKit.Unity;
using UnityEngine;

namespace AnimKit.Tests
{
    [TestFixture]
    public class BvhAnimationTests
    {
        GameObject m_root;

        [TearDown]
        public void DestroyRoot()
        {
            if (m_root != null) Object.DestroyImmediate(m_root);
            m_root = null;
        }

        /// <summary>Largest distance between each joint Transform's position and the plugin's
        /// model-space pose at `time` (linear sampling), over all joints.</summary>
        public static float WorstJointError(BvhFile bvh, Transform[] joints, float time)
        {
            AkXform[] world = new AkXform[bvh.Skeleton.JointCount];
            bvh.Clip.SampleModel(bvh.Skeleton, time, Interpolation.Linear, world);
            float worst = 0f;
            for (int j = 0; j < joints.Length; ++j)
                worst = Mathf.Max(worst, Vector3.Distance(joints[j].position, world[j].position.ToUnity()));
            return worst;
        }

        [Test]
        public void Hierarchy_has_one_transform_per_joint_at_the_rest_pose()
        {
            using (BvhFile bvh = BvhFile.LoadText(TestBvh.Bytes))
            {
                m_root = new GameObject("TestBvh");
                Transform[] joints = BvhAnimation.CreateHierarchy(bvh.Skeleton, m_root.transform);
                Assert.AreEqual(TestBvh.JointCount, joints.Length);
                string[] paths = BvhAnimation.JointPaths(bvh.Skeleton);
                Assert.AreEqual("Hips/LeftUpLeg/LeftLeg/LeftLeg_end", paths[6]);
                for (int j = 0; j < joints.Length; ++j)
                {
                    Assert.AreEqual(bvh.Skeleton.JointNames[j], joints[j].name);
                    Assert.AreSame(joints[j], m_root.transform.Find(paths[j]), paths[j]);
                }
                // Rest pose: the shin is 45 cm long, straight down.
                Assert.AreEqual(-0.45f, joints[6].localPosition.y, 1e-6f);
            }
        }

        [Test]
        public void Runtime_clip_from_bytes_poses_the_hierarchy_like_the_plugin()
        {
            using (BvhFile bvh = BvhFile.LoadText(TestBvh.Bytes))
            {
                m_root = new GameObject("TestBvh");
                Transform[] joints = BvhAnimation.CreateHierarchy(bvh.Skeleton, m_root.transform);
                AnimationClip clip = BvhAnimation.CreateClip(bvh, true);
                Assert.IsTrue(clip.legacy);
                Assert.AreEqual(WrapMode.Loop, clip.wrapMode);
                Assert.AreEqual(1f / TestBvh.FrameTime, clip.frameRate, 1e-3f);
                float dt = bvh.Clip.FrameTime;
                for (int half = 0; half < 2 * (TestBvh.FrameCount - 1) + 1; ++half)
                {
                    float t = half * 0.5f * dt;
                    clip.SampleAnimation(m_root, t);
                    Assert.Less(WorstJointError(bvh, joints, t), 1e-5f, "t = " + t);
                }
            }
        }
    }
}
