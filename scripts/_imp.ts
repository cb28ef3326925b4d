import { benchBundles } from './lib/bench/imports';

const r = await benchBundles(9);
for (const b of r) console.log(b.group, (b.bytes / 1024).toFixed(1), b.ownImportMs.toFixed(1), b.importMs.toFixed(1));
