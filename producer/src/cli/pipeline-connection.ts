// Commands that talk to Redis load the pipeline client (and BullMQ with it) only when they run,
// so `wq compute`, `wq boards` and every `--help` start without paying for it.
import type { WqConfig } from '@weak-queens/shared';
import type { PipelineClient } from '../pipeline/pipeline-client.js';

export async function openPipelineClient(config: WqConfig): Promise<PipelineClient> {
  const { PipelineClient: Client } = await import('../pipeline/pipeline-client.js');
  return new Client(config);
}
