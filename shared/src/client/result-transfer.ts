// Results that move: `wq results --export` writes every stored result with its provenance as
// JSON lines (units, then N(n, D), then S(n) with how it was computed and checked), and
// `wq results --import` loads such a file into another Redis. An import is all or nothing: any
// line that is malformed, disagrees with a published value or with the file's own sums, or
// conflicts with a stored value refuses the whole file, each refusal with its line number.
import {
  type CompletionRecord,
  type DepthResult,
  InvalidInputError,
  knownSum,
  parseCompletionRecord,
  knownValue,
  parseDepthResult,
  parseUnitResult,
  type Problem,
  PROBLEMS,
  type UnitResult,
  PLAN_ID,
  type PlanHeader,
  type PlannedUnitRecord,
  parsePlanHeader,
  parsePlannedUnit,
  parseUnitKey,
} from '../contracts/index.js';
import { MAX_N, unitWeight } from '../kernel/index.js';
import { ImportRefusedError, type RefusedLine } from './errors.js';
import type { ResultStore } from './result-store.js';
import {
  depthMessage,
  planMessage,
  type ResultSeal,
  sumMessage,
  unitMessage,
} from './result-seal.js';
import type { PlanToRecord } from './plan-records.js';

/** The problem these results count; a line of another problem is refused. */
export const TRANSFER_PROBLEM = 'weak' as const;

/**
 * A recorded plan, exported beside its units so that a sweep resumed on another store goes on
 * under the same plan: `units` lists [unit key, weight, model seconds, bound seconds].
 */
interface PlanLine {
  readonly kind: 'plan';
  readonly n: number;
  readonly depth: number;
  readonly role: 'primary' | 'check';
  readonly algorithm: PlanHeader['algorithm'];
  readonly planId: string;
  readonly units: readonly (readonly [string, number, number, number])[];
  readonly mac?: string;
}

export type TransferLine =
  | ({ readonly problem: 'weak' } & PlanLine)
  | ({ readonly problem: 'weak' } & UnitResult)
  | ({ readonly problem: 'weak' } & DepthResult)
  | ({ readonly problem: 'weak'; readonly kind: 'sum' } & CompletionRecord);

export interface ImportSummary {
  readonly units: number;
  readonly depths: number;
  readonly sums: number;
  /** Lines whose record the store already held with the same value. */
  readonly alreadyStored: number;
  /** Units that carried no MAC this store verifies: kept, but counted again before use. */
  readonly unverified: number;
  /** Plans recorded, so that a sweep goes on under the plan its imported units belong to. */
  readonly plans: number;
  /** N(n, D) and S(n) lines left out (`units`): derived again from their units here. */
  readonly leftOut: number;
}

export interface ImportOptions {
  /**
   * `--trust`: take unauthenticated lines as results (the user vouches for the file). Without
   * it, a unit without a MAC this store verifies is imported as unverified (counted again
   * before it enters a sum) and an N(n, D) or S(n) without one is refused.
   */
  readonly trust?: boolean;
  /**
   * `--units`: take the units and their plans only, and leave every N(n, D) and S(n) out (they
   * are derived again here): how a sweep still in progress moves to a store without its key,
   * where a `--verify` sweep vouches for the units by counting each (n, D) a second time.
   */
  readonly units?: boolean;
}

/** How a line stands against this store's WQ_RESULT_KEY. */
type Authenticity = 'sealed' | 'unsealed' | 'forged';

/** A store that signs and checks what it holds when WQ_RESULT_KEY is set (weak or classic). */
interface SealedStore {
  readonly seal: ResultSeal | undefined;
}

function authenticity(store: SealedStore, message: string, mac: string | undefined): Authenticity {
  if (!store.seal || mac === undefined) return 'unsealed';
  return store.seal.verifies(message, mac) ? 'sealed' : 'forged';
}

const FORGED = 'its MAC does not verify under this WQ_RESULT_KEY (forged, or another key)';

/**
 * The seal check of an imported unit (weak or classic; `message` is what its MAC signs): a
 * forged one is refused (throws). One nobody can vouch for (no MAC this store verifies, and no
 * `--trust`) is kept but flagged `unverified`, no result until a count of its own agrees; a
 * vouched one loses whatever the file said of `unverified`.
 */
export function sealCheckedUnit<T extends { readonly mac?: string; readonly unverified?: true }>(
  store: SealedStore,
  message: string,
  unit: T,
  options: ImportOptions,
): T {
  const auth = authenticity(store, message, unit.mac);
  if (auth === 'forged') throw new Error(FORGED);
  if (auth === 'unsealed' && options.trust !== true) return { ...unit, unverified: true };
  const vouched: { unverified?: true } = { ...unit };
  delete vouched.unverified;
  return vouched as T;
}

/**
 * The seal check of an imported result (N(n, D), S(n), Q(n)): refused (throws) when forged,
 * or when unsealed without `--trust`, since nothing counts a result again on import.
 */
export function checkSeal(
  store: SealedStore,
  message: string,
  mac: string | undefined,
  options: ImportOptions,
): void {
  const auth = authenticity(store, message, mac);
  if (auth === 'forged') throw new Error(FORGED);
  if (auth === 'unsealed' && !options.trust) throw new Error(unsealedReason(store));
}

function unsealedReason(store: SealedStore): string {
  return (
    'not authenticated (' +
    (store.seal ? 'it carries no MAC' : 'WQ_RESULT_KEY is not set here') +
    "): set WQ_RESULT_KEY to the exporting store's key, or import with --trust"
  );
}

/** Every stored result of the sizes `ns` (default: every size), as export lines. */
export async function* exportResults(
  store: ResultStore,
  ns: readonly number[] = Array.from({ length: MAX_N }, (_, i) => i + 1),
): AsyncGenerator<string> {
  for (const n of ns) {
    for (const role of ['primary', 'check'] as const) {
      for (let d = 0; d < n; d++) {
        const units = [...(await store.units(n, d, role)).values()];
        // The plans the units were counted under come first, for a sweep resumed elsewhere.
        for (const planId of new Set(units.flatMap((u) => (u.planId ? [u.planId] : [])))) {
          const plan = await store.plan(n, d, planId);
          if (plan) yield line({ problem: TRANSFER_PROBLEM, ...planLine(planId, plan) });
        }
        for (const unit of units) yield line({ problem: TRANSFER_PROBLEM, ...unit });
      }
      for (const depth of (await store.depths(n, role)).values()) {
        yield line({ problem: TRANSFER_PROBLEM, ...depth });
      }
    }
    const record = await store.record(n);
    if (record) yield line({ problem: TRANSFER_PROBLEM, kind: 'sum', ...record });
  }
}

function planLine(
  planId: string,
  { header, units }: { header: PlanHeader; units: Map<string, PlannedUnitRecord> },
): PlanLine {
  return {
    kind: 'plan',
    n: header.n,
    depth: header.depth,
    role: header.role,
    algorithm: header.algorithm,
    planId,
    units: [...units].map(([key, u]) => [key, u.weight, u.modelSeconds, u.boundSeconds] as const),
    ...(header.mac === undefined ? {} : { mac: header.mac }),
  };
}

/** A plan line as this store records it; throws on one that is not a plan this n can have. */
function parsePlanLine(fields: Record<string, unknown>): PlanToRecord & { mac?: string } {
  const { planId, units, mac, ...withKind } = fields;
  const rest = { ...withKind };
  delete rest.kind;
  if (typeof planId !== 'string' || !PLAN_ID.test(planId)) {
    throw new InvalidInputError('planId', planId ?? null, '12 lowercase hex digits');
  }
  if (!Array.isArray(units) || units.length === 0) {
    throw new InvalidInputError('units', null, '[[unit key, weight, model s, bound s], …]');
  }
  const header = parsePlanHeader(
    JSON.stringify({ ...rest, units: units.length, ...(mac === undefined ? {} : { mac }) }),
  );
  const records = new Map<string, PlannedUnitRecord>();
  for (const entry of units as unknown[]) {
    if (!Array.isArray(entry) || typeof entry[0] !== 'string') {
      throw new InvalidInputError('units', null, '[[unit key, weight, model s, bound s], …]');
    }
    const [key, ...record] = entry as [string, ...unknown[]];
    const rows = parseUnitKey(key);
    if (!rows) throw new InvalidInputError('unit key', key, 'a unit key such as "3.1" or "m3.7"');
    const planned = parsePlannedUnit(JSON.stringify(record));
    const weight = rows.part ? 1 : unitWeight(header.n, header.depth, rows.prefix, rows.middle);
    if (weight !== planned.weight) {
      throw new Error(
        `plan ${planId} gives unit ${key} weight ${planned.weight}, its rows give ${weight}`,
      );
    }
    records.set(key, planned);
  }
  if (records.size !== units.length) throw new Error(`plan ${planId} lists a unit twice`);
  return { header, planId, units: records, ...(typeof mac === 'string' ? { mac } : {}) };
}

function line(value: TransferLine): string {
  return JSON.stringify(value) + '\n';
}

/** Checks every line, then writes them all at once; throws ImportRefusedError instead. */
export async function importResults(
  store: ResultStore,
  lines: readonly string[],
  options: ImportOptions = {},
): Promise<ImportSummary> {
  let unverified = 0;
  const refused: RefusedLine[] = [];
  const units = new Map<string, { line: number; result: UnitResult }>();
  const depths = new Map<string, { line: number; result: DepthResult }>();
  const sums = new Map<number, { line: number; record: CompletionRecord }>();
  const plans = new Map<string, PlanToRecord>();
  let leftOut = 0;
  eachLine(lines, refused, (text, number) => {
    const fields = transferFields(text, TRANSFER_PROBLEM);
    if (fields.kind === 'plan') {
      const plan = parsePlanLine(fields);
      const { mac, ...header } = plan.header;
      const weights = new Map([...plan.units].map(([k, u]) => [k, u.weight]));
      const auth = authenticity(store, planMessage(header, plan.planId, weights), mac);
      if (auth === 'forged') throw new Error(FORGED);
      // An unauthenticated plan is recorded only where nothing is signed (no key here): a
      // keyed store plans its own instead of signing what nobody vouched for.
      if (auth === 'sealed' || !store.seal || options.trust) {
        plans.set(`${header.n}:${header.depth}:${plan.planId}`, { ...plan, header });
      }
      return;
    }
    const parsed = parseLine(fields);
    if (options.units && parsed.kind !== 'unit') {
      leftOut++;
      return;
    }
    if (parsed.kind === 'unit') {
      const key = `${parsed.role ?? 'primary'}:${parsed.n}:${parsed.depth}:${parsed.unit}`;
      const earlier = units.get(key);
      if (earlier && earlier.result.value !== parsed.value) {
        throw new Error(
          `unit ${parsed.unit} of N(${parsed.n}, ${parsed.depth}) is ${parsed.value} here and ${earlier.result.value} on line ${earlier.line}`,
        );
      }
      if (parsed.unit === '*') checkPublished(parsed.n, parsed.depth, parsed.value);
      const result = sealCheckedUnit(store, unitMessage(parsed), parsed, options);
      if (result.unverified) unverified++;
      units.set(key, { line: number, result });
    } else if (parsed.kind === 'depth') {
      checkPublished(parsed.n, parsed.depth, parsed.value);
      checkSeal(store, depthMessage(parsed), parsed.mac, options);
      const key = `${parsed.role ?? 'primary'}:${parsed.n}:${parsed.depth}`;
      const earlier = depths.get(key);
      if (earlier && earlier.result.value !== parsed.value) {
        throw new Error(
          `N(${parsed.n}, ${parsed.depth}) is ${parsed.value} here and ${earlier.result.value} on line ${earlier.line}`,
        );
      }
      depths.set(key, { line: number, result: parsed });
    } else {
      checkRecord(parsed);
      checkSeal(store, sumMessage(parsed), parsed.mac, options);
      const earlier = sums.get(parsed.n);
      if (earlier && earlier.record.S !== parsed.S) {
        throw new Error(
          `S(${parsed.n}) is ${parsed.S} here and ${earlier.record.S} on line ${earlier.line}`,
        );
      }
      sums.set(parsed.n, { line: number, record: parsed });
    }
  });
  // The file against itself: a complete set of units must add up to its N(n, D), and S(n) to
  // the N(n, D) given beside it.
  const unitsOf = new Map<string, UnitResult[]>();
  for (const { result } of units.values()) {
    const key = `${result.role ?? 'primary'}:${result.n}:${result.depth}`;
    const group = unitsOf.get(key);
    if (group) group.push(result);
    else unitsOf.set(key, [result]);
  }
  for (const [key, { line: number, result }] of depths) {
    const own = unitsOf.get(key) ?? [];
    if (own.length === result.units) {
      const total = own.reduce((t, u) => t + BigInt(u.value), 0n);
      if (total.toString() !== result.value) {
        refused.push({
          line: number,
          reason: `N(${result.n}, ${result.depth}) = ${result.value}, but its ${own.length} units add up to ${total}`,
        });
      }
    }
  }
  for (const { line: number, record } of sums.values()) {
    for (const depth of record.depths) {
      const given = depths.get(`primary:${record.n}:${depth.depth}`);
      if (given && given.result.value !== depth.value) {
        refused.push({
          line: number,
          reason: `S(${record.n})'s N(${record.n}, ${depth.depth}) = ${depth.value}, but line ${given.line} says ${given.result.value}`,
        });
      }
    }
  }
  // The file against the store: a different stored value is a conflict, never overwritten.
  let alreadyStored = 0;
  // One read per (n, D) and per n, however many lines name them.
  const storedUnits = new Map<string, Promise<Map<string, UnitResult>>>();
  const storedDepths = new Map<string, Promise<Map<number, DepthResult>>>();
  for (const { line: number, result } of units.values()) {
    const role = result.role === 'check' ? 'check' : 'primary';
    const key = `${role}:${result.n}:${result.depth}`;
    if (!storedUnits.has(key)) storedUnits.set(key, store.units(result.n, result.depth, role));
    const stored = (await storedUnits.get(key))?.get(result.unit);
    if (stored && stored.value !== result.value) {
      refused.push({
        line: number,
        reason: `unit ${result.unit} of N(${result.n}, ${result.depth}) is ${result.value} here but ${stored.value} in the store`,
      });
    } else if (stored) alreadyStored++;
  }
  for (const { line: number, result } of depths.values()) {
    const role = result.role === 'check' ? 'check' : 'primary';
    const key = `${role}:${result.n}`;
    if (!storedDepths.has(key)) storedDepths.set(key, store.depths(result.n, role));
    const stored = (await storedDepths.get(key))?.get(result.depth);
    if (stored && stored.value !== result.value) {
      refused.push({
        line: number,
        reason: `N(${result.n}, ${result.depth}) is ${result.value} here but ${stored.value} in the store`,
      });
    } else if (stored) alreadyStored++;
  }
  const storedSums = await store.sums([...sums.keys()]);
  for (const { line: number, record } of sums.values()) {
    const stored = storedSums.get(record.n);
    if (stored !== undefined && stored !== record.S) {
      refused.push({
        line: number,
        reason: `S(${record.n}) is ${record.S} here but ${stored} in the store`,
      });
    } else if (stored !== undefined) alreadyStored++;
  }
  if (refused.length > 0) {
    throw new ImportRefusedError(refused.sort((a, b) => a.line - b.line));
  }
  // Plans first: a unit is of use only under its recorded plan. One already recorded under
  // the same id (a digest of its content) is left as it is.
  const newPlans = [];
  for (const plan of plans.values()) {
    if (!(await store.planUnitKeys(plan.header.n, plan.header.depth, plan.planId))) {
      newPlans.push(plan);
    }
  }
  await store.putPlans(newPlans);
  await store.importRecords({
    units: [...units.values()].map((u) => u.result),
    depths: [...depths.values()].map((d) => d.result),
    records: [...sums.values()].map((s) => s.record),
  });
  return {
    units: units.size,
    depths: depths.size,
    sums: sums.size,
    alreadyStored,
    unverified,
    plans: newPlans.length,
    leftOut,
  };
}

type ParsedLine = UnitResult | DepthResult | (CompletionRecord & { readonly kind: 'sum' });

function parseLine(fields: Record<string, unknown>): ParsedLine {
  if (fields.kind === 'unit') return parseUnitResult(fields);
  if (fields.kind === 'depth') return parseDepthResult(fields);
  if (fields.kind === 'sum') {
    const record = parseCompletionRecord(fields);
    if (record.depths.length !== record.n) {
      throw new InvalidInputError('depths', null, `N(${record.n}, D) for D = 0..${record.n - 1}`);
    }
    return { ...record, kind: 'sum' };
  }
  throw new InvalidInputError('kind', fields.kind ?? null, 'one of plan, unit, depth, sum');
}

function checkPublished(n: number, depth: number, value: string): void {
  const known = knownValue(n, depth);
  if (known && known.value !== value) {
    throw new Error(
      `N(${n}, ${depth}) = ${value} disagrees with the published ${known.value} (${known.source})`,
    );
  }
}

function checkRecord(record: CompletionRecord): void {
  record.depths.forEach((depth, d) => {
    if (depth.n !== record.n || depth.depth !== d) {
      throw new Error(
        `S(${record.n})'s depths must be N(${record.n}, 0..${record.n - 1}) in order`,
      );
    }
    checkPublished(record.n, d, depth.value);
  });
  const known = knownSum(record.n);
  if (known && known.value !== record.S) {
    throw new Error(
      `S(${record.n}) = ${record.S} disagrees with the reference ${known.value} (${known.source})`,
    );
  }
  const total = record.depths.reduce((t, d) => t + BigInt(d.value), 0n);
  if (total.toString() !== record.S) {
    throw new Error(`S(${record.n}) = ${record.S}, but its N(${record.n}, D) add up to ${total}`);
  }
}

/**
 * The fields of one line of an export of `problem` (without `problem`), or an error that says
 * what is wrong with it; a line of the other problem says which flag imports it.
 */
export function transferFields(text: string, problem: Problem): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error('not JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new Error('not a JSON object');
  }
  const { problem: given, ...fields } = value as Record<string, unknown>;
  if (given !== problem) {
    const other = PROBLEMS.find((p) => p !== problem && p === given);
    throw new InvalidInputError(
      'problem',
      given ?? null,
      other === undefined
        ? `"${problem}"`
        : `"${problem}" (a ${other} export imports with --problem ${other})`,
    );
  }
  return fields;
}

/**
 * Calls `check` on every non-blank line with its number (from 1); a line it throws on is
 * refused with the reason, and the next line is checked all the same.
 */
export function eachLine(
  lines: readonly string[],
  refused: RefusedLine[],
  check: (text: string, line: number) => void,
): void {
  lines.forEach((text, index) => {
    if (text.trim() === '') return;
    try {
      check(text, index + 1);
    } catch (err) {
      refused.push({ line: index + 1, reason: refusalReason(err) });
    }
  });
}

/** Why a line was refused, in at most 300 characters. */
function refusalReason(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.length > 300 ? `${message.slice(0, 300)}…` : message;
}
