// The sweep timeline on a canvas: one lane per worker slot, one bar per unit coloured as its
// problem says (by D, or by n where units have no D), the planned and actual makespan as vertical
// lines, and a tooltip for the unit under the pointer.
// A canvas rather than DOM nodes: tens of thousands of bars redraw in milliseconds.
import type { TimelineUnit, TimelineView } from '../src/timeline.js';
import { problemView } from './problems.js';

/** Room for the lane labels on the left, the time axis on top, and the overrun outline. */
const LEFT = 168;
const RIGHT = 16;
const TOP = 40;
const BOTTOM = 8;
/** Lanes get thinner as they multiply, down to a few pixels; labels only where they fit. */
const MAX_LANE = 22;
const MIN_LANE = 3;
const LABELLED_LANE = 10;
/** The canvas stops growing here (256 workers × 16 slots still fit, thinly). */
const MAX_PLOT_HEIGHT = 640;

/** A colour per D (or per n), spread over the hue circle from blue through green to red. */
function spectrumColour(index: number, last: number): string {
  const hue = 220 - (index / Math.max(1, last)) * 220;
  return `hsl(${Math.round(hue)} 68% 50%)`;
}

/** One colour of the bars and what it stands for (`D=3`, `n=16`). */
export interface LegendEntry {
  readonly label: string;
  readonly colour: string;
}

export function seconds(value: number): string {
  if (!Number.isFinite(value)) return '—';
  if (value < 0.001) return value === 0 ? '0 s' : '< 1 ms';
  if (value < 1) return `${Math.round(value * 1000)} ms`;
  if (value < 100) return `${value.toFixed(2)} s`;
  return `${Math.round(value)} s`;
}

/** How many times its estimate a unit took: `3.4×`, `1.2e+8×` (an estimate of microseconds). */
export function overBy(took: number, estimate: number | null): string {
  if (estimate === null) return '—';
  if (estimate <= 0) return '∞×';
  const ratio = took / estimate;
  return ratio < 1000 ? `${ratio.toFixed(1)}×` : `${ratio.toExponential(1)}×`;
}

export class TimelineChart {
  private view: TimelineView | undefined;
  /** Per lane, its units by start time (for the hover lookup). */
  private lanes: TimelineUnit[][] = [];
  private laneHeight = MAX_LANE;
  private scale = 1;
  private colours: readonly LegendEntry[] = [];
  /** Which of `colours` a unit's bar gets. */
  private colourOf: (u: TimelineUnit) => number = () => 0;

  constructor(
    private readonly canvas: HTMLCanvasElement,
    private readonly tip: HTMLElement,
  ) {
    canvas.addEventListener('mousemove', (e) => this.hover(e));
    canvas.addEventListener('mouseleave', () => {
      tip.hidden = true;
    });
  }

  get legend(): readonly LegendEntry[] {
    return this.colours;
  }

  draw(view: TimelineView): void {
    this.view = view;
    const index = new Map(view.lanes.map((l, i) => [`${l.worker}\u0000${l.slot}`, i]));
    this.lanes = view.lanes.map(() => []);
    for (const u of view.units) {
      this.lanes[index.get(`${u.worker}\u0000${u.slot}`) ?? 0]?.push(u);
    }
    const { labels, colourOf } = problemView(view.problem).timelineColours(view);
    this.colours = labels.map((label, i) => ({
      label,
      colour: spectrumColour(i, labels.length - 1),
    }));
    this.colourOf = colourOf;
    this.canvas.dataset.sweep = view.sweepId;
    this.canvas.dataset.lanes = String(view.lanes.length);
    this.canvas.dataset.bars = String(view.units.length);
    this.canvas.dataset.truncated = String(view.truncated);
    this.redraw();
    // Where the lanes are, for scripts that point at a bar (the browser test hovers one).
    this.canvas.dataset.plotLeft = String(LEFT);
    this.canvas.dataset.laneTop = String(TOP);
    this.canvas.dataset.laneHeight = String(this.laneHeight);
    this.canvas.dataset.pxPerSecond = String(this.scale);
  }

  redraw(): void {
    const view = this.view;
    if (!view) return;
    const { canvas } = this;
    const lanes = Math.max(1, view.lanes.length);
    this.laneHeight = Math.max(MIN_LANE, Math.min(MAX_LANE, Math.floor(MAX_PLOT_HEIGHT / lanes)));
    const width = Math.max(480, canvas.parentElement?.clientWidth ?? 960);
    const height = TOP + lanes * this.laneHeight + BOTTOM;
    const ratio = window.devicePixelRatio || 1;
    canvas.width = Math.round(width * ratio);
    canvas.height = Math.round(height * ratio);
    canvas.style.width = `${width}px`;
    canvas.style.height = `${height}px`;
    const ctx = canvas.getContext('2d');
    if (!ctx) return;
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);

    const style = getComputedStyle(canvas);
    const ink = style.color;
    const muted = style.getPropertyValue('--muted').trim() || '#667085';
    const line = style.getPropertyValue('--line').trim() || '#e3e7ee';
    const failed = style.getPropertyValue('--failed').trim() || '#e03131';
    const { actualSeconds, plannedSeconds } = view.makespan;
    const span = Math.max(actualSeconds ?? 0, plannedSeconds ?? 0, 0.001) * 1.03;
    this.scale = (width - LEFT - RIGHT) / span;
    const x = (t: number): number => LEFT + t * this.scale;
    const h = this.laneHeight;

    ctx.clearRect(0, 0, width, height);
    ctx.font = '11px ui-monospace, "DejaVu Sans Mono", monospace';
    ctx.textBaseline = 'middle';

    // Lanes: alternate shading, labels where they fit.
    view.lanes.forEach((lane, i) => {
      const y = TOP + i * h;
      if (i % 2 === 1) {
        ctx.fillStyle = line;
        ctx.globalAlpha = 0.45;
        ctx.fillRect(LEFT, y, width - LEFT - RIGHT, h);
        ctx.globalAlpha = 1;
      }
      if (h >= LABELLED_LANE) {
        ctx.fillStyle = lane.units === 0 ? failed : ink;
        ctx.textAlign = 'right';
        ctx.fillText(fit(ctx, `${lane.worker} #${lane.slot}`, LEFT - 10), LEFT - 8, y + h / 2);
      }
    });

    // Time axis: about eight ticks at 1, 2 or 5 × 10^k seconds.
    const step = niceStep(span / 8);
    ctx.strokeStyle = line;
    ctx.fillStyle = muted;
    ctx.textAlign = 'center';
    ctx.lineWidth = 1;
    for (let k = 0; k * step <= span; k++) {
      const t = k * step;
      const px = Math.round(x(t)) + 0.5;
      ctx.beginPath();
      ctx.moveTo(px, TOP - 22);
      ctx.lineTo(px, height - BOTTOM);
      ctx.stroke();
      ctx.fillText(axisLabel(t, step), px, TOP - 30);
    }

    // Bars. Hot path for big sweeps: one fillRect per unit, colours made once per D (or n).
    const bar = Math.max(1, h - 2);
    const palette = this.colours.map((c) => c.colour);
    this.lanes.forEach((units, i) => {
      const y = TOP + i * h + (h - bar) / 2;
      for (const u of units) {
        ctx.globalAlpha = u.role === 'check' ? 0.55 : 1;
        ctx.fillStyle = palette[this.colourOf(u)] ?? ink;
        ctx.fillRect(x(u.start), y, Math.max(1, (u.end - u.start) * this.scale), bar);
      }
    });
    ctx.globalAlpha = 1;

    // Units far over their estimate: outlined.
    const lane = new Map(view.lanes.map((l, i) => [`${l.worker}\u0000${l.slot}`, i]));
    ctx.strokeStyle = failed;
    ctx.lineWidth = 1.5;
    for (const u of view.overruns) {
      const i = lane.get(`${u.worker}\u0000${u.slot}`);
      if (i === undefined) continue;
      const y = TOP + i * h + (h - bar) / 2;
      ctx.strokeRect(x(u.start), y, Math.max(1, (u.end - u.start) * this.scale), bar);
    }

    // The planned makespan (dashed) against the actual one (solid).
    const marker = (t: number | null, label: string, dash: number[], align: CanvasTextAlign) => {
      if (t === null) return;
      const px = Math.round(x(t)) + 0.5;
      ctx.setLineDash(dash);
      ctx.strokeStyle = ink;
      ctx.lineWidth = 1.5;
      ctx.beginPath();
      ctx.moveTo(px, TOP - 18);
      ctx.lineTo(px, height - BOTTOM);
      ctx.stroke();
      ctx.setLineDash([]);
      ctx.fillStyle = ink;
      ctx.textAlign = align;
      ctx.fillText(label, px + (align === 'left' ? 4 : -4), TOP - 12);
    };
    const plannedFirst = (plannedSeconds ?? 0) < (actualSeconds ?? 0);
    marker(plannedSeconds, 'planned', [5, 4], plannedFirst ? 'right' : 'left');
    marker(actualSeconds, 'actual', [], plannedFirst ? 'left' : 'right');
  }

  private hover(event: MouseEvent): void {
    const view = this.view;
    if (!view) return;
    const rect = this.canvas.getBoundingClientRect();
    const px = event.clientX - rect.left;
    const py = event.clientY - rect.top;
    const i = Math.floor((py - TOP) / this.laneHeight);
    const units = this.lanes[i];
    const lane = view.lanes[i];
    const t = (px - LEFT) / this.scale;
    const found = units && px >= LEFT ? unitAt(units, t, 3 / this.scale) : undefined;
    if (!lane || !found) {
      this.tip.hidden = true;
      return;
    }
    const estimate = found.estimateSeconds;
    const lines = [
      `${problemView(view.problem).unitName(found)} unit ${found.unit}${found.role === 'check' ? ' (check)' : ''}`,
      `${found.algorithm}: ${seconds(found.seconds)}`,
      estimate === null
        ? 'no estimate'
        : `estimate ${seconds(estimate)} (${overBy(found.seconds, estimate)})`,
      `${lane.worker} #${lane.slot}, from +${seconds(found.start)}`,
    ];
    this.tip.textContent = lines.join('\n');
    this.tip.hidden = false;
    const wrap = this.canvas.parentElement?.getBoundingClientRect();
    const left = event.clientX - (wrap?.left ?? 0) + 14;
    const maxLeft = (wrap?.width ?? 0) - this.tip.offsetWidth - 4;
    this.tip.style.left = `${Math.max(0, Math.min(left, maxLeft))}px`;
    // Below the pointer, or above it near the canvas's bottom edge.
    const below = event.clientY - (wrap?.top ?? 0) + 14;
    const fits = below + this.tip.offsetHeight <= (wrap?.height ?? 0);
    this.tip.style.top = `${fits ? below : below - this.tip.offsetHeight - 24}px`;
  }
}

/** The unit of one lane at time t (within `slack` seconds), by binary search on the starts. */
function unitAt(
  units: readonly TimelineUnit[],
  t: number,
  slack: number,
): TimelineUnit | undefined {
  let lo = 0;
  let hi = units.length - 1;
  let last = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if ((units[mid]?.start ?? Infinity) <= t + slack) {
      last = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  // A slot runs one unit at a time, so the candidate is the last one started (or the one before
  // it, when t falls in the slack before a next unit's start).
  for (const j of [last, last - 1]) {
    const u = units[j];
    if (u && u.start - slack <= t && t <= u.end + slack) return u;
  }
  return undefined;
}

function niceStep(raw: number): number {
  const power = 10 ** Math.floor(Math.log10(raw));
  const scaled = raw / power;
  return (scaled <= 1 ? 1 : scaled <= 2 ? 2 : scaled <= 5 ? 5 : 10) * power;
}

function axisLabel(t: number, step: number): string {
  if (t === 0) return '0';
  if (step >= 60 && t >= 60) {
    const m = Math.floor(t / 60);
    const s = Math.round(t % 60);
    return s === 0 ? `${m}m` : `${m}m${String(s).padStart(2, '0')}`;
  }
  const digits = step >= 1 ? 0 : Math.min(3, Math.ceil(-Math.log10(step)));
  return `${t.toFixed(digits)}s`;
}

/** The text, cut with an ellipsis to fit `width` pixels. */
function fit(ctx: CanvasRenderingContext2D, text: string, width: number): string {
  if (ctx.measureText(text).width <= width) return text;
  let cut = text;
  while (cut.length > 1 && ctx.measureText(`…${cut}`).width > width) cut = cut.slice(1);
  return `…${cut}`;
}
