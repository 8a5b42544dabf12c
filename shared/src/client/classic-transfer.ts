// The classic problem's results that move: `wq results --problem classic --export` lists every
// unit's subtotals with its class, then Q(n) and the unique count (as the Q27 project published
// its subproblems), and `--import` loads such a file into another Redis, all or nothing, with
// the same rules as the weak import (result-transfer.ts): every refusal has its line number,
// and MACs are checked as there (a unit nobody vouches for is imported unverified, a Q(n)
// without a MAC this store verifies needs `--trust`).
import {
  CLASSIC_QUEENS,
  type ClassicResult,
  type ClassicUnitResult,
  InvalidInputError,
  parseClassicResult,
  parseClassicUnitResult,
  UNIQUE_QUEENS,
} from '../contracts/index.js';
import { classicUnitKey, classicUnits } from '../kernel/index.js';
import type { ClassicResultStore } from './classic-result-store.js';
import { ImportRefusedError, type RefusedLine } from './errors.js';
import { classicResultMessage, classicUnitMessage } from './result-seal.js';
import {
  checkSeal,
  eachLine,
  type ImportOptions,
  sealCheckedUnit,
  transferFields,
} from './result-transfer.js';

export const CLASSIC_TRANSFER_PROBLEM = 'classic' as const;

export interface ClassicImportSummary {
  readonly units: number;
  readonly results: number;
  /** Lines whose record the store already held with the same counts. */
  readonly alreadyStored: number;
  /** Units that carried no MAC this store verifies: kept, but counted again before use. */
  readonly unverified: number;
}

/** Per n: its units (first counts, then second counts) by key, then its result. */
export async function classicExportLines(
  store: ClassicResultStore,
  ns?: readonly number[],
): Promise<string[]> {
  const results = await store.results(ns ?? []);
  const lines: string[] = [];
  for (const n of ns ?? [...results.keys()]) {
    for (const role of [undefined, 'check'] as const) {
      const units = [...(await store.units(n, role)).values()];
      units.sort((a, b) => (a.unit < b.unit ? -1 : a.unit > b.unit ? 1 : 0));
      for (const unit of units) lines.push(transferLine(unit));
    }
    const result = results.get(n);
    if (result) lines.push(transferLine(result));
  }
  return lines;
}

function transferLine(record: ClassicUnitResult | ClassicResult): string {
  return JSON.stringify({ problem: CLASSIC_TRANSFER_PROBLEM, ...record }) + '\n';
}

interface Numbered<T> {
  readonly line: number;
  readonly record: T;
}

/** Checks every line, then writes them all at once; throws ImportRefusedError instead. */
export async function importClassicResults(
  store: ClassicResultStore,
  lines: readonly string[],
  options: ImportOptions = {},
): Promise<ClassicImportSummary> {
  let unverified = 0;
  const refused: RefusedLine[] = [];
  const units = new Map<string, Numbered<ClassicUnitResult>>();
  const results = new Map<number, Numbered<ClassicResult>>();
  eachLine(lines, refused, (text, line) => {
    const parsed = parseLine(text);
    if (parsed.kind === 'classic-unit') {
      const record = sealCheckedUnit(store, classicUnitMessage(parsed), parsed, options);
      if (record.unverified) unverified++;
      const key = unitKey(record);
      const earlier = units.get(key)?.record;
      if (earlier && !sameCounts(earlier, record)) {
        throw new Error(
          `unit ${record.unit} of Q(${record.n}) counts ${counts(record)} here and ${counts(earlier)} on line ${units.get(key)?.line}`,
        );
      }
      units.set(key, { line, record });
    } else {
      const record = parsed;
      checkPublished(record);
      checkSeal(store, classicResultMessage(record), record.mac, options);
      const earlier = results.get(record.n);
      if (earlier && (earlier.record.Q !== record.Q || earlier.record.unique !== record.unique)) {
        throw new Error(
          `Q(${record.n}) is ${record.Q} (unique ${record.unique}) here and ${earlier.record.Q} (unique ${earlier.record.unique}) on line ${earlier.line}`,
        );
      }
      results.set(record.n, { line, record });
    }
  });
  refused.push(...checkAgainstItself(units, results));
  let alreadyStored = 0;
  // The file against the store: a different stored count is a conflict, never overwritten.
  const storedUnits = new Map<string, Promise<Map<string, ClassicUnitResult>>>();
  for (const { line, record } of units.values()) {
    const key = `${record.role ?? 'primary'}:${record.n}`;
    if (!storedUnits.has(key)) storedUnits.set(key, store.units(record.n, record.role));
    const stored = (await storedUnits.get(key))?.get(record.unit);
    if (stored && !sameCounts(stored, record)) {
      refused.push({
        line,
        reason: `unit ${record.unit} of Q(${record.n}) counts ${counts(record)} here but ${counts(stored)} in the store`,
      });
    } else if (stored) alreadyStored++;
  }
  const storedResults = await store.results([...results.keys()]);
  for (const { line, record } of results.values()) {
    const stored = storedResults.get(record.n);
    if (stored && (stored.Q !== record.Q || stored.unique !== record.unique)) {
      refused.push({
        line,
        reason: `Q(${record.n}) is ${record.Q} (unique ${record.unique}) here but ${stored.Q} (unique ${stored.unique}) in the store`,
      });
    } else if (stored) alreadyStored++;
  }
  if (refused.length > 0) throw new ImportRefusedError(refused.sort((a, b) => a.line - b.line));
  await store.importRecords(
    [...units.values()].map((u) => u.record),
    [...results.values()].map((r) => r.record),
  );
  return { units: units.size, results: results.size, alreadyStored, unverified };
}

/**
 * The file against itself: a second count must agree with the first count of its unit, and a
 * result whose units are all in the file must be their sum. A result with no published value
 * is taken only with all its units, so a sum is never trusted unchecked.
 */
function checkAgainstItself(
  units: ReadonlyMap<string, Numbered<ClassicUnitResult>>,
  results: ReadonlyMap<number, Numbered<ClassicResult>>,
): RefusedLine[] {
  const refused: RefusedLine[] = [];
  for (const { line, record } of units.values()) {
    if (record.role !== 'check') continue;
    const first = units.get(unitKey({ ...record, role: undefined }))?.record;
    if (first && !sameCounts(first, record)) {
      refused.push({
        line,
        reason: `the second count of unit ${record.unit} of Q(${record.n}), ${counts(record)}, disagrees with its first count ${counts(first)}`,
      });
    }
  }
  for (const { line, record } of results.values()) {
    const keys = classicUnits(record.n).map(classicUnitKey);
    const own = keys.map((key) => units.get(`primary:${record.n}:${key}`)?.record);
    if (own.every((u) => u !== undefined)) {
      const boards = own.reduce((t, u) => t + BigInt(u?.boards ?? 0), 0n).toString();
      const classes = own.reduce((t, u) => t + BigInt(u?.classes ?? 0), 0n).toString();
      if (boards !== record.Q || classes !== record.unique) {
        refused.push({
          line,
          reason: `Q(${record.n}) = ${record.Q} (unique ${record.unique}), but its ${keys.length} units add up to ${boards} (unique ${classes})`,
        });
      }
    } else if (CLASSIC_QUEENS[record.n - 1] === undefined) {
      refused.push({
        line,
        reason: `Q(${record.n}) has no published value: the file must hold all ${keys.length} of its units`,
      });
    }
  }
  return refused;
}

function parseLine(text: string): ClassicUnitResult | ClassicResult {
  const fields = transferFields(text, CLASSIC_TRANSFER_PROBLEM);
  switch (fields.kind) {
    case 'classic-unit':
      return parseClassicUnitResult(fields);
    case 'classic':
      return parseClassicResult(fields);
    default:
      throw new InvalidInputError('kind', fields.kind ?? null, 'classic-unit or classic');
  }
}

function checkPublished(result: ClassicResult): void {
  const Q = CLASSIC_QUEENS[result.n - 1];
  const unique = UNIQUE_QUEENS[result.n - 1];
  if (Q !== undefined && Q !== result.Q) {
    throw new Error(
      `Q(${result.n}) = ${result.Q} disagrees with the published ${Q} (OEIS A000170)`,
    );
  }
  if (unique !== undefined && unique !== result.unique) {
    throw new Error(
      `the unique count of ${result.n} = ${result.unique} disagrees with the published ${unique} (OEIS A002562)`,
    );
  }
}

function unitKey(unit: Pick<ClassicUnitResult, 'n' | 'unit' | 'role'>): string {
  return `${unit.role ?? 'primary'}:${unit.n}:${unit.unit}`;
}

function sameCounts(a: ClassicUnitResult, b: ClassicUnitResult): boolean {
  return a.boards === b.boards && a.classes === b.classes;
}

function counts(unit: ClassicUnitResult): string {
  return `${unit.boards} boards in ${unit.classes} classes`;
}
