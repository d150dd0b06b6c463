// A stand-in for the part of UnityEditor the package's Editor assembly uses (ScriptedImporter,
// AnimationUtility), so mcs type-checks Editor/ and its tests run with mono. Signatures follow
// Unity 2022.3's scripting API. Test-only: never shipped in the package.
using System;
using System.Collections.Generic;
using UnityEngine;

namespace UnityEditor
{
    public class AssetImporter : UnityEngine.Object
    {
        public string assetPath { get; internal set; }
        public string userData { get; set; }
    }

    public class AnimationClipSettings
    {
        public bool loopTime;
        public bool loopBlend;
        public float startTime, stopTime;
    }

    public struct EditorCurveBinding
    {
        public string path;
        public Type type;
        public string propertyName;
    }

    [AttributeUsage(AttributeTargets.Method, AllowMultiple = true)]
    public sealed class MenuItem : Attribute
    {
        public MenuItem(string itemName) { }
        public MenuItem(string itemName, bool isValidateFunction) { }
        public MenuItem(string itemName, bool isValidateFunction, int priority) { }
    }

    public static class Selection
    {
        public static GameObject activeGameObject { get; set; }
        public static UnityEngine.Object[] objects { get; set; } = new UnityEngine.Object[0];
    }

    public static class AssetDatabase
    {
        public static readonly Dictionary<string, UnityEngine.Object> Created = new Dictionary<string, UnityEngine.Object>(); // test helper
        public static string GetAssetPath(UnityEngine.Object o) { return ""; }
        public static string GenerateUniqueAssetPath(string path) { return path; }
        public static void CreateAsset(UnityEngine.Object asset, string path) { Created[path] = asset; }
        public static void SaveAssets() { }
    }

    // Unity's Animation Mode samples clips on scene objects and reverts them on Stop; the stub
    // samples with AnimationClip.SampleAnimation and reverts nothing.
    public static class AnimationMode
    {
        static bool s_on;
        public static bool InAnimationMode() { return s_on; }
        public static void StartAnimationMode() { s_on = true; }
        public static void StopAnimationMode() { s_on = false; }
        public static void BeginSampling() { }
        public static void EndSampling() { }
        public static void SampleAnimationClip(GameObject go, AnimationClip clip, float time) { clip.SampleAnimation(go, time); }
    }

    public static class AnimationUtility
    {
        static readonly Dictionary<AnimationClip, AnimationClipSettings> s_settings =
            new Dictionary<AnimationClip, AnimationClipSettings>();

        public static AnimationClipSettings GetAnimationClipSettings(AnimationClip clip)
        {
            AnimationClipSettings s;
            if (!s_settings.TryGetValue(clip, out s)) s = new AnimationClipSettings { stopTime = clip.length };
            return new AnimationClipSettings { loopTime = s.loopTime, loopBlend = s.loopBlend, startTime = s.startTime, stopTime = s.stopTime };
        }

        public static void SetAnimationClipSettings(AnimationClip clip, AnimationClipSettings settings)
        {
            s_settings[clip] = settings;
        }

        public static EditorCurveBinding[] GetCurveBindings(AnimationClip clip)
        {
            var list = new List<EditorCurveBinding>();
            foreach (var b in clip.curves)
                list.Add(new EditorCurveBinding { path = b.path, type = b.type, propertyName = b.property });
            return list.ToArray();
        }

        public static AnimationCurve GetEditorCurve(AnimationClip clip, EditorCurveBinding binding)
        {
            foreach (var b in clip.curves)
                if (b.path == binding.path && b.type == binding.type && b.property == binding.propertyName) return b.curve;
            return null;
        }
    }
}

namespace UnityEditor.AssetImporters
{
    [AttributeUsage(AttributeTargets.Class)]
    public sealed class ScriptedImporterAttribute : Attribute
    {
        public ScriptedImporterAttribute(int version, string ext) { }
        public ScriptedImporterAttribute(int version, string[] exts) { }
    }

    public abstract class ScriptedImporter : AssetImporter
    {
        public abstract void OnImportAsset(AssetImportContext ctx);
    }

    public class AssetImportContext
    {
        public string assetPath { get; internal set; }
        public void AddObjectToAsset(string identifier, UnityEngine.Object obj) { }
        public void SetMainObject(UnityEngine.Object obj) { }
        public void LogImportError(string msg, UnityEngine.Object obj = null) { }
        public void LogImportWarning(string msg, UnityEngine.Object obj = null) { }
    }
}
