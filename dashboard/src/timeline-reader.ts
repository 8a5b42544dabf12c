// Builds a sweep's timeline from the result store: the unit results its jobs counted (both counts
// of a verified sweep), read where the sweep's problem keeps them (TIMELINE_SOURCES), placed by
// start time and the slot that ran them. Start times are the workers' own, put on the Redis
// server's clock by each worker's measured skew: one worker hours off would stretch the makespan.
import {
  type ClassicUnitResult,
  DEFAULT_PROBLEM,
  type Problem,
  type SweepRecord,
  type UnitResult,
} from '@weak-queens/shared/contracts';
import type { PipelineClient, WorkerInfo } from '@weak-queens/shared/client';
import {
  MAX_OVERRUNS,
  MAX_TIMELINE_UNITS,
  OVERRUN_MIN_SECONDS,
  OVERRUN_RATIO,
  type TimelineLane,
  type TimelineUnit,
  type TimelineView,
} from './timeline.js';

/** A heartbeat claiming more slots than this is not believed (it would draw that many lanes). */
const MAX_WORKER_SLOTS = 1024;

/** A stored unit result of either problem, as far as the timeline cares. */
interface StoredUnit {
  readonly sweepId: string | undefined;
  readonly startedAt: number | undefined;
  readonly slot: number | undefined;
  readonly unit: Omit<TimelineUnit, 'slot' | 'start' | 'end'>;
}

/**
 * What differs per problem in a timeline: where its unit results and the time its sweep finished
 * are read, and what the answer says of the problem. A new problem is a new entry.
 */
interface TimelineSource {
  /** The stored unit results of `ns`, both counts (undefined: unreadable). */
  units(client: PipelineClient, ns: readonly number[]): Promise<(StoredUnit | undefined)[]>;
  /** When the sweep's last n was stored, once every one is. */
  doneAt(client: PipelineClient, record: SweepRecord): Promise<number | undefined>;
  /** Named in the answer only for a problem other than weak, whose answers predate problems. */
  readonly answer: Pick<TimelineView, 'problem'>;
}

const TIMELINE_SOURCES: Readonly<Record<Problem, TimelineSource>> = {
  weak: {
    units: async (client, ns) => {
      const results = await client.store.unitResults(ns);
      return results.map((result) => result && weakStoredUnit(result));
    },
    doneAt: async (client, record) => (await client.store.completionTimes([record])).get(record.id),
    answer: {},
  },
  classic: {
    units: async (client, ns) => {
      const counts = await Promise.all(
        ns.flatMap((n) => [client.classic.units(n), client.classic.units(n, 'check')]),
      );
      return counts.flatMap((units) => [...units.values()].map(classicStoredUnit));
    },
    // No per-sweep record of completion exists for classic sweeps: the last Q(n) stored.
    doneAt: async (client, record) => {
      const results = await client.classic.results(record.ns);
      const times = record.ns.map((n) => Date.parse(results.get(n)?.completedAt ?? ''));
      return times.length > 0 && times.every(Number.isFinite) ? Math.max(...times) : undefined;
    },
    answer: { problem: 'classic' },
  },
};

interface TimedUnit {
  readonly unit: StoredUnit['unit'];
  readonly startedAt: number;
  readonly slot: number;
}

export class TimelineReader {
  constructor(private readonly client: PipelineClient) {}

  /** The sweep's timeline, or undefined when no sweep has this id. */
  async read(
    id: string,
    options: { limit?: number; now?: number } = {},
  ): Promise<TimelineView | undefined> {
    const record = await this.client.registry.find(id);
    if (record === undefined) return undefined;
    const limit = Math.min(options.limit ?? MAX_TIMELINE_UNITS, MAX_TIMELINE_UNITS);
    const source = TIMELINE_SOURCES[record.problem ?? DEFAULT_PROBLEM];
    const [stored, doneAt, workers, skews] = await Promise.all([
      source.units(this.client, record.ns),
      source.doneAt(this.client, record),
      this.client.registry.liveWorkers(),
      this.client.registry.clockSkews(),
    ]);
    const timed: TimedUnit[] = [];
    let untimed = 0;
    let otherSweeps = 0;
    for (const found of stored) {
      const { sweepId, startedAt, slot } = found ?? {};
      if (!found || sweepId === undefined || startedAt === undefined || slot === undefined) {
        untimed++;
      } else if (sweepId !== record.id) otherSweeps++;
      else {
        const skew = skews.get(found.unit.worker) ?? 0;
        timed.push({ unit: found.unit, startedAt: startedAt - skew, slot });
      }
    }
    timed.sort(
      (a, b) =>
        a.startedAt - b.startedAt || a.unit.worker.localeCompare(b.unit.worker) || a.slot - b.slot,
    );

    const origin = timed[0]?.startedAt ?? null;
    const units = timed.map((t) => timelineUnit(t, origin ?? 0));
    const actualSeconds = units.length ? units.reduce((t, u) => Math.max(t, u.end), 0) : null;
    const lanes = laneList(units, workers, doneAt ?? options.now ?? Date.now());
    const estimates = record.ns.map((n) => record.estimates?.[String(n)]);
    const estimatedCoreSeconds = estimates.every((e) => e !== undefined)
      ? round(estimates.reduce<number>((t, e) => t + (e ?? 0), 0))
      : null;
    const overruns = units
      .filter(isOverrun)
      .sort((a, b) => overrunRatio(b) - overrunRatio(a))
      .slice(0, MAX_OVERRUNS);
    return {
      sweepId: record.id,
      ...source.answer,
      ns: record.ns,
      createdAt: record.createdAt,
      origin,
      lanes,
      units: units.slice(0, limit),
      total: units.length,
      truncated: units.length > limit,
      makespan: {
        plannedSeconds:
          estimatedCoreSeconds === null || lanes.length === 0
            ? null
            : round(estimatedCoreSeconds / lanes.length),
        estimatedCoreSeconds,
        actualSeconds,
        coreSeconds: round(units.reduce((t, u) => t + u.seconds, 0)),
        slots: lanes.length,
      },
      overruns,
      skipped: { untimed, otherSweeps },
    };
  }
}

/** A weak unit result as the timeline places it: by its D, with the planner's estimate. */
function weakStoredUnit(result: UnitResult): StoredUnit {
  return storedUnit(result, {
    depth: result.depth,
    algorithm: result.algorithm,
    estimateSeconds: result.estimateSeconds ?? null,
  });
}

/**
 * A classic unit result as the timeline places it: no D (n colours it), its method for an
 * algorithm, and no estimate (the classic planner makes none).
 */
function classicStoredUnit(result: ClassicUnitResult): StoredUnit {
  return storedUnit(result, { depth: null, algorithm: result.method, estimateSeconds: null });
}

/** What every problem's unit results share, with what the problem's own says. */
function storedUnit(
  result: UnitResult | ClassicUnitResult,
  own: Pick<StoredUnit['unit'], 'depth' | 'algorithm' | 'estimateSeconds'>,
): StoredUnit {
  return {
    sweepId: result.sweepId,
    startedAt: result.startedAt,
    slot: result.slot,
    unit: {
      n: result.n,
      depth: own.depth,
      role: result.role === 'check' ? 'check' : 'primary',
      unit: result.unit,
      algorithm: own.algorithm,
      worker: result.worker,
      seconds: result.seconds,
      estimateSeconds: own.estimateSeconds,
    },
  };
}

function timelineUnit(t: TimedUnit, origin: number): TimelineUnit {
  const { unit } = t;
  const start = (t.startedAt - origin) / 1000;
  // Spelled out field by field: the order of the JSON answer stays the same for either problem.
  return {
    n: unit.n,
    depth: unit.depth,
    role: unit.role,
    unit: unit.unit,
    algorithm: unit.algorithm,
    worker: unit.worker,
    slot: t.slot,
    start: round(start),
    end: round(start + unit.seconds),
    seconds: unit.seconds,
    estimateSeconds: unit.estimateSeconds,
  };
}

/**
 * One lane per slot that ran a unit of the sweep, plus the idle slots of live workers that were
 * up before the sweep ended (the lanes that show idle capacity), by worker id and slot.
 */
function laneList(
  units: readonly TimelineUnit[],
  workers: readonly WorkerInfo[],
  end: number,
): TimelineLane[] {
  const lanes = new Map<string, { worker: string; slot: number; units: number; busy: number }>();
  const lane = (worker: string, slot: number) => {
    const key = `${worker}\u0000${slot}`;
    let found = lanes.get(key);
    if (!found) {
      found = { worker, slot, units: 0, busy: 0 };
      lanes.set(key, found);
    }
    return found;
  };
  for (const u of units) {
    const l = lane(u.worker, u.slot);
    l.units++;
    l.busy += u.seconds;
  }
  for (const w of workers) {
    if (!(Date.parse(w.startedAt) <= end)) continue;
    const slots = Number.isInteger(w.concurrency) ? Math.min(w.concurrency, MAX_WORKER_SLOTS) : 0;
    for (let slot = 0; slot < slots; slot++) lane(w.id, slot);
  }
  return [...lanes.values()]
    .sort((a, b) => a.worker.localeCompare(b.worker) || a.slot - b.slot)
    .map((l) => ({ worker: l.worker, slot: l.slot, units: l.units, busySeconds: round(l.busy) }));
}

function isOverrun(u: TimelineUnit): boolean {
  return (
    u.estimateSeconds !== null &&
    u.seconds > OVERRUN_MIN_SECONDS &&
    u.seconds > OVERRUN_RATIO * u.estimateSeconds
  );
}

function overrunRatio(u: TimelineUnit): number {
  return u.estimateSeconds ? u.seconds / u.estimateSeconds : Infinity;
}

/** Microseconds: units of small n take well under a millisecond, and must not round to 0. */
function round(seconds: number): number {
  return Math.round(seconds * 1e6) / 1e6;
}
