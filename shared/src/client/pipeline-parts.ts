// What every part of the pipeline client works through: one Redis connection, the stores, the
// sweep registry, the queues and the flow producer, opened once by PipelineClient and shared.
import type { FlowProducer, Queue } from 'bullmq';
import type { WqConfig } from '../contracts/index.js';
import type { ClassicResultStore } from './classic-result-store.js';
import type { RedisClient } from './connection.js';
import type { CountQueues } from './count-queues.js';
import type { ResultStore } from './result-store.js';
import type { SweepRegistry } from './sweep-registry.js';

export interface PipelineParts {
  readonly config: WqConfig;
  readonly redis: RedisClient;
  readonly store: ResultStore;
  /** The classic problem's results (Q(n), classes, unit subtotals). */
  readonly classic: ClassicResultStore;
  readonly registry: SweepRegistry;
  readonly queues: { readonly count: CountQueues; readonly aggregate: Queue };
  readonly flows: FlowProducer;
  /** Fails fast with one clear error when Redis cannot be reached. */
  readonly ping: () => Promise<void>;
}
