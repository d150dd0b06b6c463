// Runs the Khronos glTF validator on each file given; prints a one-line summary per file and
// every error and warning. Exit 1 when any file has an error.
const fs = require('fs');
const path = require('path');
const validator = require('gltf-validator');

async function main(files) {
  let failed = 0;
  for (const file of files) {
    const bytes = new Uint8Array(fs.readFileSync(file));
    const report = await validator.validateBytes(bytes, {
      uri: path.basename(file),
      maxIssues: 50,
      externalResourceFunction: () => Promise.reject(new Error('no external resources expected')),
    });
    const i = report.issues;
    console.log(`${path.basename(file)}: ${i.numErrors} errors, ${i.numWarnings} warnings, ` +
                `${i.numInfos} infos, ${i.numHints} hints (${bytes.length} bytes)`);
    for (const m of i.messages) {
      if (m.severity <= 1) console.log(`  [${m.severity === 0 ? 'error' : 'warning'}] ${m.code} ${m.pointer || ''}: ${m.message}`);
    }
    if (i.numErrors > 0) failed++;
  }
  if (files.length === 0) { console.log('no files to validate'); process.exit(1); }
  process.exit(failed ? 1 : 0);
}
main(process.argv.slice(2)).catch((e) => { console.error(e); process.exit(1); });
