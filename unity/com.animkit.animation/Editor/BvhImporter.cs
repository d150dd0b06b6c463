// Drop a .bvh into Assets and Unity imports it as:
//  - a prefab (the main object): one empty GameObject per joint at the rest pose, with an
//    Animator and a ClipPlayer that plays the clip, so dragging it into a scene and pressing
//    Play shows the motion (the bones are empty Transforms: select them, or add a BvhPlayer
//    with "Draw Skeleton" for gizmos);
//  - the AnimationClip (generic, one key per BVH frame, looping if "Loop" is ticked), usable
//    in any Animator Controller on a hierarchy with the same joint names;
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

        /// <summary>What one import produced (also what the tests inspect).</summary>
        public sealed class Result
        {
            public GameObject Root;
            public AnimationClip Clip;
            public TextAsset Text;
            public float MetresPerUnit;
            public int JointCount, FrameCount;
        }

        public override void OnImportAsset(AssetImportContext ctx)
        {
            string name = Path.GetFileNameWithoutExtension(ctx.assetPath);
            Result r;
            try
            {
                r = Import(File.ReadAllBytes(ctx.assetPath), name, metresPerUnit, loop);
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
            ctx.AddObjectToAsset("bvh text", r.Text);
            ctx.SetMainObject(r.Root);
        }

        /// <summary>The import without an AssetImportContext: BVH bytes -> hierarchy, clip and
        /// text. Throws AnimKitException ("line N: reason") for a bad file.</summary>
        public static Result Import(byte[] bvhBytes, string name, float metresPerUnit, bool loop)
        {
            using (BvhFile bvh = BvhFile.LoadText(bvhBytes, metresPerUnit, loop))
            {
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
                r.Root.AddComponent<Animator>(); // ClipPlayer requires it; added first, explicitly
                ClipPlayer player = r.Root.AddComponent<ClipPlayer>();
                player.clip = r.Clip;
                r.Text = new TextAsset(Encoding.UTF8.GetString(bvhBytes));
                r.Text.name = name + " (BVH text)";
                return r;
            }
        }
    }
}
