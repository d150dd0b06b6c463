// Sample: stands in for the character of your own project, so the sample needs no third-party
// asset. In Awake it builds what an imported FBX character gives you: a bone hierarchy in a
// T-pose (Unity Humanoid names, facing +Z, 1.75 m), a mesh skinned to those bones (a box per
// bone, each vertex bound rigidly to its bone), and a Humanoid Avatar (AvatarBuilder) on the
// Animator. animkit's components then map the rig through the avatar, exactly as they would
// map yours: replace this GameObject's GeneratedHumanoid by your character's model and the
// walker, foot IK and click-to-walk work the same.
using System.Collections.Generic;
using UnityEngine;

namespace AnimKit.Samples.YourCharacter
{
    [AddComponentMenu("animkit/Samples/Generated Humanoid")]
    [DefaultExecutionOrder(-100)] // before the walker maps the rig in Start
    [RequireComponent(typeof(Animator))]
    public class GeneratedHumanoid : MonoBehaviour
    {
        [Tooltip("Material of the body; empty: a lit material of the active render pipeline's default shader.")]
        public Material material;

        // Bone name (Unity's human bone name), parent, model-space position in the T-pose, box width.
        struct BoneSpec { public string name, parent; public Vector3 at; public float width; }

        static readonly BoneSpec[] k_bones =
        {
            new BoneSpec { name = "Hips", parent = null, at = new Vector3(0f, 0.95f, 0f), width = 0.30f },
            new BoneSpec { name = "Spine", parent = "Hips", at = new Vector3(0f, 1.05f, 0f), width = 0.28f },
            new BoneSpec { name = "Chest", parent = "Spine", at = new Vector3(0f, 1.25f, 0f), width = 0.32f },
            new BoneSpec { name = "Neck", parent = "Chest", at = new Vector3(0f, 1.50f, 0f), width = 0.10f },
            new BoneSpec { name = "Head", parent = "Neck", at = new Vector3(0f, 1.58f, 0.01f), width = 0.20f },
            new BoneSpec { name = "LeftShoulder", parent = "Chest", at = new Vector3(-0.05f, 1.44f, 0f), width = 0.10f },
            new BoneSpec { name = "LeftUpperArm", parent = "LeftShoulder", at = new Vector3(-0.18f, 1.44f, 0f), width = 0.09f },
            new BoneSpec { name = "LeftLowerArm", parent = "LeftUpperArm", at = new Vector3(-0.45f, 1.44f, 0f), width = 0.08f },
            new BoneSpec { name = "LeftHand", parent = "LeftLowerArm", at = new Vector3(-0.70f, 1.44f, 0f), width = 0.08f },
            new BoneSpec { name = "RightShoulder", parent = "Chest", at = new Vector3(0.05f, 1.44f, 0f), width = 0.10f },
            new BoneSpec { name = "RightUpperArm", parent = "RightShoulder", at = new Vector3(0.18f, 1.44f, 0f), width = 0.09f },
            new BoneSpec { name = "RightLowerArm", parent = "RightUpperArm", at = new Vector3(0.45f, 1.44f, 0f), width = 0.08f },
            new BoneSpec { name = "RightHand", parent = "RightLowerArm", at = new Vector3(0.70f, 1.44f, 0f), width = 0.08f },
            new BoneSpec { name = "LeftUpperLeg", parent = "Hips", at = new Vector3(-0.10f, 0.92f, 0f), width = 0.14f },
            new BoneSpec { name = "LeftLowerLeg", parent = "LeftUpperLeg", at = new Vector3(-0.10f, 0.50f, 0.01f), width = 0.11f },
            new BoneSpec { name = "LeftFoot", parent = "LeftLowerLeg", at = new Vector3(-0.10f, 0.08f, 0f), width = 0.09f },
            new BoneSpec { name = "LeftToes", parent = "LeftFoot", at = new Vector3(-0.10f, 0.02f, 0.13f), width = 0.09f },
            new BoneSpec { name = "RightUpperLeg", parent = "Hips", at = new Vector3(0.10f, 0.92f, 0f), width = 0.14f },
            new BoneSpec { name = "RightLowerLeg", parent = "RightUpperLeg", at = new Vector3(0.10f, 0.50f, 0.01f), width = 0.11f },
            new BoneSpec { name = "RightFoot", parent = "RightLowerLeg", at = new Vector3(0.10f, 0.08f, 0f), width = 0.09f },
            new BoneSpec { name = "RightToes", parent = "RightFoot", at = new Vector3(0.10f, 0.02f, 0.13f), width = 0.09f },
        };

        // Where each bone's box ends when it has no child to reach (head top, hand and toe tips).
        static Vector3 TipOf(BoneSpec b)
        {
            if (b.name == "Head") return b.at + new Vector3(0f, 0.22f, 0f);
            if (b.name.EndsWith("Hand")) return b.at + new Vector3(b.at.x < 0f ? -0.17f : 0.17f, 0f, 0f);
            return b.at + new Vector3(0f, 0f, 0.07f); // toes
        }

        /// <summary>The bones, in k_bones order (after Awake).</summary>
        public Transform[] Bones { get; private set; }

        void Awake()
        {
            Bones = BuildBones();
            BuildSkin();
            BuildAvatar();
        }

        Transform[] BuildBones()
        {
            var bones = new Transform[k_bones.Length];
            var byName = new Dictionary<string, Transform>();
            Transform armature = new GameObject("Armature").transform;
            armature.SetParent(transform, false);
            for (int i = 0; i < k_bones.Length; ++i)
            {
                Transform t = new GameObject(k_bones[i].name).transform;
                t.SetParent(k_bones[i].parent == null ? armature : byName[k_bones[i].parent], false);
                t.position = transform.TransformPoint(k_bones[i].at);
                t.rotation = transform.rotation;
                byName[k_bones[i].name] = t;
                bones[i] = t;
            }
            return bones;
        }

        // A box from each bone to its first child (or its tip), all 8 corners bound to the bone.
        void BuildSkin()
        {
            var vertices = new List<Vector3>();
            var triangles = new List<int>();
            var weights = new List<BoneWeight>();
            for (int i = 0; i < k_bones.Length; ++i)
            {
                Vector3 from = k_bones[i].at, to = TipOf(k_bones[i]);
                for (int c = 0; c < k_bones.Length; ++c)
                    if (k_bones[c].parent == k_bones[i].name) { to = k_bones[c].at; break; }
                AddBox(vertices, triangles, from, to, k_bones[i].width);
                while (weights.Count < vertices.Count) weights.Add(new BoneWeight { boneIndex0 = i, weight0 = 1f });
            }
            var mesh = new Mesh { name = "GeneratedHumanoid" };
            mesh.SetVertices(vertices);
            mesh.SetTriangles(triangles, 0);
            mesh.boneWeights = weights.ToArray();
            var bind = new Matrix4x4[Bones.Length];
            for (int i = 0; i < Bones.Length; ++i) bind[i] = Bones[i].worldToLocalMatrix * transform.localToWorldMatrix;
            mesh.bindposes = bind;
            mesh.RecalculateNormals();
            mesh.RecalculateBounds();
            GameObject body = new GameObject("Body");
            body.transform.SetParent(transform, false);
            SkinnedMeshRenderer skin = body.AddComponent<SkinnedMeshRenderer>();
            skin.sharedMesh = mesh;
            skin.bones = Bones;
            skin.rootBone = Bones[0];
            skin.updateWhenOffscreen = true;
            if (material == null)
            {
                Shader lit = Shader.Find("Universal Render Pipeline/Lit");
                if (lit == null) lit = Shader.Find("Standard");
                if (lit != null) material = new Material(lit) { color = new Color(0.55f, 0.62f, 0.75f, 1f) };
            }
            if (material != null) skin.sharedMaterial = material;
        }

        static void AddBox(List<Vector3> v, List<int> t, Vector3 from, Vector3 to, float width)
        {
            Vector3 axis = to - from;
            Vector3 side = Mathf.Abs(axis.normalized.y) > 0.9f ? Vector3.right : Vector3.up;
            Vector3 a = Vector3.Cross(axis, side).normalized * (width * 0.5f);
            Vector3 b = Vector3.Cross(axis, a).normalized * (width * 0.5f);
            int o = v.Count;
            foreach (Vector3 end in new[] { from, to })
            {
                v.Add(end - a - b); v.Add(end + a - b); v.Add(end + a + b); v.Add(end - a + b);
            }
            int[] quads = { 0, 1, 2, 3, 7, 6, 5, 4, 0, 4, 5, 1, 1, 5, 6, 2, 2, 6, 7, 3, 3, 7, 4, 0 };
            for (int q = 0; q < quads.Length; q += 4)
            {
                t.Add(o + quads[q]); t.Add(o + quads[q + 1]); t.Add(o + quads[q + 2]);
                t.Add(o + quads[q]); t.Add(o + quads[q + 2]); t.Add(o + quads[q + 3]);
            }
        }

        // The Humanoid avatar: each bone under its own human name, the skeleton's T-pose.
        void BuildAvatar()
        {
            var human = new HumanBone[k_bones.Length];
            for (int i = 0; i < k_bones.Length; ++i)
            {
                human[i] = new HumanBone { boneName = k_bones[i].name, humanName = k_bones[i].name };
                human[i].limit.useDefaultValues = true;
            }
            var skeleton = new List<SkeletonBone>();
            skeleton.Add(Skeletal(transform));
            skeleton.Add(Skeletal(Bones[0].parent)); // the armature
            foreach (Transform b in Bones) skeleton.Add(Skeletal(b));
            var description = new HumanDescription
            {
                human = human,
                skeleton = skeleton.ToArray(),
                upperArmTwist = 0.5f, lowerArmTwist = 0.5f, upperLegTwist = 0.5f, lowerLegTwist = 0.5f,
                armStretch = 0.05f, legStretch = 0.05f, feetSpacing = 0f, hasTranslationDoF = false,
            };
            Avatar avatar = AvatarBuilder.BuildHumanAvatar(gameObject, description);
            avatar.name = "GeneratedHumanoid";
            if (!avatar.isValid || !avatar.isHuman)
            {
                Debug.LogError("GeneratedHumanoid: the avatar did not build", this);
                return;
            }
            Animator animator = GetComponent<Animator>();
            animator.avatar = avatar;
            animator.applyRootMotion = false; // the walker moves the character
        }

        static SkeletonBone Skeletal(Transform t)
        {
            return new SkeletonBone { name = t.name, position = t.localPosition, rotation = t.localRotation, scale = t.localScale };
        }
    }
}
