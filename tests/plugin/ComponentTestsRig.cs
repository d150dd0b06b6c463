// The IK components on a character's own Transforms, no BvhPlayer (issue 24), on two fake rigs
// posed by a script the way an Animator would before LateUpdate:
//  - Mixamo-shaped: mixamorig: names found by name, every bone with a non-identity rest
//    rotation, an extra twist bone under each thigh, facing -Z; the "animation" writes only
//    the thighs (a Generic clip with few curves), so the hips rely on fixTransforms;
//  - Unity-Humanoid-shaped: an Animator whose avatar maps the bones (names the library does
//    not know), an armature Transform turned 90 degrees above the hips, Blender-style bone
//    axes (+Y along each bone), twist bones BETWEEN the mapped thigh and shin and between the
//    upper arm and forearm, facing +Z; the animation writes every mapped bone.
// FootIK must put each heel and toe on a ground plane at 0, -0.12 and +0.06 m within 1 mm,
// measured on the Transforms by the C library's own rule (FootIkRig.ContactPoints), and the
// Transforms must carry the same heel and toe as the C library's foot IK run on the same
// animated pose with the same hits (a second solver the test drives through the plugin).
// LookAtIK, LimbIK and AimIK must reach their targets on both rigs.
using System;
using AnimKit;
using AnimKit.Unity;
using UnityEngine;

static partial class ComponentTests
{
    // A bone at a model-space position with a model-space rest rotation (any axes).
    static Transform Bone(string name, Transform parent, Vector3 pos, Quaternion rot)
    {
        Transform t = new GameObject(name).transform;
        t.SetParent(parent, false);
        t.rotation = rot;
        t.position = pos;
        return t;
    }

    sealed class FakeRig
    {
        public string label;
        public GameObject go;
        public Transform hand, otherHand, head;
        public Transform[] animated;   // the bones the scripted animation writes
        public Vector3 handTarget, lookTarget, aimTarget; // model space (go at the origin)
        public Vector3 aimAxisModel;   // the aimed hand's axis in the rest pose, model space
    }

    static FakeRig MixamoLikeRig()
    {
        var r = new FakeRig { label = "Mixamo-like", go = new GameObject("MixamoCharacter") };
        Transform space = r.go.transform;
        Quaternion down = Quaternion.AngleAxis(180f, Vector3.forward); // leg bones: +Y points down the leg
        Transform hips = Bone("mixamorig:Hips", space, new Vector3(0f, 0.95f, 0f), Quaternion.AngleAxis(-90f, Vector3.right));
        Transform spine = Bone("mixamorig:Spine", hips, new Vector3(0f, 1.1f, 0f), Quaternion.AngleAxis(30f, Vector3.up));
        Transform chest = Bone("mixamorig:Spine1", spine, new Vector3(0f, 1.3f, 0f), Quaternion.AngleAxis(-20f, Vector3.forward));
        Transform neck = Bone("mixamorig:Neck", chest, new Vector3(0f, 1.5f, 0f), Quaternion.identity);
        r.head = Bone("mixamorig:Head", neck, new Vector3(0f, 1.6f, 0f), Quaternion.AngleAxis(15f, Vector3.right));
        string[] side = { "Left", "Right" };
        for (int s = 0; s < 2; ++s)
        {
            float x = s == 0 ? 0.1f : -0.1f, ax = s == 0 ? 1f : -1f; // faces -Z: left is +X
            Transform sh = Bone("mixamorig:" + side[s] + "Shoulder", chest, new Vector3(0.08f * ax, 1.42f, 0f), Quaternion.AngleAxis(90f * ax, Vector3.forward));
            Transform arm = Bone("mixamorig:" + side[s] + "Arm", sh, new Vector3(0.18f * ax, 1.42f, 0f), Quaternion.AngleAxis(90f * ax, Vector3.forward));
            Transform fore = Bone("mixamorig:" + side[s] + "ForeArm", arm, new Vector3(0.45f * ax, 1.42f, 0f), Quaternion.AngleAxis(80f * ax, Vector3.forward));
            Transform hand = Bone("mixamorig:" + side[s] + "Hand", fore, new Vector3(0.70f * ax, 1.42f, 0f), Quaternion.AngleAxis(70f * ax, Vector3.forward));
            if (s == 1) r.hand = hand; else r.otherHand = hand;
            Transform up = Bone("mixamorig:" + side[s] + "UpLeg", hips, new Vector3(x, 0.9f, 0f), down * Quaternion.AngleAxis(5f, Vector3.up));
            Bone("mixamorig:" + side[s] + "UpLegTwist", up, new Vector3(x, 0.7f, 0f), down); // extra twist bone (a leaf)
            Transform knee = Bone("mixamorig:" + side[s] + "Leg", up, new Vector3(x, 0.5f, 0.01f), down * Quaternion.AngleAxis(-10f, Vector3.right));
            Transform foot = Bone("mixamorig:" + side[s] + "Foot", knee, new Vector3(x, 0.08f, 0f), Quaternion.AngleAxis(60f, Vector3.right));
            Bone("mixamorig:" + side[s] + "ToeBase", foot, new Vector3(x, 0.02f, -0.14f), Quaternion.AngleAxis(120f, Vector3.right));
        }
        Transform[] thighs = { space.Find("mixamorig:Hips/mixamorig:LeftUpLeg"), space.Find("mixamorig:Hips/mixamorig:RightUpLeg") };
        r.animated = thighs;
        r.handTarget = new Vector3(-0.40f, 1.15f, -0.20f);     // in front (-Z), right (-X), below the shoulder
        r.lookTarget = new Vector3(0.6f, 1.9f, -2.0f);         // up, to the left, ahead
        r.aimTarget = new Vector3(1.2f, 1.1f, -0.8f);          // the left hand points ahead-left, down
        r.aimAxisModel = Vector3.right;                        // the left arm's own direction at rest
        return r;
    }

    // Blender/Unity-Humanoid style: a bone's rotation turns +Y onto the direction to its child.
    static Quaternion Along(Vector3 dir, float roll)
    {
        Vector3 d = dir.normalized, axis = Vector3.Cross(Vector3.up, d);
        float dot = Vector3.Dot(Vector3.up, d), deg = (float)(Math.Acos(Math.Max(-1f, Math.Min(1f, dot))) * 180.0 / Math.PI);
        Quaternion q = axis.magnitude < 1e-6f ? (dot > 0 ? Quaternion.identity : Quaternion.AngleAxis(180f, Vector3.forward))
                                              : Quaternion.AngleAxis(deg, axis);
        return q * Quaternion.AngleAxis(roll, Vector3.up);
    }

    static FakeRig HumanoidLikeRig()
    {
        var r = new FakeRig { label = "Unity-Humanoid-like", go = new GameObject("HumanoidCharacter") };
        Transform space = r.go.transform;
        Animator anim = r.go.AddComponent<Animator>();
        var animated = new System.Collections.Generic.List<Transform>();
        Func<HumanBodyBones, Transform, Transform> map = (b, t) => { anim.SetBoneTransform(b, t); animated.Add(t); return t; };
        Transform armature = Bone("Armature", space, Vector3.zero, Quaternion.AngleAxis(90f, Vector3.up));
        Transform hips = map(HumanBodyBones.Hips, Bone("pelvis", armature, new Vector3(0f, 1.0f, 0f), Along(Vector3.up, 90f)));
        Transform spine = map(HumanBodyBones.Spine, Bone("spine_01", hips, new Vector3(0f, 1.12f, 0.01f), Along(new Vector3(0f, 1f, -0.05f), 0f)));
        Transform chest = map(HumanBodyBones.Chest, Bone("spine_02", spine, new Vector3(0f, 1.25f, 0f), Along(Vector3.up, 10f)));
        Transform upper = map(HumanBodyBones.UpperChest, Bone("spine_03", chest, new Vector3(0f, 1.38f, 0f), Along(Vector3.up, -10f)));
        Transform neck = map(HumanBodyBones.Neck, Bone("neck_01", upper, new Vector3(0f, 1.52f, 0.01f), Along(new Vector3(0f, 1f, 0.1f), 0f)));
        r.head = map(HumanBodyBones.Head, Bone("head", neck, new Vector3(0f, 1.62f, 0.02f), Along(Vector3.up, 25f)));
        string[] side = { "l", "r" };
        for (int s = 0; s < 2; ++s)
        {
            float ax = s == 0 ? -1f : 1f; // faces +Z: left is -X
            HumanBodyBones b0 = s == 0 ? HumanBodyBones.LeftShoulder : HumanBodyBones.RightShoulder;
            Transform clav = map(b0, Bone("clavicle_" + side[s], upper, new Vector3(0.03f * ax, 1.45f, 0.02f), Along(new Vector3(ax, 0f, -0.1f), 30f)));
            Transform arm = map(s == 0 ? HumanBodyBones.LeftUpperArm : HumanBodyBones.RightUpperArm,
                                Bone("upperarm_" + side[s], clav, new Vector3(0.17f * ax, 1.43f, 0f), Along(new Vector3(ax, -0.05f, 0f), 15f * ax)));
            Transform twist = Bone("upperarm_twist_" + side[s], arm, new Vector3(0.30f * ax, 1.42f, 0f), Along(new Vector3(ax, 0f, 0f), 40f));
            Transform fore = map(s == 0 ? HumanBodyBones.LeftLowerArm : HumanBodyBones.RightLowerArm,
                                 Bone("lowerarm_" + side[s], twist, new Vector3(0.44f * ax, 1.41f, 0f), Along(new Vector3(ax, 0f, 0.02f), -20f)));
            Transform hand = map(s == 0 ? HumanBodyBones.LeftHand : HumanBodyBones.RightHand,
                                 Bone("hand_" + side[s], fore, new Vector3(0.70f * ax, 1.41f, 0.01f), Along(new Vector3(ax, 0f, 0f), 5f)));
            if (s == 1) r.hand = hand; else r.otherHand = hand;
            float x = 0.11f * ax;
            Transform thigh = map(s == 0 ? HumanBodyBones.LeftUpperLeg : HumanBodyBones.RightUpperLeg,
                                  Bone("thigh_" + side[s], hips, new Vector3(x, 0.93f, 0f), Along(new Vector3(0f, -1f, 0.02f), 180f)));
            Transform ltwist = Bone("thigh_twist_" + side[s], thigh, new Vector3(x, 0.72f, 0.005f), Along(new Vector3(0f, -1f, 0.02f), 150f));
            Transform shin = map(s == 0 ? HumanBodyBones.LeftLowerLeg : HumanBodyBones.RightLowerLeg,
                                 Bone("calf_" + side[s], ltwist, new Vector3(x, 0.50f, 0.02f), Along(new Vector3(0f, -1f, -0.05f), 170f)));
            Transform foot = map(s == 0 ? HumanBodyBones.LeftFoot : HumanBodyBones.RightFoot,
                                 Bone("foot_" + side[s], shin, new Vector3(x, 0.09f, 0f), Along(new Vector3(0f, -0.5f, 1f), 0f)));
            map(s == 0 ? HumanBodyBones.LeftToes : HumanBodyBones.RightToes,
                Bone("ball_" + side[s], foot, new Vector3(x, 0.025f, 0.13f), Along(Vector3.forward, 0f)));
        }
        r.animated = animated.ToArray();
        r.handTarget = new Vector3(0.42f, 1.12f, 0.22f);     // in front (+Z), right (+X), below the shoulder
        r.lookTarget = new Vector3(-0.7f, 1.3f, 1.8f);       // down, to the left, ahead
        r.aimTarget = new Vector3(-1.1f, 1.6f, 0.9f);        // the left hand points ahead-left, up
        r.aimAxisModel = new Vector3(-1f, 0f, 0f);
        return r;
    }

    // Heel and toe of both feet on the bones as they are now, by the C library's rule.
    static void HeelToe(FootIkRig solver, TransformRig reader, Transform space, AkVec3[] heel, AkVec3[] toe)
    {
        reader.Read();
        AkXform character;
        character.rotation = space.rotation.ToAk();
        character.position = space.position.ToAk();
        solver.ContactPoints(character, reader.Model, heel, toe);
    }

    static void RigScene(FakeRig r, bool animateAll)
    {
        GameObject go = r.go;
        Transform space = go.transform;
        FootIK foot = go.AddComponent<FootIK>();
        LookAtIK look = go.AddComponent<LookAtIK>();
        look.order = 1;
        LimbIK arm = go.AddComponent<LimbIK>();
        arm.limb = Limb.RightArm;
        arm.order = 2;
        AimIK aim = go.AddComponent<AimIK>();
        aim.bone = HumanoidSlot.LeftHand;
        aim.order = 3;
        aim.aimAxis = Quaternion.Inverse(r.otherHand.rotation) * r.aimAxisModel; // the arm's own line at rest
        Transform handTarget = new GameObject("HandTarget").transform, lookTarget = new GameObject("LookTarget").transform,
                  aimTarget = new GameObject("AimTarget").transform;
        handTarget.position = r.handTarget;
        lookTarget.position = r.lookTarget;
        aimTarget.position = r.aimTarget;
        arm.target = handTarget;
        look.target = lookTarget;
        aim.target = aimTarget;
        Quaternion[] rest = new Quaternion[r.animated.Length];
        for (int i = 0; i < rest.Length; ++i) rest[i] = r.animated[i].localRotation;
        Vector3 hipsRest = r.animated[0].localPosition;
        Quaternion headRest = r.head.rotation; // the character's Transform is at the origin, unturned

        // The reference: the C library's foot IK through the plugin on the same animated pose
        // with the same hits, on a rig mapped like the component's (same rest pose, same map).
        Animator animator = go.GetComponent<Animator>();
        var animatedPose = new TransformRig(space, animator, null, "");
        AkFootIkParams fp = FootIkRig.Defaults();
        var reference = new FootIkRig(animatedPose.Skeleton, animatedPose.Clip, fp);
        reference.SetStance(3, 3); // the scripted stand keeps heels and toes down (checked below)
        var reader = new TransformRig(space, animator, null, "");
        var hits = new AkGroundHit[AnimKitNative.FootIkRayCount];

        float plane = 0f;
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
        int errors = Debug.ErrorCount;
        float[] heights = { 0f, -0.12f, 0.06f };
        var heel = new AkVec3[2]; var toe = new AkVec3[2]; var cHeel = new AkVec3[2]; var cToe = new AkVec3[2];
        int standing = 0;
        float worstGround = 0f, worstSame = 0f, worstHand = 0f, worstLook = 0f, worstAim = 0f, toeAhead = 1f;
        int frame = 0;
        foreach (float h in heights)
        {
            plane = h;
            for (int f = 0; f < 120; ++f, ++frame) // 2 s: the hip drop settles at its rate
            {
                foreach (PoseModifier m in new PoseModifier[] { foot, look, arm, aim }) Call(m, "Update");
                // The "Animator": a leg swing on each bone's own (non-identity) axes and a hip bob.
                // (0.5 Hz: the feet slide at most 0.19 m/s before IK, under the library's 0.25 m/s contact speed)
                float sway = (float)Math.Sin(frame * 0.05);
                for (int i = 0; i < r.animated.Length; ++i)
                {
                    if (!animateAll && i >= 2) break;
                    r.animated[i].localRotation = rest[i] * Quaternion.AngleAxis((i % 2 == 0 ? 4f : -4f) * sway, Vector3.right);
                }
                if (animateAll) r.animated[0].localPosition = hipsRest + new Vector3(0f, 0.01f * sway, 0f);
                // The C library on this animated pose (before the components touch it).
                animatedPose.Read();
                AkXform character;
                character.rotation = space.rotation.ToAk();
                character.position = space.position.ToAk();
                int count;
                AkRay[] rays = reference.Rays(0f, character, animatedPose.Model, out count);
                FootIK.Cast(rays, hits, count, Physics.DefaultRaycastLayers, false);
                reference.Apply(frame == 0 ? 0f : Time.deltaTime, hits, count, animatedPose.Local, animatedPose.Model);
                reference.ContactPoints(character, animatedPose.Model, cHeel, cToe);

                foreach (PoseModifier m in new PoseModifier[] { foot, look, arm, aim }) Call(m, "LateUpdate");
                standing += foot.State.stanceLeft + foot.State.stanceRight;
                if (f < 119) continue;
                HeelToe(foot.Solver, reader, space, heel, toe);
                for (int s = 0; s < 2; ++s)
                {
                    worstGround = Math.Max(worstGround, Math.Max(Math.Abs(heel[s].y - h), Math.Abs(toe[s].y - h)));
                    worstSame = Math.Max(worstSame, Math.Max((heel[s].ToUnity() - cHeel[s].ToUnity()).magnitude,
                                                             (toe[s].ToUnity() - cToe[s].ToUnity()).magnitude));
                    toeAhead = Math.Min(toeAhead, (toe[s].ToUnity() - heel[s].ToUnity()).magnitude);
                }
                worstHand = Math.Max(worstHand, Vector3.Distance(r.hand.position, handTarget.position));
                Vector3 headFwd = r.head.rotation * (Quaternion.Inverse(headRest) * reader.RestForward);
                worstLook = Math.Max(worstLook, Vector3.Angle(headFwd, lookTarget.position - r.head.position));
                worstAim = Math.Max(worstAim, Vector3.Angle(r.otherHand.rotation * aim.aimAxis, aimTarget.position - r.otherHand.position));
            }
            Console.WriteLine(string.Format("  {0}, plane {1:F3} m: heels {2:F5} / {3:F5} m, toes {4:F5} / {5:F5} m, hip drop {6:F4} m, " +
                "hand off target {7:F5} m, look off {8:F3} deg, aim off {9:F3} deg",
                r.label, h, heel[0].y, heel[1].y, toe[0].y, toe[1].y, foot.State.hipDrop,
                Vector3.Distance(r.hand.position, handTarget.position), worstLook, worstAim));
        }
        Check(foot.Rig != null && foot.Rig.Humanoid[(int)HumanoidSlot.LeftFoot] >= 0 && foot.Rig.Humanoid[(int)HumanoidSlot.RightToe] >= 0,
              r.label + " rig without BvhPlayer is mapped (legs and toes)");
        Check(standing == 2 * frame, r.label + ": FootIK found both feet standing from the pose in every frame (" + standing + " of " + 2 * frame + ")");
        Check(toeAhead > 0.05f, r.label + ": the toe contact is its own point, " + toeAhead.ToString("F3") + " m from the heel");
        Check(worstGround <= 1e-3f, r.label + ": FootIK puts heel and toe of both feet on planes at 0, -0.12, 0.06 m within 1 mm (worst " +
              worstGround.ToString("E2") + " m)");
        // float32 round trip through Transforms (local <-> world) over a 1 m chain: 1e-4 m.
        Check(worstSame <= 1e-4f, r.label + ": heel and toe on the Transforms = the C library's on the same pose and hits (worst " +
              worstSame.ToString("E2") + " m)");
        Check(worstHand <= 1e-3f, r.label + ": LimbIK puts the hand on its target on every plane (worst " + worstHand.ToString("E2") + " m)");
        Check(worstLook <= 0.5f, r.label + ": LookAtIK turns the head's front (found from the rig) onto its target (worst " +
              worstLook.ToString("F3") + " deg)");
        Check(worstAim <= 0.5f, r.label + ": AimIK points the hand's axis at its target (worst " + worstAim.ToString("F3") + " deg)");
        Check(Debug.ErrorCount == errors, r.label + ": no errors logged");
        foreach (PoseModifier m in new PoseModifier[] { foot, look, arm, aim }) Call(m, "OnDestroy");
        reference.Dispose();
        animatedPose.Dispose();
        reader.Dispose();
        Physics.TestRaycast = null;
    }

    static void AnyRigScene()
    {
        int live = AnimKitLibrary.LiveHandles;
        RigScene(MixamoLikeRig(), false);
        RigScene(HumanoidLikeRig(), true);
        Check(AnimKitLibrary.LiveHandles == live, "rig scenes released everything, live = " + AnimKitLibrary.LiveHandles);
    }
}
