// Merges Prometheus text expositions: BullMQ's export prints its HELP/TYPE lines once per queue,
// but a family may be declared only once per scrape, so samples are regrouped under one header.

export function mergeExpositions(texts: readonly string[]): string {
  const families = new Map<string, { header: string[]; samples: string[] }>();
  const familyOf = (name: string) => {
    let family = families.get(name);
    if (!family) {
      family = { header: [], samples: [] };
      families.set(name, family);
    }
    return family;
  };
  for (const text of texts) {
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      const header = /^# (HELP|TYPE) (\S+)/.exec(line);
      if (header) {
        const family = familyOf(header[2] ?? '');
        if (!family.header.some((h) => h.startsWith(`# ${header[1]} `))) family.header.push(line);
        continue;
      }
      if (line.startsWith('#')) continue;
      const name = /^[a-zA-Z_:][a-zA-Z0-9_:]*/.exec(line)?.[0];
      if (name) familyOf(baseName(name, families)).samples.push(line);
    }
  }
  const out: string[] = [];
  for (const { header, samples } of families.values()) out.push(...header, ...samples);
  return out.length ? out.join('\n') + '\n' : '';
}

/** Histogram and summary samples (`x_bucket`, `x_sum`, `x_count`) belong to family `x`. */
function baseName(name: string, families: Map<string, unknown>): string {
  if (families.has(name)) return name;
  const base = name.replace(/_(bucket|sum|count)$/, '');
  return families.has(base) ? base : name;
}
