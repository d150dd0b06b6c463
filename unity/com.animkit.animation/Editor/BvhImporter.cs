// Drop a .bvh into Assets and Unity imports it as:
//  - a prefab (the main object): one empty GameObject per joint at the rest pose, with an
//    Animator and a ClipPlayer that plays the clip, so dragging it into a scene and pressing
//    Play shows the motion (the bones are empty Transforms: select them, or add a BvhPlayer
//    with "Draw Skeleton" for gizmos);
//  - the AnimationClip (generic, one key per BVH frame, looping if "Loop" is ticked), usable
//    in any Animator Controller on a hierarchy with the same joint names;
//  - a generic Avatar on the prefab's Animator whose root motion node is the joint that
//    carries the travel (measured by the plugin: the top joint, or the hips under a top joint
//    that never moves; "Root Joint" names it instead), so Apply Root Motion moves the
//    GameObject by that joint's travel, not by a still top joint's;
//  - the file's text as a TextAsset, for a BvhPlayer (the walker, foot IK and IK components
//    read the BVH through the plugin, not through the clip).
// The native plugin reads the file, so units are detected exactly as at run time.
using System;
using System.IO;
using System.Text;
using AnimKit.Unity;
using UnityEditor;
using UnityEditor.AssetImporters;
using UnityEngine;

namespace AnimKit.Editor
{
    [ScriptedImporter(1, "bvh")]
    public class BvhImporter : ScriptedImporter
    {
        [Tooltip("Metres per file unit. 0 detects it from the standing height " +
                 "(CMU units 0.056444, centimetres 0.01, inches 0.0254, millimetres, metres).")]
        [Min(0f)] public float metresPerUnit = 0f;
        [Tooltip("The clip loops (Loop Time).")]
        public bool loop = true;
        [Tooltip("The joint whose travel is the root motion (the generic avatar's root motion node). " +
                 "Empty: measured (the top joint, or the hips under a top joint that never moves).")]
        public string rootJoint = "";

        /// <summary>What one import produced (also what the tests inspect).</summary>
        public sealed class Result
        {
            public GameObject Root;
            public AnimationClip Clip;
            public TextAsset Text;
            public float MetresPerUnit;
            public int JointCount, FrameCount;
            /// <summary>The generic avatar (the prefab Animator's) rooted at RootJointName.</summary>
            public Avatar Avatar;
            /// <summary>The joint whose travel is the root motion, its name, and why (the
            /// plugin's one line, e.g. "Hips (the top joint joint_Root is still: ...)").</summary>
            public int RootJoint;
            public string RootJointName, RootJointReason;
        }

        public override void OnImportAsset(AssetImportContext ctx)
        {
            string name = Path.GetFileNameWithoutExtension(ctx.assetPath);
            Result r;
            try
            {
                r = Import(File.ReadAllBytes(ctx.assetPath), name, metresPerUnit, loop, rootJoint);
            }
            catch (AnimKitException e)
            {
                ctx.LogImportError(ctx.assetPath + ": " + e.Message);
                return;
            }
            catch (DllNotFoundException)
            {
                ctx.LogImportError(ctx.assetPath + ": the animkit native plugin is not available in this editor " +
                                   "(the package ships it for Linux x86_64 and Windows x86_64)");
                return;
            }
            ctx.AddObjectToAsset("skeleton", r.Root);
            ctx.AddObjectToAsset("clip", r.Clip);
            ctx.AddObjectToAsset("avatar", r.Avatar);
            ctx.AddObjectToAsset("bvh text", r.Text);
            ctx.SetMainObject(r.Root);
        }

        /// <summary>Import with the root joint measured.</summary>
        public static Result Import(byte[] bvhBytes, string name, float metresPerUnit, bool loop)
        {
            return Import(bvhBytes, name, metresPerUnit, loop, "");
        }

        /// <summary>The import without an AssetImportContext: BVH bytes -> hierarchy, clip,
        /// avatar and text. `rootJoint` null or "" measures the joint that travels, a name takes
        /// that joint. Throws AnimKitException ("line N: reason") for a bad file, NotFound for
        /// a root joint name the file does not have.</summary>
        public static Result Import(byte[] bvhBytes, string name, float metresPerUnit, bool loop, string rootJoint)
        {
            using (BvhFile bvh = BvhFile.LoadText(bvhBytes, metresPerUnit, loop))
            {
                string why;
                AkRootJointInfo root = bvh.Clip.RootJoint(bvh.Skeleton, rootJoint, out why);
                Result r = new Result();
                r.MetresPerUnit = bvh.Skeleton.MetresPerUnit;
                r.JointCount = bvh.Skeleton.JointCount;
                r.FrameCount = bvh.Clip.FrameCount;
                r.Root = new GameObject(name);
                BvhAnimation.CreateHierarchy(bvh.Skeleton, r.Root.transform);
                r.Clip = BvhAnimation.CreateClip(bvh, false);
                r.Clip.name = name;
                AnimationClipSettings settings = AnimationUtility.GetAnimationClipSettings(r.Clip);
                settings.loopTime = loop;
                AnimationUtility.SetAnimationClipSettings(r.Clip, settings);
                r.RootJoint = root.joint;
                r.RootJointName = bvh.Skeleton.JointNames[root.joint];
                r.RootJointReason = why;
                // ClipPlayer requires the Animator; added first, explicitly. Its generic avatar's
                // root motion node is the travelling joint (Unity finds it by name).
                Animator animator = r.Root.AddComponent<Animator>();
                r.Avatar = AvatarBuilder.BuildGenericAvatar(r.Root, r.RootJointName);
                r.Avatar.name = name + " (avatar)";
                animator.avatar = r.Avatar;
                ClipPlayer player = r.Root.AddComponent<ClipPlayer>();
                player.clip = r.Clip;
                r.Text = new TextAsset(Encoding.UTF8.GetString(bvhBytes));
                r.Text.name = name + " (BVH text)";
                return r;
            }
        }
    }
}
