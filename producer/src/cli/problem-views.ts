// How `wq sweep` and `wq results` show each problem: the CLI's side of the problem registry
// (the client's is shared/src/client/problems, the worker's its problem processors). Each view
// is loaded only when its problem is asked for, so `wq --help` pays for none of them.
import type { ImportRefusedError, PipelineClient, WorkerInfo } from '@weak-queens/shared/client';
import {
  type Problem as ProblemId,
  PROTOCOL_VERSION,
  protocolOf,
} from '@weak-queens/shared/contracts';
import type { FollowContext } from './follow.js';

/** What `wq sweep` was asked (the problem's own options among them). */
interface SweepRequest {
  readonly wait?: boolean;
  readonly json?: boolean;
  readonly verify?: boolean;
  readonly sample?: number | undefined;
  readonly allowHuge?: boolean;
}

/** What `wq results` was asked: print (as JSON or CSV), export or import. */
interface ResultsRequest {
  readonly json?: boolean;
  readonly csv?: boolean;
  readonly export?: string;
  readonly import?: string;
  readonly trust?: boolean;
  readonly units?: boolean;
}

/** What a view needs from `wq results` for files: write an export, read an import. */
interface ResultsFiles {
  readonly transfer: typeof import('@weak-queens/shared/client');
  readonly writeExport: (target: string, lines: readonly string[]) => void;
  readonly importFile: (
    source: string,
    Refused: typeof ImportRefusedError,
    load: (lines: string[]) => Promise<string>,
  ) => Promise<number>;
}

export interface ProblemView {
  /** `wq sweep --problem <id>`: submit, say what was added, and with --wait follow it. */
  sweep(
    client: PipelineClient,
    ns: readonly number[],
    request: SweepRequest,
    context: FollowContext,
  ): Promise<number>;
  /** `wq results --problem <id>`: print, export or import its results. */
  results(
    client: PipelineClient,
    ns: readonly number[] | undefined,
    request: ResultsRequest,
    files: ResultsFiles,
  ): Promise<number>;
}

const VIEWS: { readonly [id in ProblemId]: () => Promise<ProblemView> } = {
  weak: async () => (await import('./weak-view.js')).weakView,
  classic: async () => (await import('./classic-view.js')).classicView,
};

export function problemView(id: ProblemId): Promise<ProblemView> {
  return VIEWS[id]();
}

/**
 * Says what a submission added, whatever its problem. Without --wait that is the command's
 * output (the submission as JSON, or the summary line) and the command is done: returns false.
 * With --wait the summary goes to stderr, ahead of the progress, and stdout is left to the
 * results: returns true.
 */
export function reportSubmission(
  sweep: string,
  submission: {
    readonly added: number;
    readonly sizes: readonly { n: number; outcome: string }[];
    readonly otherProtocolOnly?: readonly WorkerInfo[];
  },
  options: { wait?: boolean; json?: boolean },
): boolean {
  const sizes = submission.sizes.map((s) => `n=${s.n} ${s.outcome}`).join(', ');
  const summary = `${sweep}: ${submission.added} jobs added (${sizes})`;
  const others = submission.otherProtocolOnly ?? [];
  if (others.length > 0 && submission.added > 0) {
    const named = others.map((w) => `${w.id} (protocol ${protocolOf(w)})`).join(', ');
    process.stderr.write(
      `${sweep}: no live worker speaks this build's protocol ${PROTOCOL_VERSION}; ${named} ` +
        `${others.length === 1 ? 'is of another build and takes' : 'are of another build and take'} ` +
        `none of its jobs: start a worker of this build (wq worker)\n`,
    );
  }
  if (!options.wait) {
    process.stdout.write(options.json ? JSON.stringify(submission) + '\n' : summary + '\n');
    return false;
  }
  process.stderr.write(summary + '\n');
  return true;
}

/** What an import says of the units it took without a MAC this store verifies. */
export function unverifiedNote(units: number): string {
  return units > 0
    ? `; ${units} units unverified (no MAC this store verifies): ` +
        'each is counted again before it enters a sum'
    : '';
}

/**
 * `wq results` asked for results and has none to show: not a success, so that a script does not
 * take an empty answer for one. Says why (nothing there, or records that do not hold up) and
 * returns exit code 1. `held` are the n that hold something that is not shown.
 */
export function nothingShown(
  transfer: ResultsFiles['transfer'],
  ns: readonly number[] | undefined,
  held: readonly number[] = [],
): number {
  const sizes = ns === undefined ? '' : ` for ${transfer.describeSizes(ns)}`;
  process.stderr.write(
    held.length === 0
      ? `wq results: nothing stored${sizes}\n`
      : `wq results: nothing shown${sizes}: what is stored for ${transfer.describeSizes(held)} ` +
          'is not borne out (edited, forged, or signed under another WQ_RESULT_KEY or none; ' +
          'see wq status), and a sweep of it counts it again\n',
  );
  return 1;
}
