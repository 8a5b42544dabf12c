// GET /api/sweeps/:id/timeline against a real Redis: known unit results (of this sweep, of other
// sweeps, older ones without times, an unreadable one, a second count) and a live worker with an
// idle slot give exactly one answer; so do known classic unit results for a classic sweep.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ClassicResultStore,
  createRedis,
  type RedisClient,
  ResultStore,
  SweepRegistry,
} from '@weak-queens/shared/client';
import {
  type ClassicUnitResult,
  PROTOCOL_VERSION,
  type SweepRecord,
  type UnitResult,
  type WqConfig,
} from '@weak-queens/shared/contracts';
import type { DashboardServer, TimelineView } from '../src/index.js';
import { http, startDashboard, STACK, redisFixture } from './helpers.js';

const redis = redisFixture();

/** Both seeded sweeps are of n = 5 and 6, created at the same time: their answers say so. */
const SEEDED = { ns: [5, 6], createdAt: '2025-03-01T12:00:00.000Z' };
const CREATED = Date.parse(SEEDED.createdAt);
/** The first unit starts a second after the sweep was created. */
const T0 = CREATED + 1_000;

/** A worker slot's lane: how many units it ran and their seconds added up. */
function lane(worker: string, slot: number, units: number, busySeconds: number) {
  return { worker, slot, units, busySeconds };
}

function unit(fields: Partial<UnitResult> & Pick<UnitResult, 'n' | 'depth' | 'unit'>): UnitResult {
  return {
    kind: 'unit',
    value: '7',
    algorithm: 'dfs',
    seconds: 1,
    worker: 'w-a',
    sweepId: 's-known',
    ...fields,
  };
}

/**
 * A dashboard over a fresh key prefix that `seed` fills first, for one describe block; `base` is
 * its URL once beforeAll has run.
 */
function seededDashboard(
  label: string,
  sweep: Pick<SweepRecord, 'id' | 'units'> & Partial<SweepRecord>,
  seed: (conn: RedisClient, config: WqConfig) => Promise<void>,
): { readonly base: string } {
  const served = { base: '' };
  let conn: RedisClient | undefined;
  let dashboard: DashboardServer | undefined;
  beforeAll(async () => {
    const config = redis.config(label);
    conn = createRedis(config, 'producer');
    await new SweepRegistry(conn, config.prefix).save({
      ...SEEDED,
      targetSeconds: 30,
      ...sweep,
    });
    await seed(conn, config);
    const started = await startDashboard(config);
    dashboard = started.server;
    served.base = started.base;
  });
  afterAll(async () => {
    await dashboard?.close();
    await conn?.quit();
  });
  return served;
}

describe('when a sweep has stored unit results', () => {
  const sweep = { id: 's-known', units: { '5': 3, '6': 3 }, estimates: { '5': 6, '6': 12 } };
  const served = seededDashboard('timeline', sweep, async (conn, config) => {
    const store = new ResultStore(conn, config.prefix);
    const units: UnitResult[] = [
      unit({ n: 5, depth: 2, unit: '0', slot: 0, startedAt: T0, seconds: 2, estimateSeconds: 1.5 }),
      unit({
        n: 5,
        depth: 3,
        unit: '1.2',
        algorithm: 'window-transfer',
        slot: 1,
        startedAt: T0 + 250,
        seconds: 5,
        estimateSeconds: 1,
      }),
      // 7.5× its estimate, but under a second: not an overrun.
      unit({
        n: 6,
        depth: 4,
        unit: '2',
        worker: 'w-b',
        slot: 0,
        startedAt: T0 + 500,
        seconds: 0.75,
        estimateSeconds: 0.1,
      }),
      unit({
        n: 6,
        depth: 4,
        unit: '2',
        role: 'check',
        algorithm: 'seed-dp',
        slot: 0,
        startedAt: T0 + 2_000,
        seconds: 4,
        estimateSeconds: 1.25,
      }),
      // Written by an older worker: no sweep, start time or slot.
      { ...unit({ n: 5, depth: 1, unit: '3', seconds: 9 }), sweepId: undefined },
      // Counted by a sweep an hour earlier (reused by this one), and by a later one.
      unit({ n: 6, depth: 5, unit: '0', slot: 0, startedAt: T0 - 3.6e6, sweepId: 's-earlier' }),
      unit({ n: 6, depth: 5, unit: '1', slot: 0, startedAt: T0 + 60_000, sweepId: 's-later' }),
    ];
    for (const u of units) expect(await store.putUnit(u)).toBe('stored');
    await conn.hset(store.keys.units(5, 0), 'garbage', '{"kind":"unit","n":');
    const done = new Date(T0 + 6_000).toISOString();
    await conn.hset(store.keys.sweepDone('s-known'), '5', done, '6', done);
    // A live worker with two slots, one of which ran nothing of this sweep.
    await new SweepRegistry(conn, config.prefix).heartbeat({
      id: 'w-b',
      host: 'host-b',
      pid: 42,
      concurrency: 2,
      startedAt: new Date(CREATED - 60_000).toISOString(),
      active: [],
      protocol: PROTOCOL_VERSION,
    });
  });

  it('places every unit of the sweep on its worker slot, with both makespans', async () => {
    const res = await http(served.base, '/api/sweeps/s-known/timeline');
    expect(res.status, res.text).toBe(200);
    // A weak sweep's answer has no `problem` field (only a classic one does).
    expect(res.text).not.toContain('"problem"');
    const first = {
      n: 5,
      depth: 2,
      role: 'primary',
      unit: '0',
      algorithm: 'dfs',
      worker: 'w-a',
      slot: 0,
      start: 0,
      end: 2,
      seconds: 2,
      estimateSeconds: 1.5,
    };
    const second = {
      n: 5,
      depth: 3,
      role: 'primary',
      unit: '1.2',
      algorithm: 'window-transfer',
      worker: 'w-a',
      slot: 1,
      start: 0.25,
      end: 5.25,
      seconds: 5,
      estimateSeconds: 1,
    };
    const check = {
      n: 6,
      depth: 4,
      role: 'check',
      unit: '2',
      algorithm: 'seed-dp',
      worker: 'w-a',
      slot: 0,
      start: 2,
      end: 6,
      seconds: 4,
      estimateSeconds: 1.25,
    };
    expect(res.json<TimelineView>()).toEqual({
      sweepId: 's-known',
      ...SEEDED,
      origin: T0,
      lanes: [
        lane('w-a', 0, 2, 6),
        lane('w-a', 1, 1, 5),
        lane('w-b', 0, 1, 0.75),
        lane('w-b', 1, 0, 0),
      ],
      units: [
        first,
        second,
        {
          n: 6,
          depth: 4,
          role: 'primary',
          unit: '2',
          algorithm: 'dfs',
          worker: 'w-b',
          slot: 0,
          start: 0.5,
          end: 1.25,
          seconds: 0.75,
          estimateSeconds: 0.1,
        },
        check,
      ],
      total: 4,
      truncated: false,
      makespan: {
        plannedSeconds: 4.5,
        estimatedCoreSeconds: 18,
        actualSeconds: 6,
        coreSeconds: 11.75,
        slots: 4,
      },
      overruns: [second, check],
      skipped: { untimed: 2, otherSweeps: 2 },
    });
  });

  it('returns the first units by start time and says so when asked for fewer', async () => {
    const res = await http(served.base, '/api/sweeps/s-known/timeline?limit=2');
    expect(res.status).toBe(200);
    const timeline = res.json<TimelineView>();
    expect(timeline.units.map((u) => u.unit)).toEqual(['0', '1.2']);
    expect(timeline.total).toBe(4);
    expect(timeline.truncated).toBe(true);
    // Lanes, makespans and overruns still cover every unit.
    expect(timeline.lanes).toHaveLength(4);
    expect(timeline.makespan.actualSeconds).toBe(6);
    expect(timeline.overruns.map((u) => u.unit)).toEqual(['1.2', '2']);
  });

  it('answers 404 for an unknown sweep and 400 for a bad id or limit', async () => {
    const unknown = await http(served.base, '/api/sweeps/s-nothing/timeline');
    expect(unknown.status).toBe(404);
    expect(unknown.json()).toEqual({
      error: { code: 'not_found', message: 'no sweep has the id "s-nothing"', field: 'id' },
    });
    const badId = await http(served.base, '/api/sweeps/a%20b/timeline');
    expect(badId.status).toBe(400);
    expect(badId.json<{ error: { field: string } }>().error.field).toBe('id');
    for (const query of ['limit=0', 'limit=20001', 'limit=x', 'from=1']) {
      const bad = await http(served.base, `/api/sweeps/s-known/timeline?${query}`);
      expect(bad.status, query).toBe(400);
      expect(bad.text).not.toMatch(STACK);
    }
  });
});

function classicUnit(
  fields: Partial<ClassicUnitResult> & Pick<ClassicUnitResult, 'n' | 'unit'>,
): ClassicUnitResult {
  return {
    kind: 'classic-unit',
    method: 'pruned',
    boards: '2',
    classes: '1',
    seconds: 1,
    worker: 'w-a',
    sweepId: 'c-known',
    ...fields,
  };
}

describe('when a classic sweep has stored unit results', () => {
  const sweep = {
    id: 'c-known',
    units: { '5': 4, '6': 7 },
    problem: 'classic' as const,
    verify: true,
    sample: 1,
  };
  const served = seededDashboard('classic-timeline', sweep, async (conn, config) => {
    const store = new ClassicResultStore(conn, config.prefix);
    const units: ClassicUnitResult[] = [
      classicUnit({ n: 5, unit: '0.2', slot: 0, startedAt: T0, seconds: 0.5 }),
      classicUnit({ n: 6, unit: '1.3', slot: 1, startedAt: T0 + 100, seconds: 2 }),
      classicUnit({
        n: 5,
        unit: '0.2',
        role: 'check',
        method: 'images',
        worker: 'w-b',
        slot: 0,
        startedAt: T0 + 750,
        seconds: 0.25,
      }),
      // Written by an older worker: no start time or slot.
      classicUnit({ n: 5, unit: '1.3' }),
      // Counted by an earlier sweep (reused by this one).
      classicUnit({ n: 6, unit: '2.4', slot: 0, startedAt: T0 - 3.6e6, sweepId: 'c-earlier' }),
    ];
    for (const u of units) expect(await store.putUnit(u)).toBe('stored');
  });

  it('places its first and second counts on their slots, by n, with no planned makespan', async () => {
    const res = await http(served.base, '/api/sweeps/c-known/timeline');
    expect(res.status, res.text).toBe(200);
    const first = {
      n: 5,
      depth: null,
      role: 'primary',
      unit: '0.2',
      algorithm: 'pruned',
      worker: 'w-a',
      slot: 0,
      start: 0,
      end: 0.5,
      seconds: 0.5,
      estimateSeconds: null,
    };
    expect(res.json<TimelineView>()).toEqual({
      sweepId: 'c-known',
      problem: 'classic',
      ...SEEDED,
      origin: T0,
      lanes: [lane('w-a', 0, 1, 0.5), lane('w-a', 1, 1, 2), lane('w-b', 0, 1, 0.25)],
      units: [
        first,
        { ...first, n: 6, unit: '1.3', slot: 1, start: 0.1, end: 2.1, seconds: 2 },
        {
          ...first,
          role: 'check',
          algorithm: 'images',
          worker: 'w-b',
          start: 0.75,
          end: 1,
          seconds: 0.25,
        },
      ],
      total: 3,
      truncated: false,
      makespan: {
        plannedSeconds: null,
        estimatedCoreSeconds: null,
        actualSeconds: 2.1,
        coreSeconds: 2.75,
        slots: 3,
      },
      overruns: [],
      skipped: { untimed: 1, otherSweeps: 1 },
    });
  });
});
