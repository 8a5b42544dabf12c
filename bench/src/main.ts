// `npm run bench [-- --full | --pipeline | --scale]`: benchmarks, never timed assertions.
import { parseArgs } from 'node:util';
import { runKernelBench } from './kernel-bench.js';
import { runFrontierBench } from './frontier.js';
import { runPipelineBench } from './pipeline.js';
import { runRedisMemoryBench } from './redis-memory.js';
import { runScaleBench } from './scale.js';

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      full: { type: 'boolean', default: false },
      pipeline: { type: 'boolean', default: false },
      scale: { type: 'boolean', default: false },
      frontier: { type: 'boolean', default: false },
      'redis-memory': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  if (values.help) {
    console.log(
      'usage: npm run bench [-- --full] [-- --pipeline] [-- --scale [--full]] [-- --redis-memory] [-- --frontier [--full]]\n  (default) S(13), S(14) per algorithm vs the C++ baseline; --full adds S(15)\n  --redis-memory: Redis bytes per queued and finished unit for a sweep of ~100,000 units\n  --frontier: S(16) (--full: and S(17)) on 2 workers against the peer program on 2 threads',
    );
    return 0;
  }
  if (values['redis-memory']) return (await runRedisMemoryBench()) ? 0 : 1;
  if (values.frontier) return (await runFrontierBench({ full: values.full })) ? 0 : 1;
  if (values.scale) return (await runScaleBench({ full: values.full })) ? 0 : 1;
  if (values.pipeline) return (await runPipelineBench()) ? 0 : 1;
  return (await runKernelBench({ full: values.full })) ? 0 : 1;
}

main().then(
  (code) => (process.exitCode = code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  },
);
