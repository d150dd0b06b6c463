// Plays one AnimationClip on this GameObject's Animator without an Animator Controller (a
// PlayableGraph with the clip as its only input). The .bvh importer puts one on the prefab it
// makes, so a BVH dropped into Assets and then into a scene plays when you press Play.
using UnityEngine;
using UnityEngine.Animations;
using UnityEngine.Playables;

namespace AnimKit.Unity
{
    [AddComponentMenu("animkit/Clip Player")]
    [RequireComponent(typeof(Animator))]
    [DisallowMultipleComponent]
    public class ClipPlayer : MonoBehaviour
    {
        [Tooltip("The clip to play (an imported .bvh's clip, or any generic clip on this hierarchy).")]
        public AnimationClip clip;
        [Tooltip("Playback rate; 1 = the clip's own frame rate.")]
        public float speed = 1f;

        PlayableGraph m_graph;

        void OnEnable()
        {
            if (clip == null) return;
            AnimationClipPlayable playable = AnimationPlayableUtilities.PlayClip(GetComponent<Animator>(), clip, out m_graph);
            playable.SetSpeed(speed);
        }

        void OnDisable()
        {
            if (m_graph.IsValid()) m_graph.Destroy();
        }
    }
}
