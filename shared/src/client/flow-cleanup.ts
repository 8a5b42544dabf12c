// BullMQ flow housekeeping: job ids are deterministic, so a finished flow left in the queues
// must go before an n is added again, and a cancelled n's waiting jobs must go while its
// running units finish. Also follows a parent's "child … failed" to the reason.
import type { FlowJob, FlowJobNode, Job, Queue } from 'bullmq';
import { isCountQueue, QUEUE_NAMES } from '../contracts/index.js';
import { problemOf } from './problems/index.js';
import type { PipelineParts } from './pipeline-parts.js';
import type { SweepRecord } from './sweep-registry.js';

export class FlowCleanup {
  constructor(private readonly parts: PipelineParts) {}

  /** Removes the sum jobs of `ns` of a sweep with their flows (running units finish first). */
  async removeSizes(
    sweep: SweepRecord,
    ns: readonly number[],
    timeoutMs: number,
  ): Promise<{ removed: number[]; left: number[] }> {
    const { aggregate } = this.parts.queues;
    const { sumJobId } = problemOf(sweep);
    const deadline = Date.now() + timeoutMs;
    let left = [...ns];
    const removed: number[] = [];
    for (;;) {
      const still: number[] = [];
      for (const n of left) {
        const id = sumJobId(n);
        if ((await aggregate.getJobState(id)) === 'unknown') {
          removed.push(n);
        } else if ((await aggregate.remove(id, { removeChildren: true })) === 1) {
          removed.push(n);
        } else {
          // Something below is running: take away what is still waiting so it ends soon.
          await this.removeWaitingChildren(QUEUE_NAMES.aggregate, id);
          still.push(n);
        }
      }
      left = still;
      if (left.length === 0 || Date.now() >= deadline) return { removed, left };
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }

  /** A parent failed by its child says only "child <key> failed": follow it to the reason. */
  async rootCause(job: Job | undefined): Promise<string> {
    let reason = job?.failedReason ?? 'failed';
    for (let hops = 0; hops < 3; hops++) {
      const match = /child (\S+) failed/.exec(reason);
      if (!match?.[1]) break;
      const parts = match[1].split(':');
      const queue = this.queueNamed(parts[parts.length - 2] ?? '');
      const child = await queue.getJob(parts[parts.length - 1] ?? '');
      if (!child?.failedReason) break;
      reason = `${child.id}: ${child.failedReason}`;
    }
    return reason;
  }

  /** True when this root job is waiting, running or waiting for its children (not finished). */
  async isQueued(id: string): Promise<boolean> {
    const state = await this.parts.queues.aggregate.getJobState(id);
    return state !== 'unknown' && state !== 'completed' && state !== 'failed';
  }

  /** Removes a finished (completed or failed) root with its children; true when it is gone. */
  async removeIfFinished(id: string, state: string): Promise<boolean> {
    if (state !== 'completed' && state !== 'failed') return false;
    return (await this.parts.queues.aggregate.remove(id, { removeChildren: true })) === 1;
  }

  /**
   * Job ids are deterministic, and BullMQ ignores a job whose id exists: a finished job left
   * from an earlier flow (kept by the retention policy) would stand in for a new one that never
   * runs. One pipelined read finds them; the rare ones found are removed.
   */
  async removeFinishedJobs(flow: FlowJob): Promise<void> {
    const jobs: { queue: string; id: string }[] = [];
    const walk = (node: FlowJob | FlowJobNode): void => {
      if (node.opts?.jobId) jobs.push({ queue: node.queueName, id: node.opts.jobId });
      for (const child of node.children ?? []) walk(child);
    };
    walk(flow);
    const read = this.parts.redis.pipeline();
    for (const { queue, id } of jobs)
      read.hget(`${this.parts.config.prefix}:${queue}:${id}`, 'finishedOn');
    const finished = (await read.exec()) ?? [];
    for (let i = 0; i < jobs.length; i++) {
      const job = jobs[i];
      if (!job || finished[i]?.[1] == null) continue;
      const queue = this.queueNamed(job.queue);
      await queue.remove(job.id, { removeChildren: true });
    }
  }

  private async removeWaitingChildren(queueName: string, id: string): Promise<void> {
    const queue = this.queueNamed(queueName);
    const job = await queue.getJob(id);
    if (!job) return;
    const { unprocessed = [] } = await job.getDependencies({ unprocessed: { count: 10_000 } });
    for (const key of unprocessed) {
      // Job keys are `<prefix>:<queue>:<id>`; ids and queue names contain no ':'.
      const parts = key.split(':');
      const childId = parts[parts.length - 1] ?? '';
      const childQueue = parts[parts.length - 2] ?? '';
      const child = this.queueNamed(childQueue);
      if ((await child.remove(childId, { removeChildren: true })) === 0) {
        await this.removeWaitingChildren(childQueue, childId);
      }
    }
  }

  /** `aggregate`, or the count queue of this name (`count` or a class queue). */
  private queueNamed(name: string): Queue {
    return isCountQueue(name) ? this.parts.queues.count.get(name) : this.parts.queues.aggregate;
  }
}

/** The queue names of a flow's jobs (its class queues are listed before it is added). */
export function flowQueues(
  flow: FlowJob | FlowJobNode,
  into: Set<string> = new Set(),
): Set<string> {
  into.add(flow.queueName);
  for (const child of flow.children ?? []) flowQueues(child, into);
  return into;
}
