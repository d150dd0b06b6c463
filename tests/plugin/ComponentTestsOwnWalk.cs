// The walkers on a character's own rig and clips (issue 24), no BvhPlayer: the
// Unity-Humanoid-shaped fake rig (ComponentTestsRig.cs) gets a walk AnimationClip of its own
// (Transform curves on every bone, twist bones included, made here from the CMU walk
// retargeted onto it, as a user's clip would come from their DCC tool); the clip is baked
// through AnimationClip.SampleAnimation into an AnimKitClip (the runtime half of the editor
// baker), the baked clip must give back the clip's poses, and GuideWalker and
// MotionMatchingWalker (the baked clip plus a second CMU walk retargeted onto the rig) with FootIK must walk the rig to a target over the sine terrain through
// CharacterController.Move, the bones following the walker's pose.
using System;
using System.Collections.Generic;
using AnimKit;
using AnimKit.Unity;
using UnityEngine;

static partial class ComponentTests
{
    static string PathFrom(Transform root, Transform t)
    {
        string p = t.name;
        for (Transform a = t.parent; a != null && a != root; a = a.parent) p = a.name + "/" + p;
        return p;
    }

    // An AnimationClip with Transform curves on every bone under go, from `clip` on `rig`.
    static AnimationClip CurvesOf(GameObject go, TransformRig rig, Clip clip, float frameRate)
    {
        Transform[] all = HumanoidRetargeter.CollectBones(go.transform);
        var restRot = new Quaternion[all.Length];
        var restPos = new Vector3[all.Length];
        for (int i = 0; i < all.Length; ++i) { restRot[i] = all[i].localRotation; restPos[i] = all[i].localPosition; }
        int frames = (int)(clip.Duration * frameRate) + 1;
        var keys = new Keyframe[all.Length * 7][];
        for (int k = 0; k < keys.Length; ++k) keys[k] = new Keyframe[frames];
        for (int f = 0; f < frames; ++f)
        {
            float t = f / frameRate;
            clip.Sample(rig.Skeleton, t, Interpolation.Linear, rig.Local);
            rig.WriteLocal();
            for (int i = 1; i < all.Length; ++i)
            {
                Quaternion q = all[i].localRotation;
                Vector3 p = all[i].localPosition;
                float[] v = { q.x, q.y, q.z, q.w, p.x, p.y, p.z };
                for (int c = 0; c < 7; ++c) keys[i * 7 + c][f] = new Keyframe(t, v[c]);
            }
        }
        var anim = new AnimationClip { legacy = true, frameRate = frameRate };
        string[] props = { "m_LocalRotation.x", "m_LocalRotation.y", "m_LocalRotation.z", "m_LocalRotation.w",
                           "m_LocalPosition.x", "m_LocalPosition.y", "m_LocalPosition.z" };
        // Smooth tangents, as Unity's "Auto" keys (slope of the neighbours): zero tangents would
        // stall every value at every key and double its speed between keys.
        foreach (Keyframe[] k in keys)
            for (int f = 0; f < frames; ++f)
            {
                int a = Math.Max(0, f - 1), z = Math.Min(frames - 1, f + 1);
                float slope = z > a ? (k[z].value - k[a].value) / (k[z].time - k[a].time) : 0f;
                k[f] = new Keyframe(k[f].time, k[f].value, slope, slope);
            }
        for (int i = 1; i < all.Length; ++i)
            for (int c = 0; c < 7; ++c)
                anim.SetCurve(PathFrom(go.transform, all[i]), typeof(Transform), props[c], new AnimationCurve(keys[i * 7 + c]));
        for (int i = 0; i < all.Length; ++i) { all[i].localRotation = restRot[i]; all[i].localPosition = restPos[i]; }
        return anim;
    }

    static void OwnRigWalk(bool matching)
    {
        string label = matching ? "MotionMatchingWalker" : "GuideWalker";
        int live = AnimKitLibrary.LiveHandles, errors = Debug.ErrorCount;
        FakeRig r = HumanoidLikeRig();
        GameObject go = r.go;
        Animator animator = go.GetComponent<Animator>();

        // The user's clip: the CMU walk retargeted onto this rig, written as Transform curves.
        var rig = new TransformRig(go.transform, animator, null, "");
        BvhFile capture = BvhFile.Load(MocapPath("cmu_02_01_walk.bvh"));
        AkRetargetParams rp = Retarget.Defaults();
        rp.contacts = 1;
        Clip source = Retarget.RetargetClip(capture.Skeleton, capture.Clip, rig.Skeleton, rp);
        AnimationClip anim = CurvesOf(go, rig, source, 30f);

        // Bake it the way the editor baker does (SampleAnimation on the character), then check
        // the baked clip gives the clip's poses back: feet and hands of the source, every 10th frame.
        AnimKitClip baked = AnimKitClip.Bake(rig, t => anim.SampleAnimation(go, t), anim.length, 30f, true);
        Clip back = baked.ToClip(rig);
        int n = rig.Skeleton.JointCount;
        AkXform[] a = new AkXform[n], b = new AkXform[n], wa = new AkXform[n], wb = new AkXform[n];
        double worstBake = 0;
        for (int f = 0; f < baked.FrameCount; f += 10)
        {
            source.Sample(rig.Skeleton, f / 30f, Interpolation.Linear, a);
            back.Sample(rig.Skeleton, f / 30f, Interpolation.Linear, b);
            rig.Skeleton.Fk(a, wa);
            rig.Skeleton.Fk(b, wb);
            for (int j = 0; j < n; ++j) worstBake = Math.Max(worstBake, (wa[j].position.ToUnity() - wb[j].position.ToUnity()).magnitude);
        }
        back.Dispose();
        source.Dispose();
        capture.Dispose();
        rig.Dispose();
        Check(baked.FrameCount > 30 && worstBake < 1e-4, label + ": the AnimationClip baked through SampleAnimation gives its poses back (" +
              baked.FrameCount + " frames, worst joint " + worstBake.ToString("E2") + " m)");

        // Back to the rest pose the rig was built in, as a prefab would be, then walk.
        var restRig = HumanoidLikeRig();
        Transform[] src = HumanoidRetargeter.CollectBones(restRig.go.transform), dst = HumanoidRetargeter.CollectBones(go.transform);
        for (int i = 1; i < dst.Length; ++i) { dst[i].localRotation = src[i].localRotation; dst[i].localPosition = src[i].localPosition; }

        CharacterController.TestGround = GroundY;
        Physics.TestRaycast = (Vector3 o, Vector3 d, float max, out RaycastHit hit) =>
        {
            hit = new RaycastHit();
            float y = GroundY(o.x, o.z);
            if (d.y > -0.99f || o.y < y || o.y - y > max) return false;
            double dx = 0.125 * Math.Cos(0.5 * o.x), dz = -0.08 * Math.Sin(0.4 * o.z), nn = Math.Sqrt(dx * dx + 1 + dz * dz);
            hit.point = new Vector3(o.x, y, o.z);
            hit.normal = new Vector3((float)(-dx / nn), (float)(1 / nn), (float)(-dz / nn));
            hit.distance = o.y - y;
            return true;
        };
        Time.deltaTime = 1f / 60f;
        go.transform.position = new Vector3(0f, GroundY(0f, 0f), 0f);
        go.AddComponent<CharacterController>();
        go.AddComponent<FootIK>();
        Transform target = new GameObject("WalkTarget").transform;
        target.position = new Vector3(2.5f, 0f, 3.5f);
        GuideWalker gw = null;
        MotionMatchingWalker mm = null;
        MonoBehaviour walker;
        if (matching)
        {
            mm = go.AddComponent<MotionMatchingWalker>();
            mm.ownRig.walkClip = baked;
            // A second capture, retargeted onto the rig at Start (the BVH path of ownRig).
            mm.extraClips = new[] { new TextAsset(System.IO.File.ReadAllBytes(MocapPath(System.IO.Path.Combine("locomotion", "cmu_02_02_walk.bvh")))) };
            mm.target = target;
            walker = mm;
        }
        else
        {
            gw = go.AddComponent<GuideWalker>();
            gw.ownRig.walkClip = baked;
            gw.target = target;
            walker = gw;
        }
        Call(walker, "Start");
        TransformRig own = matching ? mm.Rig : gw.Rig;
        Check(own != null && Debug.ErrorCount == errors, label + " maps the character's own rig (no BvhPlayer)");
        if (own == null) return;
        int leftFoot = own.Humanoid[(int)HumanoidSlot.LeftFoot];
        AkXform[] world = new AkXform[own.Skeleton.JointCount];
        double worstBone = 0, deepest = 0;
        int frames = 0;
        Func<bool> stopped = () => matching ? mm.State.stopped != 0 : gw.State.stopped != 0;
        for (; frames < 60 * 25 && !stopped(); ++frames)
        {
            Call(walker, "Update");
            Call(walker, "LateUpdate");
            // The bones carry the walker's pose: the left ankle where the walker's world pose has it.
            if (!matching)
            {
                gw.Character.WorldPose(world);
                worstBone = Math.Max(worstBone, (own.Bones[leftFoot].position - world[leftFoot].position.ToUnity()).magnitude);
            }
            Vector3 ankle = own.Bones[leftFoot].position;
            deepest = Math.Max(deepest, GroundY(ankle.x, ankle.z) - ankle.y);
        }
        // Unity's convention holds on the own rig: the GameObject's forward (+Z) is where the
        // character faces, and so is the body's own front (left hip -> right hip, x up).
        Vector3 facing = (matching ? mm.State.facing : gw.State.facing).ToUnity();
        Vector3 hipsRight = own.Bones[own.Humanoid[(int)HumanoidSlot.RightUpperLeg]].position -
                            own.Bones[own.Humanoid[(int)HumanoidSlot.LeftUpperLeg]].position;
        hipsRight.y = 0f;
        Vector3 bodyFront = Vector3.Cross(hipsRight.normalized, Vector3.up);
        float goAngle = Vector3.Angle(go.transform.rotation * Vector3.forward, facing), bodyAngle = Vector3.Angle(bodyFront, facing);
        Check(goAngle < 1f && bodyAngle < 30f, label + ": the GameObject's +Z and the body's front face the walking direction (" +
              goAngle.ToString("F2") + " deg, " + bodyAngle.ToString("F1") + " deg: the pelvis turns in the gait)");
        Vector3 end = go.transform.position;
        double miss = Math.Sqrt((end.x - 2.5) * (end.x - 2.5) + (end.z - 3.5) * (end.z - 3.5));
        Console.WriteLine("  {0} on the own rig: stopped after {1:F2} s, {2:F2} m from the target; bones vs walker pose {3:E1} m; " +
                          "left ankle at most {4:F3} m below the ground", label, frames / 60.0, miss, worstBone, deepest);
        Check(stopped() && miss < 0.6, label + " walks the character's own rig to the target (" + miss.ToString("F2") + " m off)");
        if (!matching) Check(worstBone < 1e-3, label + ": the bones carry the walker's pose (" + worstBone.ToString("E1") + " m)");
        Check(deepest <= 0.0, label + ": the ankle never goes below the ground (" + deepest.ToString("F3") + " m)");
        Check(Debug.ErrorCount == errors, label + ": no errors logged");
        Call(walker, "OnDestroy");
        var mods = new List<PoseModifier>();
        go.transform.GetComponents(mods);
        foreach (PoseModifier m in mods) Call(m, "OnDestroy");
        CharacterController.TestGround = null;
        Physics.TestRaycast = null;
        Check(AnimKitLibrary.LiveHandles == live, label + " released everything, live = " + AnimKitLibrary.LiveHandles);
    }

    // The YourCharacter sample's character: GeneratedHumanoid builds bones, a skinned mesh and a
    // Humanoid avatar in Awake; the GuideWalker maps the rig through the avatar and walks it with
    // the sample's own 30 fps walk, retargeted at Start, FootIK on, over the sine terrain.
    static void SampleCharacterWalk(bool viaRetargeter)
    {
        string how = viaRetargeter ? "sample + Humanoid Retargeter" : "sample";
        string pkg = Environment.GetEnvironmentVariable("AK_UNITY_PKG");
        if (string.IsNullOrEmpty(pkg)) pkg = System.IO.Path.Combine("..", "unity", "com.animkit.animation");
        string bvh = System.IO.Path.Combine(pkg, "Samples~", "YourCharacter", "cmu_02_01_walk_30fps.bvh.bytes");
        int live = AnimKitLibrary.LiveHandles, errors = Debug.ErrorCount;
        CharacterController.TestGround = GroundY;
        Physics.TestRaycast = (Vector3 o, Vector3 d, float max, out RaycastHit hit) =>
        {
            hit = new RaycastHit();
            float y = GroundY(o.x, o.z);
            if (d.y > -0.99f || o.y < y || o.y - y > max) return false;
            hit.point = new Vector3(o.x, y, o.z);
            // The terrain's own normal: the grounding carries a hit's plane to where a foot
            // ends up (a heel rolled about its toe or a landing shortened moves off the ray).
            float gx = 0.125f * (float)Math.Cos(0.5 * o.x), gz = -0.08f * (float)Math.Sin(0.4 * o.z);
            float gn = (float)Math.Sqrt(gx * gx + 1f + gz * gz);
            hit.normal = new Vector3(-gx / gn, 1f / gn, -gz / gn);
            hit.distance = o.y - y;
            return true;
        };
        Time.deltaTime = 1f / 60f;
        GameObject go = new GameObject("Character");
        go.transform.position = new Vector3(0f, GroundY(0f, 0f), 0f);
        Animator animator = go.AddComponent<Animator>();
        var body = go.AddComponent<AnimKit.Samples.YourCharacter.GeneratedHumanoid>();
        Call(body, "Awake");
        Check(animator.avatar != null && animator.isHuman && animator.GetBoneTransform(HumanBodyBones.LeftToes) != null,
              how + ": GeneratedHumanoid builds a Humanoid avatar that maps its bones (toes included)");
        go.AddComponent<CharacterController>();
        go.AddComponent<FootIK>();
        GuideWalker walker = go.AddComponent<GuideWalker>();
        HumanoidRetargeter retargeter = null;
        if (viaRetargeter)
        {
            // The capture set on a Humanoid Retargeter (as a user playing it would have it); the
            // walker takes it, retargeted with the retargeter's settings, and walks it.
            retargeter = go.AddComponent<HumanoidRetargeter>();
            retargeter.bvhAsset = new TextAsset(System.IO.File.ReadAllBytes(bvh));
            retargeter.humanoid = animator;
            Call(retargeter, "Start");
            Check(!retargeter.enabled && retargeter.RetargetedClip == null,
                  how + ": the retargeter leaves the capture to the walker (no second playback)");
        }
        else
        {
            walker.ownRig.walkBvh = new TextAsset(System.IO.File.ReadAllBytes(bvh));
        }
        Transform target = new GameObject("SampleTarget").transform;
        target.position = new Vector3(-2.0f, 0f, 3.0f);
        walker.target = target;
        Call(walker, "Start");
        Check(walker.Rig != null && Debug.ErrorCount == errors, how + ": the walker maps the generated character through its avatar");
        if (walker.Rig == null) return;
        Transform foot = animator.GetBoneTransform(HumanBodyBones.LeftFoot);
        double deepest = 0, soleOff = 0;
        int frames = 0;
        for (; frames < 60 * 25 && walker.State.stopped == 0; ++frames)
        {
            Call(walker, "Update");
            Call(walker, "LateUpdate");
            deepest = Math.Max(deepest, GroundY(foot.position.x, foot.position.z) - foot.position.y);
            AkCharacterState st = walker.State;
            if (frames >= 60)
                for (int k = 0; k < 2; ++k)
                {
                    if ((k == 0 ? st.stanceLeft : st.stanceRight) == 0) continue;
                    AkVec3 sole = k == 0 ? st.soleLeft : st.soleRight;
                    soleOff = Math.Max(soleOff, Math.Abs(sole.y - GroundY(sole.x, sole.z)));
                }
        }
        Vector3 end = go.transform.position;
        double miss = Math.Sqrt((end.x + 2.0) * (end.x + 2.0) + (end.z - 3.0) * (end.z - 3.0));
        Console.WriteLine("  " + how + ": stance soles within {0:E2} m of the terrain", soleOff);
        Check(soleOff <= 1e-3, how + ": stance soles on the terrain within 1 mm (" + soleOff.ToString("E2") + " m)");
        Console.WriteLine("  " + how + " character: stopped after {0:F2} s, {1:F2} m from the target, left ankle at most {2:F3} m below the ground",
                          frames / 60.0, miss, deepest);
        Check(walker.State.stopped != 0 && miss < 0.6, how + ": the generated character walks to the clicked point (" + miss.ToString("F2") + " m off)");
        Check(deepest <= 0.0, how + ": its ankle never goes below the ground");
        Check(Debug.ErrorCount == errors, how + ": no errors logged");
        Call(walker, "OnDestroy");
        if (retargeter != null) Call(retargeter, "OnDestroy");
        var mods = new List<PoseModifier>();
        go.transform.GetComponents(mods);
        foreach (PoseModifier m in mods) Call(m, "OnDestroy");
        CharacterController.TestGround = null;
        Physics.TestRaycast = null;
        Check(AnimKitLibrary.LiveHandles == live, how + " released everything, live = " + AnimKitLibrary.LiveHandles);
    }

    // FootIK alone on a character its "Animator" walks (the walk AnimationClip sampled onto the
    // bones every frame, no walker; the capture's own floor drifts up 6 cm over the pass): stance
    // from the animated feet, the ground a plane 5 cm above the rest floor. A standing foot's
    // contact point (the heel, or the toe while it rolls over it) must be on the plane once
    // planted, and no heel or toe may go below it in any frame.
    static void AnimatorWalkWithFootIK()
    {
        int live = AnimKitLibrary.LiveHandles, errors = Debug.ErrorCount;
        FakeRig r = HumanoidLikeRig();
        GameObject go = r.go;
        var rig = new TransformRig(go.transform, go.GetComponent<Animator>(), null, "");
        BvhFile capture = BvhFile.Load(MocapPath("cmu_02_01_walk.bvh"));
        AkRetargetParams rp = Retarget.Defaults();
        rp.contacts = 1;
        Clip source = Retarget.RetargetClip(capture.Skeleton, capture.Clip, rig.Skeleton, rp);
        AnimationClip anim = CurvesOf(go, rig, source, 30f);
        source.Dispose();
        capture.Dispose();
        rig.Dispose();
        const float plane = 0.05f;
        Physics.TestRaycast = (Vector3 o, Vector3 d, float max, out RaycastHit hit) =>
        {
            hit = new RaycastHit();
            if (d.y > -0.99f || o.y < plane || o.y - plane > max) return false;
            hit.point = new Vector3(o.x, plane, o.z);
            hit.normal = Vector3.up;
            hit.distance = o.y - plane;
            return true;
        };
        Time.deltaTime = 1f / 60f;
        FootIK foot = go.AddComponent<FootIK>();
        Call(foot, "Start"); // maps the rig in the model's own pose, before the animation runs
        // A reader mapped on the same pose (same frames), so the test reads the bones apart from the component.
        var reader = new TransformRig(go.transform, go.GetComponent<Animator>(), null, "");
        var heel = new AkVec3[2]; var toe = new AkVec3[2];
        double stanceOff = 0, below = 0;
        int stanceSamples = 0;
        int[] stanceFor = { 0, 0 };
        // One pass of the clip: the capture is not a loop (its end does not meet its start), so
        // a wrap would make the feet jump.
        int passFrames = (int)(anim.length * 60f);
        for (int f = 0; f < passFrames; ++f)
        {
            Call(foot, "Update");
            anim.SampleAnimation(go, f / 60f);
            Call(foot, "LateUpdate");
            if (f < 60) continue; // weights fade in
            HeelToe(foot.Solver, reader, go.transform, heel, toe);
            AkFootIkState st = foot.State;
            for (int k = 0; k < 2; ++k)
            {
                below = Math.Max(below, Math.Max(plane - heel[k].y, plane - toe[k].y));
                if ((k == 0 ? st.stanceLeft : st.stanceRight) == 0) { stanceFor[k] = 0; continue; }
                // The foot plants over 1/stance_fade_rate = 50 ms after touchdown (the library's
                // fade, so nothing pops): measured from then on.
                if (++stanceFor[k] * Time.deltaTime <= 0.05f) continue;
                ++stanceSamples;
                // The contact point: the heel, or the toe while the foot rolls over it.
                stanceOff = Math.Max(stanceOff, Math.Abs(Math.Min(heel[k].y, toe[k].y) - plane));
            }
        }
        reader.Dispose();
        Console.WriteLine("  Animator walk + FootIK: {0} stance samples, planted contact points within {1:E2} m of the plane, " +
                          "heel/toe at most {2:E2} m below it", stanceSamples, stanceOff, below);
        Check(stanceSamples > 100, "Animator walk + FootIK: stance found from the animated feet (" + stanceSamples + " samples)");
        Check(stanceOff <= 1e-3, "Animator walk + FootIK: stance feet's lowest point (heel, or toe when rolling) on the raised plane within 1 mm");
        Check(below <= 1e-3, "Animator walk + FootIK: no heel or toe below the ground in any frame (" + below.ToString("E2") + " m)");
        Check(Debug.ErrorCount == errors, "Animator walk + FootIK: no errors logged");
        Call(foot, "OnDestroy");
        Physics.TestRaycast = null;
        Check(AnimKitLibrary.LiveHandles == live, "Animator walk + FootIK released everything, live = " + AnimKitLibrary.LiveHandles);
    }

    static void OwnRigWalkScenes()
    {
        AnimatorWalkWithFootIK();
        OwnRigWalk(false);
        OwnRigWalk(true);
        SampleCharacterWalk(false);
        SampleCharacterWalk(true);
    }
}
