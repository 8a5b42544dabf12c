// The table of docs/results.md, rendered from the published results file's lines (between the
// page's markers): publish-results.mjs and recheck-published.mjs both write it.
import { readFileSync, writeFileSync } from 'node:fs';

const BEGIN = '<!-- results:begin (scripts/publish-results.mjs) -->';
const END = '<!-- results:end -->';

/** Renders `lines` into the page at `docs`; returns whether the page had the markers. */
export function renderResultsTable(lines, docs) {
  let page;
  try {
    page = readFileSync(docs, 'utf8');
  } catch {
    return false;
  }
  if (!page.includes(BEGIN) || !page.includes(END)) return false;
  const short = (check) => check.replace(/^second count by /, '2nd: ');
  const rows = lines.map((line) => {
    const seen = new Set([...line.depths.flatMap((d) => d.checks.map(short)), ...line.checks]);
    return `| ${line.n} | ${line.S} | ${line.coreSeconds} | ${line.checkCoreSeconds} | ${[...seen].join('; ')} |`;
  });
  const table = [
    '| n | S(n) | core-s | core-s of the 2nd counts | checks passed (over its D) |',
    '| --: | --: | --: | --: | --- |',
    ...rows,
  ].join('\n');
  const before = page.slice(0, page.indexOf(BEGIN) + BEGIN.length);
  const after = page.slice(page.indexOf(END));
  writeFileSync(docs, `${before}\n${table}\n${after}`);
  return true;
}
