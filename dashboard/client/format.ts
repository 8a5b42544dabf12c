// Numbers, times and ids as the page writes them.

export function duration(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return '—';
  if (seconds < 1) return `${Math.round(seconds * 1000)} ms`;
  if (seconds < 60) return `${seconds.toFixed(1)} s`;
  const s = Math.round(seconds);
  if (s < 3600) return `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

export function ago(iso: string): string {
  return duration((Date.now() - Date.parse(iso)) / 1000);
}

/** `n14-d9-p<plan>-u3` → `n=14 D=9 #3`. */
export function jobLabel(id: string): string {
  const m = /^n(\d+)-d(\d+)(?:-p[0-9a-f]+-u(\d+))?$/.exec(id);
  if (!m) return id;
  return `n=${m[1]} D=${m[2]}${m[3] === undefined ? '' : ` #${m[3]}`}`;
}

/** 10570235486 → 10 570 235 486 (thin spaces; copy gives the plain digits via data-value). */
export function grouped(value: string): string {
  return value.replace(/\B(?=(\d{3})+(?!\d))/g, '\u2009');
}

export function bytesLabel(bytes: number): string {
  if (bytes >= 2 ** 30) return `${(bytes / 2 ** 30).toFixed(1)} GiB`;
  if (bytes >= 2 ** 20) return `${(bytes / 2 ** 20).toFixed(0)} MiB`;
  return `${(bytes / 1024).toFixed(0)} KiB`;
}

export function nsLabel(ns: readonly number[]): string {
  if (ns.length === 0) return '';
  const first = ns[0] ?? 0;
  const last = ns[ns.length - 1] ?? 0;
  return ns.length === last - first + 1 && ns.length > 2 ? `${first}–${last}` : ns.join(', ');
}
