// animkit's linear blend skinning against three.js's own: builds a THREE.Skeleton from the
// rig's local pose (bones parented as in the rig, updateMatrixWorld), a SkinnedMesh of the
// generated body with animkit's inverse binds, and compares SkinnedMesh.applyBoneTransform
// with ak_skin_run's positions for every vertex (1e-5 m).
// Usage: node skin_three.mjs THREE_MODULE_PATH DUMP.json
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const THREE = await import(pathToFileURL(process.argv[2]).href);
const cases = JSON.parse(readFileSync(process.argv[3], 'utf8'));
let failed = 0;
for (const c of cases) {
  const n = c.parents.length;
  const bones = [], inverses = [];
  const root = new THREE.Object3D();
  for (let j = 0; j < n; ++j) {
    const b = new THREE.Bone();
    const l = c.local.slice(7 * j, 7 * j + 7); // qx qy qz qw tx ty tz
    b.quaternion.set(l[0], l[1], l[2], l[3]);
    b.position.set(l[4], l[5], l[6]);
    (c.parents[j] >= 0 ? bones[c.parents[j]] : root).add(b);
    bones.push(b);
    inverses.push(new THREE.Matrix4().fromArray(c.inverse_bind, 16 * j));
  }
  const nv = c.positions.length / 3;
  const g = new THREE.BufferGeometry();
  g.setAttribute('position', new THREE.Float32BufferAttribute(c.positions, 3));
  g.setAttribute('skinIndex', new THREE.Uint16BufferAttribute(c.joints, 4));
  g.setAttribute('skinWeight', new THREE.Float32BufferAttribute(c.weights, 4));
  const mesh = new THREE.SkinnedMesh(g, new THREE.MeshBasicMaterial());
  root.add(mesh);
  const skeleton = new THREE.Skeleton(bones, inverses);
  mesh.bind(skeleton, new THREE.Matrix4());
  root.updateMatrixWorld(true);
  let worst = 0;
  const v = new THREE.Vector3();
  for (let i = 0; i < nv; ++i) {
    v.fromBufferAttribute(g.attributes.position, i);
    mesh.applyBoneTransform(i, v);
    const d = Math.max(Math.abs(v.x - c.animkit[3 * i]), Math.abs(v.y - c.animkit[3 * i + 1]),
                       Math.abs(v.z - c.animkit[3 * i + 2]));
    if (d > worst) worst = d;
  }
  const ok = worst <= 1e-5;
  if (!ok) failed++;
  console.log(`${c.label}: ${nv} vertices, ${n} joints, max |animkit - three.js| = ` +
              `${worst.toExponential(2)} m (three ${THREE.REVISION}) ${ok ? 'ok' : 'FAIL (> 1e-5)'}`);
}
process.exit(failed ? 1 : 0);
