// `node scripts/classic-on-pipeline.mjs <n>` (after `npm run build`): Q(n) on the pipeline alone, without
// the peer: a private redis-server and 2 worker processes of one core each, as `npm run bench --
// --classic` runs it. Prints Q(n), the unique count, the wall time and whether both agree with OEIS.
import { LocalCluster } from '../bench/dist/local-cluster.js';
import { CLASSIC_QUEENS, UNIQUE_QUEENS } from '../shared/dist/contracts/index.js';
const n = Number(process.argv[2] ?? 20);
const cluster = await LocalCluster.start({ workers: 2, concurrency: 1 });
try {
  const started = performance.now();
  const submission = await cluster.client.submitClassic([n]);
  const results = await cluster.client.waitForClassic([n], {
    sweepId: submission.sweepId,
    pollMs: 200,
  });
  const seconds = (performance.now() - started) / 1000;
  const r = results.get(n);
  console.log(
    JSON.stringify({
      n,
      Q: r?.Q,
      unique: r?.unique,
      seconds,
      coreSeconds: r?.seconds,
      units: r?.units,
      oeisQ: CLASSIC_QUEENS[n - 1],
      oeisUnique: UNIQUE_QUEENS[n - 1],
      agrees: r?.Q === CLASSIC_QUEENS[n - 1] && r?.unique === UNIQUE_QUEENS[n - 1],
    }),
  );
} finally {
  await cluster.stop();
}
