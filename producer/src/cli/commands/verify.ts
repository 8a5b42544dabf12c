// `wq verify <ns> [--repair] [--json]`: recount every stored N(n, D) with a second algorithm,
// report each disagreement, and on request count the disagreeing n afresh.
import type { VerifyOutcome } from '@weak-queens/shared/client';
import { defineCommand } from '../command.js';
import { N_SPEC, parseSizes } from './n-spec.js';

export const verifyCommand = defineCommand(
  {
    description: `Every stored N(n, D) of each n is counted again by the cheapest other algorithm, on another
worker where there is one (workers must be running: wq worker). An n whose recount agrees
everywhere stays published ("verified"). A disagreement withdraws S(n) and keeps both values
("disagrees", shown by wq status); --repair then recounts it ("repaired"). An n with nothing
stored is "missing"; one whose records this build cannot read (another build's, or written by
hand) is "unreadable" and left alone.`,
    positionals: [N_SPEC],
    options: {
      repair: {
        type: 'boolean',
        description: `count a disagreeing n afresh with both algorithms and publish S(n) only if
they agree (also settles units stored twice with two values)`,
      },
      json: {
        type: 'boolean',
        description: 'one JSON line per n: {"n":11,"outcome":"verified","S":"…"}',
      },
    },
    notes: 'Exit 0 when every n is verified or repaired, 1 otherwise.',
  },
  async ({ values, positionals }) => {
    const { compileConfig } = await import('@weak-queens/shared/contracts');
    const { openPipelineClient } = await import('../pipeline-connection.js');
    const ns = parseSizes(positionals[0] ?? '');
    const config = compileConfig(process.env);
    const client = await openPipelineClient(config, 'verify');
    try {
      const outcomes = await client.verify(ns, { repair: values.repair });
      for (const o of outcomes) {
        process.stdout.write(`${values.json ? outcomeJson(o) : outcomeLine(o)}\n`);
      }
      return outcomes.every((o) => o.outcome === 'verified' || o.outcome === 'repaired') ? 0 : 1;
    } finally {
      await client.close();
    }
  },
);

function outcomeJson(o: VerifyOutcome): string {
  return JSON.stringify({
    n: o.n,
    outcome: o.outcome,
    S: o.S ?? null,
    ...(o.mismatch ? { mismatch: o.mismatch.depths } : {}),
    ...(o.disagreements ? { disagreements: o.disagreements } : {}),
    ...(o.outcome === 'unreadable' && o.reason ? { reason: o.reason } : {}),
  });
}

function outcomeLine(o: VerifyOutcome): string {
  const found = [
    ...(o.mismatch?.depths ?? []).map(
      (d) =>
        `N(${o.n}, ${d.depth}): stored ${d.value} (${d.algorithm}), recount ${d.expected} (${d.expectedFrom})`,
    ),
    ...(o.disagreements ?? []).map((d) =>
      d.reason
        ? `${d.unit.startsWith('#') ? `N(${d.n}, ${d.depth}) or S(${d.n})` : `unit ${d.unit} of N(${d.n}, ${d.depth})`} stored as ${d.stored}: ${d.reason}`
        : `unit ${d.unit} of N(${d.n}, ${d.depth}) counted ${d.stored} and ${d.counted}`,
    ),
  ];
  const tail = found.length ? `; ${found.join('; ')}` : '';
  switch (o.outcome) {
    case 'verified':
      return `n=${o.n} verified: S(${o.n}) = ${o.S}`;
    case 'repaired':
      return `n=${o.n} repaired: S(${o.n}) = ${o.S}${tail}`;
    case 'disagrees':
      return `n=${o.n} disagrees: S(${o.n}) withdrawn${tail} (wq verify ${o.n} --repair)`;
    case 'missing':
      return `n=${o.n} missing: nothing stored to verify`;
    case 'unreadable':
      return `n=${o.n} unreadable: ${o.reason ?? 'records this build cannot read, left alone'}${o.S === undefined ? '' : `; S(${o.n}) = ${o.S} stays`}`;
  }
}
