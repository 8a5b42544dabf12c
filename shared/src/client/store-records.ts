// Small readers of stored records shared by the result store's parts.
import { parseUnitResult, type UnitResult } from '../contracts/job-results.js';

/** A record as it is signed: without the MAC of an earlier signature. */
export function withoutMac<T extends { readonly mac?: string }>(record: T): T {
  const copy: { mac?: string } = { ...record };
  delete copy.mac;
  return copy as T;
}

export function readUnit(json: string): UnitResult | undefined {
  try {
    return parseUnitResult(JSON.parse(json));
  } catch {
    return undefined;
  }
}

export function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}
