// C# tests of the retargeting bindings (Runtime/Core/Retargeter.cs) against the real plugin.
using System;
using AnimKit;

static partial class PluginTests
{
    // Largest position difference between two clips on one skeleton, sampled per frame.
    static double MaxPoseDifference(Skeleton s, Clip a, Clip b)
    {
        var wa = new AkXform[s.JointCount];
        var wb = new AkXform[s.JointCount];
        double worst = 0;
        for (int f = 0; f < a.FrameCount; ++f)
        {
            a.SampleModel(s, f * a.FrameTime, Interpolation.Step, wa);
            b.SampleModel(s, f * b.FrameTime, Interpolation.Step, wb);
            for (int j = 0; j < s.JointCount; ++j)
            {
                double dx = wa[j].position.x - wb[j].position.x, dy = wa[j].position.y - wb[j].position.y,
                       dz = wa[j].position.z - wb[j].position.z;
                worst = Math.Max(worst, Math.Sqrt(dx * dx + dy * dy + dz * dz));
            }
        }
        return worst;
    }

    // A rig handed over as arrays (names, parents, rest pose in Unity's frame) is the same rig
    // as the BVH it came from: the CMU walk retargeted onto either gives the same motion.
    [Test] static void retarget_clip_onto_rig_from_arrays_matches_bvh_rig()
    {
        int live = AnimKitLibrary.LiveHandles;
        using (BvhFile cmu = BvhFile.Load(Mocap("cmu_02_01_walk.bvh"), 0f, false))
        using (BvhFile louise = BvhFile.Load(Mocap("arena_louise_stand_walk_cycle.bvh")))
        {
            var rest = new AkXform[louise.Skeleton.JointCount];
            louise.Skeleton.RestPose(rest);
            using (Skeleton rig = Retarget.SkeletonFromArrays(louise.Skeleton.JointNames, louise.Skeleton.Parents, rest))
            {
                AkRetargetParams p = Retarget.Defaults();
                True(p.contacts == 1 && p.scale == 1f && float.IsNaN(p.floorHeight), "defaults from the C library");
                using (Clip onArrays = Retarget.RetargetClip(cmu.Skeleton, cmu.Clip, rig, p))
                using (Clip onBvh = Retarget.RetargetClip(cmu.Skeleton, cmu.Clip, louise.Skeleton, p))
                {
                    True(onArrays.FrameCount == cmu.Clip.FrameCount, "one output frame per source frame");
                    // float rest pose through two mirrors: 1e-5 m
                    Near(MaxPoseDifference(rig, onArrays, onBvh), 0.0, 1e-5, "arrays rig vs BVH rig");
                }
                Throws<AnimKitException>(() => Retarget.RetargetClip(cmu.Skeleton, cmu.Clip, rig, p, null,
                    "left_foot=NoSuchJoint"), "an override naming a missing joint");
            }
            Throws<AnimKitException>(() => Retarget.SkeletonFromArrays(new[] { "A", "B" }, new[] { 1, -1 },
                new AkXform[2]), "a parent after its child");
        }
        True(AnimKitLibrary.LiveHandles == live, "every handle released");
    }

    // The live retargeter gives, frame by frame, what whole-clip retargeting gives with
    // contacts off.
    [Test] static void live_retargeter_matches_clip_retarget_without_contacts()
    {
        using (BvhFile cmu = BvhFile.Load(Mocap("cmu_02_01_walk.bvh"), 0f, false))
        using (BvhFile louise = BvhFile.Load(Mocap("arena_louise_stand_walk_cycle.bvh")))
        {
            AkRetargetParams p = Retarget.Defaults();
            p.contacts = 0;
            using (Clip clip = Retarget.RetargetClip(cmu.Skeleton, cmu.Clip, louise.Skeleton, p))
            using (var live = new Retargeter(cmu.Skeleton, louise.Skeleton, p))
            {
                int ns = cmu.Skeleton.JointCount, nt = louise.Skeleton.JointCount;
                var src = new AkXform[ns];
                var dst = new AkXform[nt];
                var w1 = new AkXform[nt];
                var w2 = new AkXform[nt];
                double worst = 0;
                for (int f = 0; f < cmu.Clip.FrameCount; f += 7)
                {
                    cmu.Clip.Sample(cmu.Skeleton, f * cmu.Clip.FrameTime, Interpolation.Step, src);
                    live.Pose(src, dst);
                    louise.Skeleton.Fk(dst, w1);
                    clip.SampleModel(louise.Skeleton, f * clip.FrameTime, Interpolation.Step, w2);
                    for (int j = 0; j < nt; ++j)
                        worst = Math.Max(worst, Math.Abs(w1[j].position.x - w2[j].position.x) +
                            Math.Abs(w1[j].position.y - w2[j].position.y) + Math.Abs(w1[j].position.z - w2[j].position.z));
                }
                Near(worst, 0.0, 1e-5, "live pose vs clip pose (m)");
                Throws<AnimKitException>(() => live.Pose(new AkXform[ns - 1], dst), "a short source buffer");
            }
        }
    }
}
