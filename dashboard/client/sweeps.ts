// The sweep cards: a sweep's facts and actions (timeline, cancel, retry), why units wait, and a
// row per n that opens onto its table of D.
import type { DepthView, SizeView, SweepView } from '../src/snapshot.js';
import { errorOf, post } from './api.js';
import { $, bar, h, pill } from './dom.js';
import { ago, bytesLabel, duration, grouped, nsLabel } from './format.js';
import { problemView } from './problems.js';
import { timelineButton } from './timeline-panel.js';

const openSizes = new Set<string>();
const sweepMessages = new Map<string, string>();

export function renderSweeps(sweeps: readonly SweepView[]): void {
  const root = $('sweeps');
  if (sweeps.length === 0) {
    root.replaceChildren(
      h('p', { class: 'empty' }, 'No sweeps yet: start one above or with wq sweep.'),
    );
    return;
  }
  root.replaceChildren(...sweeps.map(sweepCard));
}

function sweepCard(sweep: SweepView): HTMLElement {
  const canCancel = sweep.status === 'running' || sweep.status === 'queued';
  const canRetry = sweep.status === 'failed' || sweep.status === 'cancelled';
  const actions = h('div', { class: 'sweep-actions' });
  actions.append(timelineButton(sweep.id));
  if (canCancel) actions.append(actionButton(sweep.id, 'cancel', 'Cancel', 'danger small'));
  if (canRetry) actions.append(actionButton(sweep.id, 'retry', 'Retry', 'secondary small'));
  const message = sweepMessages.get(sweep.id);
  return h(
    'article',
    { class: 'sweep', 'data-sweep': sweep.id, 'data-status': sweep.status },
    h(
      'div',
      { class: 'sweep-head' },
      h('span', { class: 'sweep-id' }, sweep.id),
      pill(sweep.status),
      h(
        'span',
        { class: 'sweep-facts' },
        h('span', {}, `${problemView(sweep.problem).sweepLabel}n = ${nsLabel(sweep.ns)}`),
        h('span', {}, `${sweep.done}/${sweep.total} n done`),
        sweep.workDone !== null &&
          h('span', { class: 'sweep-work' }, `${(sweep.workDone * 100).toFixed(1)} % of the work`),
        h('span', {}, `${sweep.unitsDone}/${sweep.units} units`),
        h('span', {}, `elapsed ${duration(sweep.elapsedSeconds)}`),
        sweep.etaSeconds !== null && h('span', {}, `ETA ≈ ${duration(sweep.etaSeconds)}`),
        h('span', {}, `started ${ago(sweep.createdAt)} ago`),
      ),
      actions,
    ),
    message ? h('p', { class: 'sweep-error', role: 'alert' }, message) : null,
    unfitNotice(sweep),
    sweep.notQueued
      ? h('p', { class: 'sweep-unfit', role: 'status' }, sweep.notQueued.message)
      : null,
    sweep.otherProtocol
      ? h('p', { class: 'sweep-unfit', role: 'status' }, sweep.otherProtocol)
      : null,
    ...sweep.sizes.map((size) => sizeRow(sweep, size)),
  );
}

/** Units no live worker can hold: which, how much memory, what the largest worker has. */
function unfitNotice(sweep: SweepView): HTMLElement | null {
  if (sweep.unfit.length === 0) return null;
  const largest = sweep.unfit[0]?.largestSlotBytes ?? 0;
  const shown = sweep.unfit.slice(0, 5).map((u) => `${u.jobId} needs ${bytesLabel(u.bytes)}`);
  const more = sweep.unfit.length > 5 ? `, and ${sweep.unfit.length - 5} more` : '';
  const has =
    largest > 0
      ? `the largest live worker has ${bytesLabel(largest)} per slot`
      : 'no worker is live';
  return h(
    'p',
    { class: 'sweep-unfit', role: 'status' },
    `${sweep.unfit.length} unit(s) fit no live worker (${has}): ${shown.join('; ')}${more}. ` +
      `Run wq replan ${sweep.id}, or start a worker with more memory per slot.`,
  );
}

function actionButton(id: string, action: 'cancel' | 'retry', label: string, cls: string) {
  const button = h('button', { type: 'button', class: cls, 'data-action': action }, label);
  button.addEventListener('click', () => {
    button.setAttribute('disabled', '');
    post(`/api/sweeps/${encodeURIComponent(id)}/${action}`, {})
      .then(({ ok, data }) => {
        if (ok) {
          const left = (data as { left?: number[] }).left;
          sweepMessages.set(
            id,
            action === 'cancel' && left?.length
              ? `Cancelled; n = ${left.join(', ')} still finishing their running units.`
              : '',
          );
        } else {
          sweepMessages.set(id, errorOf(data).message ?? `${action} failed`);
        }
      })
      .catch(() => sweepMessages.set(id, `${action} failed: the dashboard cannot be reached`))
      .finally(() => button.removeAttribute('disabled'));
  });
  return button;
}

function sizeRow(sweep: SweepView, size: SizeView): HTMLElement {
  const key = `${sweep.id}:${size.n}`;
  const details = h(
    'details',
    { class: 'size', 'data-n': String(size.n), 'data-status': size.status },
    h(
      'summary',
      {},
      h('span', { class: 'size-n' }, `n=${size.n}`),
      bar(size.units ? size.unitsDone / size.units : 0, size.status),
      h('span', { class: 'size-units' }, `${size.unitsDone}/${size.units} units`),
      pill(size.status),
      h(
        'span',
        { class: 'size-S', title: size.reason ?? '' },
        problemView(sweep.problem).sizeResult(size) ?? size.reason ?? '',
      ),
    ),
    depthTable(size.depths),
  ) as HTMLDetailsElement;
  details.open = openSizes.has(key);
  details.addEventListener('toggle', () => {
    if (details.open) openSizes.add(key);
    else openSizes.delete(key);
  });
  return details;
}

function depthTable(depths: readonly DepthView[]): HTMLElement {
  const head = ['D', 'status', 'algorithm', 'units', 'time', 'ETA', 'N(n, D)'];
  return h(
    'table',
    { class: 'depths' },
    h(
      'thead',
      {},
      h('tr', {}, ...head.map((t, i) => h('th', { scope: 'col', class: i >= 3 ? 'num' : '' }, t))),
    ),
    h(
      'tbody',
      {},
      ...depths.map((d) =>
        h(
          'tr',
          { 'data-depth': String(d.depth) },
          h('td', { class: 'num' }, String(d.depth)),
          h('td', {}, pill(d.status)),
          h('td', {}, d.algorithm),
          h(
            'td',
            { class: 'num' },
            bar(d.units ? d.unitsDone / d.units : 0, d.status, true),
            `${d.unitsDone}/${d.units}`,
          ),
          h(
            'td',
            { class: 'num', title: 'single-core seconds, summed over the units' },
            duration(d.seconds || null),
          ),
          h('td', { class: 'num' }, d.etaSeconds === null ? '—' : `≈ ${duration(d.etaSeconds)}`),
          d.reason
            ? h('td', { class: 'reason' }, d.reason)
            : h('td', { class: 'num' }, d.value === null ? '' : grouped(d.value)),
        ),
      ),
    ),
  );
}
