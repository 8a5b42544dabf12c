// One parser per HTTP input (query strings, path parameters, JSON bodies). Each accepts exactly
// the fields it names and throws InvalidInputError saying what is allowed.
import { InvalidInputError, parseNSpec, SWEEP_ID } from '@weak-queens/shared/contracts';
import { MAX_N } from '@weak-queens/shared/kernel';
import { MAX_TIMELINE_UNITS } from './timeline.js';

type Query = Record<string, unknown>;

/** Refuses fields outside `allowed` and repeated fields (`?n=1&n=2` arrives as an array). */
function strict(input: Query, allowed: readonly string[], what: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(input)) {
    if (!allowed.includes(key)) {
      throw new InvalidInputError(
        what,
        key,
        allowed.length ? `only ${allowed.join(', ')}` : 'no parameters',
      );
    }
    if (typeof value !== 'string') throw new InvalidInputError(key, value, 'a single value');
    out[key] = value;
  }
  return out;
}

export function parseSweepId(text: unknown): string {
  if (typeof text !== 'string' || !SWEEP_ID.test(text)) {
    throw new InvalidInputError('id', text, 'a sweep id: 1 to 64 letters, digits, "_" or "-"');
  }
  return text;
}

export interface SweepListQuery {
  readonly limit: number;
}

export function parseSweepListQuery(query: Query): SweepListQuery {
  const fields = strict(query, ['limit'], 'query parameter');
  if (fields.limit === undefined) return { limit: 20 };
  return { limit: integer('limit', fields.limit, 1, 200) };
}

export interface TimelineQuery {
  /** At most this many units in the answer (the first by start time). */
  readonly limit: number;
}

export function parseTimelineQuery(query: Query): TimelineQuery {
  const fields = strict(query, ['limit'], 'query parameter');
  if (fields.limit === undefined) return { limit: MAX_TIMELINE_UNITS };
  return { limit: integer('limit', fields.limit, 1, MAX_TIMELINE_UNITS) };
}

export function parseEmptyQuery(query: Query): void {
  strict(query, [], 'query parameter');
}

export type ResultsFormat = 'json' | 'csv';

export interface ResultsQuery {
  /** Undefined: every n with something stored. */
  readonly ns?: readonly number[];
  readonly format: ResultsFormat;
  /** Content-Disposition: attachment (a file download). */
  readonly download: boolean;
}

export function parseResultsQuery(query: Query): ResultsQuery {
  const fields = strict(query, ['n', 'format', 'download'], 'query parameter');
  const format = fields.format ?? 'json';
  if (format !== 'json' && format !== 'csv') {
    throw new InvalidInputError('format', format, '"json" or "csv"');
  }
  const download = fields.download ?? '0';
  if (download !== '0' && download !== '1') {
    throw new InvalidInputError('download', download, '"0" or "1"');
  }
  return {
    ...(fields.n === undefined ? {} : { ns: parseNSpec(fields.n, 'n') }),
    format,
    download: download === '1',
  };
}

export interface SweepRequest {
  readonly ns: readonly number[];
  readonly targetSeconds?: number;
}

/** The body of POST /api/sweeps: `{"ns": "1-10", "targetSeconds": 30}`. */
export function parseSweepRequest(body: unknown): SweepRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new InvalidInputError('body', body ?? null, 'a JSON object such as {"ns": "1-10"}');
  }
  const fields = body as Record<string, unknown>;
  for (const key of Object.keys(fields)) {
    if (key !== 'ns' && key !== 'targetSeconds') {
      throw new InvalidInputError('body', key, 'only the fields ns and targetSeconds');
    }
  }
  if (typeof fields.ns !== 'string' || fields.ns.length > 200) {
    throw new InvalidInputError(
      'ns',
      fields.ns ?? null,
      `sizes from 1 to ${MAX_N} as "14", "4-12" or "4,6,10-12"`,
    );
  }
  const ns = parseNSpec(fields.ns, 'ns');
  const target = fields.targetSeconds;
  if (target === undefined) return { ns };
  if (typeof target !== 'number' || !Number.isFinite(target) || target <= 0 || target > 86_400) {
    throw new InvalidInputError('targetSeconds', target, 'a number of seconds > 0 and ≤ 86400');
  }
  return { ns, targetSeconds: target };
}

/** The body of cancel and retry: nothing, or an empty object. */
export function parseEmptyBody(body: unknown): void {
  if (body === undefined || body === null) return;
  if (typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length === 0) return;
  throw new InvalidInputError('body', body, 'no body or {}');
}

function integer(field: string, text: string, min: number, max: number): number {
  const value = /^\d{1,9}$/.test(text) ? Number(text) : NaN;
  if (!(value >= min && value <= max)) {
    throw new InvalidInputError(field, text, `an integer from ${min} to ${max}`);
  }
  return value;
}
