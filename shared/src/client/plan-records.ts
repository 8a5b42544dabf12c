// Recorded plans: every unit of a split (n, D) with its weight, under a plan id that is a
// digest of them, so a worker can check a unit belongs to the plan and a sum that it has all.
import type { RedisClient } from './connection.js';
import type { StoreKeys } from '../contracts/store-keys.js';
import {
  encodePlannedUnit,
  PLAN_HEADER_FIELD,
  type PlanHeader,
  type PlannedUnitRecord,
  parsePlanHeader,
  parsePlannedUnit,
} from '../contracts/plan-record.js';
import { planMessage, type ResultSeal } from './result-seal.js';
import { withoutMac } from './store-records.js';
import { PROTOCOL_VERSION } from '../contracts/protocol.js';

/** Plan units per HSET: a plan of 100,000 units is not one huge command. */
const SLICE = 5000;

/** A plan to record: its header, id and units. */
export interface PlanToRecord {
  readonly header: PlanHeader;
  readonly planId: string;
  readonly units: ReadonlyMap<string, PlannedUnitRecord>;
}

export class PlanRecords {
  /** Plans whose MAC verified (a plan id names one fixed set of units). */
  readonly #sealedPlans = new Set<string>();

  constructor(
    private readonly redis: RedisClient,
    private readonly keys: StoreKeys,
    private readonly seal: ResultSeal | undefined,
  ) {}

  /** Records a plan's units (in slices, so a plan of 100,000 units is not one huge command). */
  async put(header: PlanHeader, planId: string, units: ReadonlyMap<string, PlannedUnitRecord>) {
    await this.putAll([{ header, planId, units }]);
  }

  /**
   * Records several plans in one transaction: each is whole or absent for a reader, and an
   * n's dozens of plans cost one round trip and one transaction, not one each.
   */
  async putAll(plans: readonly PlanToRecord[]): Promise<void> {
    if (plans.length === 0) return;
    const write = this.redis.multi();
    for (const { header, planId, units } of plans) {
      const key = this.keys.plan(header.n, header.depth, planId);
      const entries = [...units];
      const plain = { ...withoutMac(header), protocol: header.protocol ?? PROTOCOL_VERSION };
      const weights = new Map(entries.map(([unit, record]) => [unit, record.weight]));
      const sealed = this.seal
        ? { ...plain, mac: this.seal.mac(planMessage(plain, planId, weights)) }
        : plain;
      write.hset(key, PLAN_HEADER_FIELD, JSON.stringify(sealed));
      for (let i = 0; i < entries.length; i += SLICE) {
        const fields: string[] = [];
        for (const [unit, record] of entries.slice(i, i + SLICE)) {
          fields.push(unit, encodePlannedUnit(record));
        }
        write.hset(key, ...fields);
      }
    }
    await write.exec();
  }

  /** One unit of a recorded plan with its header, or undefined when the plan has no such unit. */
  async unit(
    n: number,
    depth: number,
    planId: string,
    unit: string,
  ): Promise<{ header: PlanHeader; unit: PlannedUnitRecord } | undefined> {
    const [header, record] = await this.redis.hmget(
      this.keys.plan(n, depth, planId),
      PLAN_HEADER_FIELD,
      unit,
    );
    if (header == null || record == null) return undefined;
    if (this.seal && !(await this.get(n, depth, planId))) return undefined;
    return { header: parsePlanHeader(header), unit: parsePlannedUnit(record) };
  }

  /**
   * A recorded plan: its header and every unit with its weight, or undefined when there is no
   * such plan, or (keyed) its MAC does not verify.
   */
  async get(
    n: number,
    depth: number,
    planId: string,
  ): Promise<{ header: PlanHeader; units: Map<string, PlannedUnitRecord> } | undefined> {
    const fields = await this.redis.hgetall(this.keys.plan(n, depth, planId));
    const json = fields[PLAN_HEADER_FIELD];
    if (json === undefined) return undefined;
    const header = parsePlanHeader(json);
    const units = new Map<string, PlannedUnitRecord>();
    for (const [field, value] of Object.entries(fields)) {
      if (field !== PLAN_HEADER_FIELD) units.set(field, parsePlannedUnit(value));
    }
    if (header.n !== n || header.depth !== depth || header.units !== units.size) return undefined;
    if (this.seal) {
      const id = `${n}:${depth}:${planId}`;
      if (!this.#sealedPlans.has(id)) {
        const weights = new Map([...units].map(([k, u]) => [k, u.weight]));
        const { mac, ...plain } = header;
        if (!this.seal.verifies(planMessage(plain, planId, weights), mac)) return undefined;
        this.#sealedPlans.add(id);
      }
    }
    return { header, units };
  }

  /** The unit keys of a recorded plan, or undefined when there is no such plan. */
  async unitKeys(
    n: number,
    depth: number,
    planId: string,
  ): Promise<{ header: PlanHeader; keys: Set<string> } | undefined> {
    const fields = await this.redis.hkeys(this.keys.plan(n, depth, planId));
    const json = await this.redis.hget(this.keys.plan(n, depth, planId), PLAN_HEADER_FIELD);
    if (json === null) return undefined;
    return {
      header: parsePlanHeader(json),
      keys: new Set(fields.filter((f) => f !== PLAN_HEADER_FIELD)),
    };
  }
}
