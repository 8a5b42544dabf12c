// Builds a Snapshot for the page: the client's progress reader gives the sweeps (the same
// statuses `wq status` shows); this maps them to the page's JSON and adds the live workers, the
// queue counts and the disagreements. A read costs a constant few round trips.
import {
  notQueuedLine,
  type PipelineClient,
  type SizeProgress,
  type SweepProgress,
  type WorkerInfo,
} from '@weak-queens/shared/client';
import { PROTOCOL_VERSION, protocolOf } from '@weak-queens/shared/contracts';
import type { SizeView, Snapshot, SweepView, WorkerView } from './snapshot.js';

/** Ids of running count jobs read at most (worker heartbeats name theirs). */
const MAX_ACTIVE = 1000;

export class SnapshotReader {
  /** The last rate-based ETA of each running sweep, and when it was read. */
  #etas = new Map<
    string,
    { readonly at: number; readonly seconds: number | null; readonly workDone?: number }
  >();
  #etaReadAt = -Infinity;

  constructor(
    private readonly client: PipelineClient,
    /**
     * How often the rate-based ETA is read (`wq status`'s: it reads every unfinished (n, D)'s
     * unit records, thousands for a large n); in between, the last one counts down.
     */
    private readonly options: { readonly etaRefreshMs: number } = { etaRefreshMs: 10_000 },
  ) {}

  async read(options: { limit?: number } = {}): Promise<Snapshot> {
    const now = Date.now();
    const { registry, store, progressReader } = this.client;
    const { queues } = this.client.connection;
    const records = (await registry.list()).slice(-(options.limit ?? 20)).reverse();
    const eta = now - this.#etaReadAt >= this.options.etaRefreshMs;
    if (eta) this.#etaReadAt = now;
    const [sweeps, workers, others, activeIds, counts, disagreements] = await Promise.all([
      progressReader
        .read(records, { depths: true, eta })
        .then((read) => read.map((p) => this.#withEta(p, eta, now)))
        .then((read) => Promise.all(read.map((p) => this.client.withUnfit(p)))),
      registry.liveWorkers(),
      registry.otherProtocolWorkers(),
      queues.count.getRanges(['active'], 0, MAX_ACTIVE - 1),
      this.counts(),
      store.disagreements(),
    ]);
    const active = new Set(activeIds);
    return {
      generatedAt: new Date(now).toISOString(),
      sweeps: sweeps.map(sweepView),
      workers: [
        ...workers.map((w) => workerView(w, active, false)),
        ...others.map((w) => workerView(w, active, true)),
      ],
      queues: counts,
      disagreements: disagreements.map(({ n, depth, unit, stored, counted }) => ({
        n,
        depth,
        unit,
        stored,
        counted,
      })),
    };
  }

  /** A running sweep's ETA: read now, or the last one read, less the time since. */
  #withEta(p: SweepProgress, read: boolean, now: number): SweepProgress {
    const id = p.sweep.id;
    if (p.status !== 'running') {
      this.#etas.delete(id);
      return p;
    }
    if (read) {
      this.#etas.set(id, { at: now, seconds: p.etaSeconds, workDone: p.workDone });
      return p;
    }
    const last = this.#etas.get(id);
    if (last?.seconds == null) return p;
    const since = (now - last.at) / 1000;
    // Between two reads the work left goes down as the ETA does: the share of it that has
    // elapsed since the last read is done.
    const elapsedShare = last.seconds > 0 ? Math.min(1, since / last.seconds) : 1;
    return {
      ...p,
      etaSeconds: Math.max(0, last.seconds - since),
      ...(last.workDone === undefined
        ? {}
        : { workDone: last.workDone + (1 - last.workDone) * elapsedShare }),
    };
  }

  /** One sweep in full, or undefined when no sweep has this id. */
  async sweep(id: string): Promise<SweepView | undefined> {
    const record = await this.client.registry.find(id);
    if (record === undefined) return undefined;
    const [progress] = await this.client.progressReader.read([record], { depths: true, eta: true });
    return progress && sweepView(await this.client.withUnfit(progress));
  }

  async exists(id: string): Promise<boolean> {
    return (await this.client.registry.find(id)) !== undefined;
  }

  /** Job counts by state, per queue: `count`, the memory-class queues in use, `aggregate`. */
  private async counts(): Promise<Record<string, Record<string, number>>> {
    const { queues, countQueues } = this.client.connection;
    const all = [...(await countQueues.all()), queues.aggregate];
    const counts = await Promise.all(all.map((q) => q.getJobCounts()));
    return Object.fromEntries(all.map((q, i) => [q.name, counts[i] ?? {}]));
  }
}

function sweepView(p: SweepProgress): SweepView {
  const { sweep } = p;
  return {
    id: sweep.id,
    problem: sweep.problem ?? 'weak',
    createdAt: sweep.createdAt,
    cancelledAt: sweep.cancelledAt ?? null,
    targetSeconds: sweep.targetSeconds,
    ns: sweep.ns,
    status: p.status,
    done: p.done,
    total: p.total,
    unitsDone: p.unitsDone,
    units: p.units,
    elapsedSeconds: p.elapsedSeconds,
    etaSeconds: p.etaSeconds,
    workDone: p.workDone ?? null,
    sizes: p.sizes.map(sizeView),
    unfit: p.sizes.flatMap((s) =>
      (s.unfit ?? []).map(({ jobId, n, depth, bytes, largestSlotBytes }) => ({
        jobId,
        n,
        depth,
        bytes,
        largestSlotBytes,
      })),
    ),
    notQueued: p.notQueued
      ? { ...p.notQueued, message: notQueuedLine(p.sweep.id, p.notQueued) }
      : null,
    otherProtocol:
      protocolOf(sweep) !== PROTOCOL_VERSION && p.done < p.total
        ? `Queued by a build of protocol ${protocolOf(sweep)}: its jobs are in that build's queues, which this one does not read; its wq status follows it.`
        : null,
  };
}

function sizeView(s: SizeProgress): SizeView {
  return {
    n: s.n,
    status: s.state,
    unitsDone: s.unitsDone,
    units: s.units,
    S: s.S ?? null,
    Q: s.Q ?? null,
    unique: s.unique ?? null,
    reason: s.state === 'failed' ? (s.reason ?? 'failed') : null,
    depths: s.depths ?? [],
  };
}

function workerView(info: WorkerInfo, activeIds: Set<string>, otherProtocol: boolean): WorkerView {
  const started = Date.parse(info.startedAt);
  const seen = info.heartbeatAt === undefined ? NaN : Date.parse(info.heartbeatAt);
  const span = (seen - started) * info.concurrency;
  const busyShare =
    info.busyMs !== undefined && span > 0 ? Math.min(1, Math.max(0, info.busyMs / span)) : null;
  return {
    id: info.id,
    host: info.host,
    pid: info.pid,
    concurrency: info.concurrency,
    startedAt: info.startedAt,
    lastSeenAt: info.heartbeatAt ?? null,
    current: info.active.filter((id) => activeIds.has(id)),
    jobsDone: info.jobsDone ?? null,
    busyShare,
    memoryBytes: info.memoryBytes ?? null,
    slotBytes: info.slotBytes ?? null,
    version: info.version ?? null,
    build: info.build ?? null,
    protocol: protocolOf(info),
    otherProtocol,
    clockSkewMs: info.clockSkewMs ?? null,
  };
}
