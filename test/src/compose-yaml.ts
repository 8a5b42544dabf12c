// A parser for the strict YAML subset docker-compose.yml is written in, so the compose file can
// be checked without a YAML library: block mappings indented by two spaces, `- item` lists of
// scalars, flow lists of double-quoted strings, double-quoted or plain scalars, whole-line
// comments. Anything else (anchors, multi-line strings, inline comments, tabs) is an error, so
// the file cannot drift out of what this reads correctly.

export type YamlValue = string | YamlValue[] | { [key: string]: YamlValue };

interface Line {
  readonly number: number;
  readonly indent: number;
  readonly text: string;
}

export function parseYamlSubset(source: string): { [key: string]: YamlValue } {
  const lines: Line[] = [];
  source.split('\n').forEach((raw, i) => {
    if (raw.includes('\t')) throw new Error(`line ${i + 1}: tabs are not allowed`);
    const text = raw.trimEnd();
    if (text.trim() === '' || text.trim().startsWith('#')) return;
    const indent = text.length - text.trimStart().length;
    if (indent % 2 !== 0) throw new Error(`line ${i + 1}: indent by two spaces`);
    lines.push({ number: i + 1, indent, text: text.trimStart() });
  });
  let at = 0;

  function block(indent: number): YamlValue {
    const first = lines[at];
    if (!first || first.indent !== indent) throw new Error(`line ${first?.number}: bad indent`);
    return first.text.startsWith('- ') ? sequence(indent) : mapping(indent);
  }

  function sequence(indent: number): YamlValue[] {
    const items: YamlValue[] = [];
    for (let line = lines[at]; line && line.indent === indent; line = lines[at]) {
      if (!line.text.startsWith('- ')) throw new Error(`line ${line.number}: expected "- item"`);
      items.push(scalar(line.text.slice(2), line.number));
      at++;
    }
    return items;
  }

  function mapping(indent: number): { [key: string]: YamlValue } {
    const map: { [key: string]: YamlValue } = {};
    for (let line = lines[at]; line && line.indent === indent; line = lines[at]) {
      const match = /^([A-Za-z0-9_.-]+):(?: (.*))?$/.exec(line.text);
      if (!match?.[1]) throw new Error(`line ${line.number}: expected "key: value"`);
      if (match[1] in map) throw new Error(`line ${line.number}: duplicate key ${match[1]}`);
      at++;
      const next = lines[at];
      if (match[2] !== undefined) map[match[1]] = scalar(match[2], line.number);
      else if (next && next.indent > indent) map[match[1]] = block(indent + 2);
      else map[match[1]] = {};
    }
    const stray = lines[at];
    if (stray && stray.indent > indent) throw new Error(`line ${stray.number}: bad indent`);
    return map;
  }

  function scalar(text: string, number: number): YamlValue {
    if (text.startsWith('[')) {
      const list: unknown = JSON.parse(text);
      if (!Array.isArray(list) || !list.every((v) => typeof v === 'string')) {
        throw new Error(`line ${number}: flow lists hold double-quoted strings only`);
      }
      return list;
    }
    if (text.startsWith('"')) return JSON.parse(text) as string;
    if (/^[&*!|>'{@`%]/.test(text) || / #/.test(text)) {
      throw new Error(`line ${number}: "${text}" is outside the supported YAML subset`);
    }
    return text;
  }

  const root = mapping(0);
  if (at < lines.length) throw new Error(`line ${lines[at]?.number}: unexpected indent`);
  return root;
}
