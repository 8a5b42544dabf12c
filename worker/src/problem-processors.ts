// The one place the worker learns a problem besides the default (weak): the processors of its
// job names. The count and aggregate queues stay as they are; a job goes to its problem's
// processor by name, anything else to the weak processors as before.
import type { Job, Processor } from 'bullmq';
import { CLASSIC_JOB_NAMES } from '@weak-queens/shared/contracts';
import {
  type ClassicProcessorDeps,
  createClassicSumProcessor,
  createClassicUnitProcessor,
} from './classic-processor.js';

export type ProblemProcessors = ReadonlyMap<string, Processor>;

/** Per queue role, job name → processor of every registered problem. */
export function problemProcessors(classic: ClassicProcessorDeps): {
  count: ProblemProcessors;
  aggregate: ProblemProcessors;
} {
  return {
    count: new Map([[CLASSIC_JOB_NAMES.unit, createClassicUnitProcessor(classic)]]),
    aggregate: new Map([[CLASSIC_JOB_NAMES.sum, createClassicSumProcessor(classic)]]),
  };
}

/** A processor that hands a registered problem's job to its own processor. */
export function routeByProblem(fallback: Processor, table: ProblemProcessors): Processor {
  return (job: Job, token?: string) => (table.get(job.name) ?? fallback)(job, token);
}
