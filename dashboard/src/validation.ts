// One schema per HTTP input (query strings, path parameters, JSON bodies). Each accepts exactly
// the fields it names; parseInput turns a failure into InvalidInputError saying what is allowed.
import * as v from 'valibot';
import { parseInput, parseNSpec, record, refine, SWEEP_ID } from '@weak-queens/shared/contracts';
import { MAX_N } from '@weak-queens/shared/kernel';
import { MAX_TIMELINE_UNITS } from './timeline.js';

/** Query fields arrive as strings, or as a list when repeated (`?n=1&n=2`): one value only. */
const single = v.string('a single value');

/** A decimal integer from `min` to `max`, given as query text. */
function integerText(min: number, max: number) {
  return v.message(
    v.pipe(single, v.regex(/^\d{1,9}$/), v.transform(Number), v.minValue(min), v.maxValue(max)),
    `an integer from ${min} to ${max}`,
  );
}

/** A query string with exactly these parameters. */
function query<const E extends v.ObjectEntries>(entries: E) {
  const names = Object.keys(entries);
  return record(entries, {
    onlyKnown: names.length ? `only ${names.join(', ')}` : 'no parameters',
  });
}

const name = { name: 'query parameter', qualify: false } as const;

const SweepIdSchema = v.message(
  v.pipe(v.string(), v.regex(SWEEP_ID)),
  'a sweep id: 1 to 64 letters, digits, "_" or "-"',
);

export function parseSweepId(text: unknown): string {
  return parseInput(SweepIdSchema, text, { name: 'id' });
}

const SweepListQuerySchema = query({ limit: v.optional(integerText(1, 200), '20') });
export type SweepListQuery = v.InferOutput<typeof SweepListQuerySchema>;

export function parseSweepListQuery(input: unknown): SweepListQuery {
  return parseInput(SweepListQuerySchema, input, name);
}

const TimelineQuerySchema = query({
  /** At most this many units in the answer (the first by start time). */
  limit: v.optional(integerText(1, MAX_TIMELINE_UNITS), String(MAX_TIMELINE_UNITS)),
});
export type TimelineQuery = v.InferOutput<typeof TimelineQuerySchema>;

export function parseTimelineQuery(input: unknown): TimelineQuery {
  return parseInput(TimelineQuerySchema, input, name);
}

const EmptyQuerySchema = query({});

export function parseEmptyQuery(input: unknown): void {
  parseInput(EmptyQuerySchema, input, name);
}

/** Board sizes as an n-spec ("4-12"), parsed by parseNSpec, which says what is allowed. */
const nSpec = (field: string) => refine((spec: string) => parseNSpec(spec, field));

type ResultsFormat = 'json' | 'csv';

export interface ResultsQuery {
  /** Undefined: every n with something stored. */
  readonly ns?: readonly number[];
  readonly format: ResultsFormat;
  /** Content-Disposition: attachment (a file download). */
  readonly download: boolean;
}

const ResultsQuerySchema = v.pipe(
  query({
    /** Absent: every n with something stored. */
    n: v.optional(v.pipe(single, nSpec('n'))),
    format: v.optional(v.pipe(single, v.picklist(['json', 'csv'], '"json" or "csv"')), 'json'),
    /** Content-Disposition: attachment (a file download). */
    download: v.optional(
      v.pipe(
        single,
        v.picklist(['0', '1'], '"0" or "1"'),
        v.transform((flag) => flag === '1'),
      ),
      '0',
    ),
  }),
  // The parameter is `n` (as `wq results <ns>`); the sizes it names are `ns`.
  v.transform(({ n, ...rest }): ResultsQuery => (n === undefined ? rest : { ns: n, ...rest })),
);

export function parseResultsQuery(input: unknown): ResultsQuery {
  return parseInput(ResultsQuerySchema, input, name);
}

const NS_ALLOWED = `sizes from 1 to ${MAX_N} as "14", "4-12" or "4,6,10-12"`;

/** The body of POST /api/sweeps: `{"ns": "1-10", "targetSeconds": 30}`. */
const SweepRequestSchema = record(
  {
    ns: v.pipe(v.message(v.pipe(v.string(), v.maxLength(200)), NS_ALLOWED), nSpec('ns')),
    targetSeconds: v.optional(
      v.message(
        v.pipe(v.number(), v.finite(), v.gtValue(0), v.maxValue(86_400)),
        'a number of seconds > 0 and ≤ 86400',
      ),
    ),
  },
  {
    allowed: 'a JSON object such as {"ns": "1-10"}',
    onlyKnown: 'only the fields ns and targetSeconds',
  },
);
export type SweepRequest = v.InferOutput<typeof SweepRequestSchema>;

export function parseSweepRequest(body: unknown): SweepRequest {
  return parseInput(SweepRequestSchema, body ?? null, { name: 'body', qualify: false });
}

/** The body of cancel and retry: nothing, or an empty object. */
const EmptyBodySchema = v.union(
  [v.undefined(), v.null(), record({}, { onlyKnown: 'no body or {}' })],
  'no body or {}',
);

export function parseEmptyBody(body: unknown): void {
  parseInput(EmptyBodySchema, body, { name: 'body' });
}
