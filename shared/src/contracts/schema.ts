// The glue between valibot schemas and the project's errors: every contract is a schema whose
// messages are the `allowed` text of InvalidInputError, and parseInput turns its first issue
// into that error, naming the field. Refinements that only the kernel can judge run inside a
// schema and report through the same path.
import * as v from 'valibot';
import { InvalidInputError } from '../kernel/errors.js';

type AnySchema = v.GenericSchema;

/** How a contract names its fields in errors. */
export interface InputName {
  /** The name of the whole input (`unit job`, `body`, `WQ_LOCK_MS`). */
  readonly name: string;
  /** `unit job.weight` when true; just `weight` when false (HTTP bodies, the environment). */
  readonly qualify?: boolean;
}

/**
 * The input as the schema outputs it, or the InvalidInputError of its first issue: the field is
 * the path of object keys (a list is reported whole), the value is what the input held there.
 */
export function parseInput<S extends AnySchema>(
  schema: S,
  input: unknown,
  { name, qualify = true }: InputName,
): v.InferOutput<S> {
  const result = v.safeParse(schema, input, { abortEarly: true });
  if (result.success) return result.output;
  throw toError(result.issues[0], input, name, qualify);
}

/** The parser of one contract: `parseInput` with the contract's name bound. */
export function parserOf<S extends AnySchema>(
  schema: S,
  name: string,
): (input: unknown) => v.InferOutput<S> {
  return (input) => parseInput(schema, input, { name });
}

function toError(issue: v.BaseIssue<unknown>, input: unknown, name: string, qualify: boolean) {
  const keys: string[] = [];
  let value = input;
  for (const item of issue.path ?? []) {
    if (item.type !== 'object') break;
    if (item.origin === 'key' && issue.expected === 'never') {
      // A field the contract does not have: the error names the object and echoes the key.
      return new InvalidInputError(join(name, keys, qualify, true), item.key, issue.message);
    }
    keys.push(String(item.key));
    value = item.value;
  }
  // A refinement says which value it refused (a whole list, or one of its items).
  if (issue.type === 'raw_transform') value = issue.input;
  return new InvalidInputError(join(name, keys, qualify, false), value, issue.message);
}

function join(name: string, keys: readonly string[], qualify: boolean, whole: boolean): string {
  if (keys.length === 0) return name;
  if (!qualify && !whole) return keys.join('.');
  return [name, ...keys].filter((part) => part !== '').join('.');
}

/** Options of `record`: what a value that is not an object is told, and unknown keys. */
export interface RecordOptions {
  /** The `allowed` text when the input is not a plain object. */
  readonly allowed?: string;
  /** When set, fields outside the entries are refused with this `allowed` text. */
  readonly onlyKnown?: string;
}

/**
 * An object schema (arrays refused) whose missing fields are reported with their own message,
 * not the object's: `unit job.whole: undefined is not allowed; expected true or false`.
 */
export function record<const E extends v.ObjectEntries>(entries: E, options: RecordOptions = {}) {
  const message = missingFieldMessage(entries, options);
  const plain = plainObject(options.allowed);
  return options.onlyKnown === undefined
    ? v.pipe(plain, v.object(entries, message), v.readonly())
    : v.pipe(plain, v.strictObject(entries, message), v.readonly());
}

function plainObject(allowed = 'an object') {
  return v.custom<Record<string, unknown>>(
    (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
    allowed,
  );
}

function missingFieldMessage(entries: v.ObjectEntries, options: RecordOptions) {
  const allowed = options.allowed ?? 'an object';
  return (issue: v.BaseIssue<unknown>): string => {
    const item = issue.path?.[0];
    if (item?.type !== 'object') return allowed;
    if (issue.expected === 'never') return options.onlyKnown ?? allowed;
    // A required field is missing: say what that field allows.
    const entry = entries[String(item.key)];
    return (entry && v.safeParse(entry, undefined).issues?.[0]?.message) ?? allowed;
  };
}

/**
 * A refinement no schema expresses (a legal prefix, a unit's weight, an n-spec): `check` returns
 * the refined value or throws the kernel's InvalidInputError. With `field: 'nested'` the error's
 * field names a field below this value (the kernel's `D` of a unit job: `unit job.D`).
 */
export function refine<T, U>(check: (value: T) => U, field: 'same' | 'nested' = 'same') {
  return v.rawTransform<T, U>(({ dataset, addIssue, NEVER }) => {
    try {
      return check(dataset.value);
    } catch (err) {
      if (!(err instanceof InvalidInputError)) throw err;
      addIssue({
        message: err.allowed,
        input: err.value,
        ...(field === 'nested'
          ? {
              path: [
                {
                  type: 'object',
                  origin: 'value',
                  input: dataset.value as Record<string, unknown>,
                  key: err.field,
                  value: err.value,
                },
              ],
            }
          : {}),
      });
      return NEVER;
    }
  });
}

/**
 * Checks `schema` on the input first and passes the input on as it came: some fields are judged
 * before the others (a unit job's rows and weight before its ids). Its errors name the field
 * below the input (`unit job.prefix`).
 */
export function checkFirst<S extends AnySchema>(schema: S) {
  return refine((input: unknown) => {
    parseInput(schema, input, { name: '', qualify: false });
    return input;
  }, 'nested');
}

/** An integer field ≥ 0 that records stored before it existed lack (a start time, a slot). */
export const optionalIndex = (allowed: string) =>
  v.optional(
    v.message(v.pipe(v.number(), v.safeInteger(), v.minValue(0)), `${allowed} (an integer ≥ 0)`),
  );

/** JSON text read back from Redis, parsed and checked against `schema`. */
export function parseJson<S extends AnySchema>(
  schema: S,
  json: string,
  name: string,
): v.InferOutput<S> {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    throw new InvalidInputError(name, json, 'JSON text');
  }
  return parseInput(schema, value, { name });
}
