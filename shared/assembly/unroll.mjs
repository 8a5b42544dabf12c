// Writes the AssemblyScript kernels with their unrolled rows spelled out, for asc to compile.
//
// The last rows of each search are one function per row, each inlined into the one above, so
// that asc folds each level's row and distance to constants and no call saves live values
// around it (a single recursive function took 1.25–1.4× the CPU time; see the sources). Those
// functions differ only in their row (and, in weak-dfs.ts, in the phase: up or down), so each
// is written once, as a template:
//
//   // unroll K = 9 … 3 {            or   // unroll P = up, down; K = 2 … 6 {
//   ⟨one function, with «expressions in K» (and P) where the row goes⟩
//   // }
//
// and this script repeats it for each P (in order) and each K from the first to the last,
// evaluating every «…» (a JavaScript expression in K and P) to its text. Everything else is
// copied as it is.
//
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';

const BLOCK = /^\/\/ unroll (?:P = ([\w, ]+); )?K = (\d+) … (\d+) \{\n([\s\S]*?)^\/\/ \}\n/gm;
const HOLE = /«([^»]+)»/g;

function unroll(source) {
  return source.replace(BLOCK, (_, phases, from, to, template) => {
    const first = Number(from);
    const last = Number(to);
    const step = first > last ? -1 : 1;
    const copies = [];
    for (const p of phases ? phases.split(', ') : ['']) {
      for (let k = first; k !== last + step; k += step) {
        copies.push(template.replace(HOLE, (_, expression) => String(evaluate(expression, k, p))));
      }
    }
    return copies.join('\n');
  });
}

function evaluate(expression, k, p) {
  return new Function('K', 'P', `return (${expression});`)(k, p);
}

const here = new URL('./', import.meta.url);
const out = new URL('../dist/assembly/', import.meta.url);
mkdirSync(out, { recursive: true });
for (const file of readdirSync(here).filter((f) => f.endsWith('.ts'))) {
  writeFileSync(new URL(file, out), unroll(readFileSync(new URL(file, here), 'utf8')));
}
