// Sample: moves a target Transform to the point of the ground (any collider) you click; the
// GuideWalker walks toward that Transform. (Walk on Uneven Ground's ClickToMoveTarget under
// this sample's own name, so both samples can be imported together.) Works with either input
// back end (Project Settings > Player > Active Input Handling): the Input System package when it is active
// (ENABLE_INPUT_SYSTEM), else the classic Input Manager (ENABLE_LEGACY_INPUT_MANAGER). With
// "Input System Package (New)" only, the classic Input class throws, so it is not touched.
using UnityEngine;
#if ENABLE_INPUT_SYSTEM
using UnityEngine.InputSystem;
#endif

namespace AnimKit.Samples.YourCharacter
{
    [AddComponentMenu("animkit/Samples/Click To Walk")]
    public class ClickToWalk : MonoBehaviour
    {
        [Tooltip("The Transform the GuideWalker walks to.")]
        public Transform target;
        [Tooltip("Camera to cast from; empty = Camera.main.")]
        public Camera viewCamera;
        [Tooltip("What can be clicked (the ground's layers).")]
        public LayerMask clickLayers = Physics.DefaultRaycastLayers;
        [Tooltip("Longest click ray, metres.")]
        public float maxDistance = 1000f;

        void Update()
        {
            Vector3 pointer;
            if (target == null || !ClickedThisFrame(out pointer)) return;
            Camera cam = viewCamera != null ? viewCamera : Camera.main;
            if (cam == null) return;
            RaycastHit hit;
            if (Physics.Raycast(cam.ScreenPointToRay(pointer), out hit, maxDistance, clickLayers))
                target.position = hit.point;
        }

        /// <summary>True on the frame the left mouse button went down; `pointer` is where, in
        /// screen pixels.</summary>
        static bool ClickedThisFrame(out Vector3 pointer)
        {
#if ENABLE_INPUT_SYSTEM
            Mouse mouse = Mouse.current;
            pointer = mouse != null ? (Vector3)mouse.position.ReadValue() : Vector3.zero;
            return mouse != null && mouse.leftButton.wasPressedThisFrame;
#elif ENABLE_LEGACY_INPUT_MANAGER
            pointer = Input.mousePosition;
            return Input.GetMouseButtonDown(0);
#else
            pointer = Vector3.zero;
            return false;
#endif
        }
    }
}
