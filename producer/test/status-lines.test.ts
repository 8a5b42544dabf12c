// The text of `wq status`: an n its submission never queued reads as such, not as cancelled.
import { describe, expect, it } from 'vitest';
import type { SizeProgress, StatusReport, SweepProgress } from '@weak-queens/shared/client';
import { PROTOCOL_VERSION } from '@weak-queens/shared/contracts';
import { statusLines } from '../src/cli/status-lines.js';

const ID = 's-interrupted1';

/** A weak sweep of 4..7 whose submission queued 4 and 5 (and found 6 stored) before it stopped. */
function interrupted(submitting: boolean): StatusReport {
  const sizes: SizeProgress[] = [
    { n: 4, state: 'queued', unitsDone: 0, units: 4 },
    { n: 5, state: 'running', unitsDone: 2, units: 5 },
    { n: 6, state: 'done', unitsDone: 6, units: 6, S: '49602' },
    { n: 7, state: 'cancelled', unitsDone: 0, units: 0 },
  ];
  const sweep: SweepProgress = {
    sweep: {
      id: ID,
      ns: [4, 5, 6, 7],
      createdAt: '2026-12-06T07:00:00.000Z',
      targetSeconds: 30,
      units: { 4: 4, 5: 5, 6: 6, 7: 7 },
      queued: [4, 5, 6],
      protocol: PROTOCOL_VERSION,
    },
    status: 'running',
    sizes,
    done: 1,
    total: 4,
    unitsDone: 8,
    units: 15,
    elapsedSeconds: 3,
    etaSeconds: null,
    notQueued: { ns: [7], interrupted: !submitting },
  };
  return {
    sweeps: [sweep],
    workers: [],
    otherWorkers: [],
    jobs: {},
    calibration: {},
    disagreements: [],
    authenticated: true,
  };
}

describe('when a sweep has sizes its submission never queued', () => {
  it('labels them "not queued", and the queued, running and stored ones as before', () => {
    expect(statusLines(interrupted(false))).toEqual([
      `sweep ${ID}  2026-12-06T07:00:00.000Z  n done 1/4  units 8/15`,
      '  n =  4  queued     0/4 units',
      '  n =  5  running    2/5 units',
      '  n =  6  done       S = 49602',
      '  n =  7  not queued',
      `  interrupted while queuing: n = 7 not queued; wq retry ${ID} finishes it`,
      'workers: 0 live',
    ]);
  });

  it('labels them so while the submission is still at work too', () => {
    expect(statusLines(interrupted(true)).slice(4, 6)).toEqual([
      '  n =  7  not queued',
      '  queuing: n = 7 not queued yet',
    ]);
  });
});
