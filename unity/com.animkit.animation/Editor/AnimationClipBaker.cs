// Bakes the user's own AnimationClips (Humanoid or Generic, from FBX or made in Unity) into
// animkit clips for the walkers: select the character in the scene (its Animator's avatar maps
// a Humanoid rig; a Generic rig is mapped by name) and one or more AnimationClips in the
// Project window, then Assets > animkit > Bake AnimationClips for Selected Character. Each clip
// is sampled on the character in Animation Mode (AnimationMode.SampleAnimationClip, the
// Animation window's own sampling: Humanoid clips go through the avatar) at the clip's frame
// rate, the mapped bones read as TransformRig reads them, and saved as an AnimKitClip asset
// beside the clip (name.animkit.asset). Animation Mode puts the character back afterwards.
using System.Collections.Generic;
using AnimKit.Unity;
using UnityEditor;
using UnityEngine;

namespace AnimKit.Editor
{
    public static class AnimationClipBaker
    {
        const string Menu = "Assets/animkit/Bake AnimationClips for Selected Character";

        /// <summary>Samples `clip` on `character` (a scene instance) and returns the baked clip
        /// (not saved). `frameRate` 0: the clip's own. The character is restored afterwards.</summary>
        public static AnimKitClip Bake(GameObject character, AnimationClip clip, float frameRate = 0f,
                                       Transform rigRoot = null, string rigOverrides = "")
        {
            if (character == null || clip == null) throw new System.ArgumentNullException(character == null ? "character" : "clip");
            float rate = frameRate > 0f ? frameRate : (clip.frameRate > 0f ? clip.frameRate : 30f);
            bool loop = AnimationUtility.GetAnimationClipSettings(clip).loopTime;
            bool started = !AnimationMode.InAnimationMode();
            if (started) AnimationMode.StartAnimationMode();
            try
            {
                using (var rig = new TransformRig(character.transform, character.GetComponent<Animator>(), rigRoot, rigOverrides))
                {
                    AnimKitClip baked = AnimKitClip.Bake(rig, t =>
                    {
                        AnimationMode.BeginSampling();
                        AnimationMode.SampleAnimationClip(character, clip, t);
                        AnimationMode.EndSampling();
                    }, clip.length, rate, loop);
                    baked.name = clip.name;
                    return baked;
                }
            }
            finally
            {
                if (started) AnimationMode.StopAnimationMode();
            }
        }

        [MenuItem(Menu, true)]
        static bool CanBake()
        {
            return Selection.activeGameObject != null && SelectedClips().Count > 0;
        }

        [MenuItem(Menu)]
        static void BakeSelected()
        {
            GameObject character = Selection.activeGameObject;
            foreach (AnimationClip clip in SelectedClips())
            {
                try
                {
                    AnimKitClip baked = Bake(character, clip);
                    string path = AssetDatabase.GetAssetPath(clip);
                    string dir = string.IsNullOrEmpty(path) ? "Assets" : System.IO.Path.GetDirectoryName(path);
                    string target = AssetDatabase.GenerateUniqueAssetPath(dir + "/" + clip.name + ".animkit.asset");
                    AssetDatabase.CreateAsset(baked, target);
                    Debug.Log("animkit: baked " + clip.name + " on " + character.name + " (" + baked.FrameCount +
                              " frames, " + baked.jointNames.Length + " bones) to " + target);
                }
                catch (AnimKitException e)
                {
                    Debug.LogError("animkit: " + clip.name + " on " + character.name + ": " + e.Message, character);
                }
            }
            AssetDatabase.SaveAssets();
        }

        static List<AnimationClip> SelectedClips()
        {
            var clips = new List<AnimationClip>();
            foreach (Object o in Selection.objects)
            {
                AnimationClip c = o as AnimationClip;
                if (c != null) clips.Add(c);
            }
            return clips;
        }
    }
}
