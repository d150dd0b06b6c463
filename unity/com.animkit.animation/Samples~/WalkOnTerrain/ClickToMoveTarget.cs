// Sample: moves a target Transform to the point of the Terrain (or any collider) you click.
// The GuideWalker walks toward that Transform. Uses the classic Input Manager
// (Project Settings > Player > Active Input Handling: "Input Manager (Old)" or "Both").
using UnityEngine;

namespace AnimKit.Samples
{
    [AddComponentMenu("animkit/Samples/Click To Move Target")]
    public class ClickToMoveTarget : MonoBehaviour
    {
        [Tooltip("The Transform the GuideWalker walks to.")]
        public Transform target;
        [Tooltip("Camera to cast from; empty = Camera.main.")]
        public Camera viewCamera;
        [Tooltip("What can be clicked (the Terrain's layer).")]
        public LayerMask clickLayers = Physics.DefaultRaycastLayers;
        [Tooltip("Longest click ray, metres.")]
        public float maxDistance = 1000f;

        void Update()
        {
            if (target == null || !Input.GetMouseButtonDown(0)) return;
            Camera cam = viewCamera != null ? viewCamera : Camera.main;
            if (cam == null) return;
            RaycastHit hit;
            if (Physics.Raycast(cam.ScreenPointToRay(Input.mousePosition), out hit, maxDistance, clickLayers))
                target.position = hit.point;
        }
    }
}
