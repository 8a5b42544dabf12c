// What differs between the problems a sweep can count, as the page shows them, in one table keyed
// by the sweep's `problem` field: how a sweep and a finished n are labelled, what a unit is
// called, what the timeline colours by, and where the results are shown. A new problem is one
// entry here (and its results panel in index.html).
import type { SizeView, SweepView } from '../src/snapshot.js';
import type { TimelineUnit, TimelineView } from '../src/timeline.js';
import { loadClassicResults } from './classic-results.js';
import { grouped } from './format.js';
import { loadWeakResults } from './weak-results.js';

type ProblemName = SweepView['problem'];

/** The timeline's bar colours: what each stands for (`D=3`, `n=16`), and which one a unit gets. */
interface TimelineColours {
  readonly labels: readonly string[];
  readonly colourOf: (u: TimelineUnit) => number;
}

export interface ProblemView {
  /** Written before a sweep's n on its card (`classic n = 4–8`); '' for the default problem. */
  readonly sweepLabel: string;
  /** A finished n's result as its row says it (`S = …`); null while it has none. */
  sizeResult(size: SizeView): string | null;
  /** What a unit counts a share of: `N(16, 3)`, `Q(16)`. */
  unitName(u: TimelineUnit): string;
  timelineColours(view: TimelineView): TimelineColours;
  /** Fetches the problem's results and shows them in its panel. */
  loadResults(): Promise<void>;
  /** Reloaded this often besides (ms): results whose arrival no snapshot announces. */
  readonly resultsPollMs?: number;
}

const PROBLEM_VIEWS: Readonly<Record<ProblemName, ProblemView>> = {
  weak: {
    sweepLabel: '',
    sizeResult: (size) => (size.S === null ? null : `S = ${grouped(size.S)}`),
    unitName: (u) => `N(${u.n}, ${u.depth})`,
    // A colour per D, up to the deepest D drawn.
    timelineColours: (view) => {
      const maxDepth = view.units.reduce((max, u) => Math.max(max, u.depth ?? 0), 0);
      return {
        labels: Array.from({ length: maxDepth + 1 }, (_, d) => `D=${d}`),
        colourOf: (u) => u.depth ?? 0,
      };
    },
    loadResults: loadWeakResults,
  },
  classic: {
    sweepLabel: 'classic ',
    sizeResult: (size) =>
      size.Q === null ? null : `Q = ${grouped(size.Q)}, unique = ${grouped(size.unique ?? '')}`,
    unitName: (u) => `Q(${u.n})`,
    // Q(n) has no D: a colour per n of the sweep.
    timelineColours: (view) => {
      const index = new Map(view.ns.map((n, i) => [n, i]));
      return { labels: view.ns.map((n) => `n=${n}`), colourOf: (u) => index.get(u.n) ?? 0 };
    },
    loadResults: loadClassicResults,
    // Its results are not counted in the snapshot's key of finished values (live.ts).
    resultsPollMs: 10_000,
  },
};

/** The problem's entry; a timeline names its problem only when it is not the default one. */
export function problemView(name: ProblemName | undefined): ProblemView {
  return PROBLEM_VIEWS[name ?? 'weak'];
}

/** Every problem's results, one after the other. */
export async function loadResults(): Promise<void> {
  for (const view of Object.values(PROBLEM_VIEWS)) await view.loadResults();
}

export function pollResults(): void {
  for (const view of Object.values(PROBLEM_VIEWS)) {
    const { resultsPollMs } = view;
    if (resultsPollMs === undefined) continue;
    setInterval(() => {
      view.loadResults().catch(() => undefined);
    }, resultsPollMs);
  }
}
