// Building the page from data: elements whose text comes from the server only ever as text
// nodes (never HTML), and the small pieces every panel shares (tables, status pills, bars).

export const $ = <T extends HTMLElement>(id: string): T => {
  const el = document.getElementById(id);
  if (!el) throw new Error(`#${id} is missing from the page`);
  return el as T;
};

export type Child = Node | string | null | undefined | false;

/** A DOM element with attributes and children; strings become text nodes (never HTML). */
export function h(tag: string, attrs: Record<string, string | boolean> = {}, ...children: Child[]) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === false) continue;
    el.setAttribute(name, value === true ? '' : value);
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child);
  }
  return el;
}

/**
 * Fills the body of table #`table` with a row per item, and shows its note #`empty` ("none
 * yet") only when there are none, so every table of the page says the same about nothing.
 */
export function fillTable<T>(
  table: string,
  empty: string,
  items: readonly T[],
  row: (item: T) => HTMLElement,
): void {
  $(empty).hidden = items.length > 0;
  $(table)
    .querySelector('tbody')
    ?.replaceChildren(...items.map(row));
}

export function pill(status: string): HTMLElement {
  return h('span', { class: `pill pill-${status}` }, status);
}

export function bar(fraction: number, status: string, small = false): HTMLElement {
  const fill = h('span');
  fill.style.width = `${Math.max(0, Math.min(1, fraction)) * 100}%`;
  return h('div', { class: `bar ${status}${small ? ' small' : ''}`, role: 'progressbar' }, fill);
}
