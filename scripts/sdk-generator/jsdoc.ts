/** JSDoc blocks for the generated declarations, wrapped so that hovers and the `.d.ts` read well. */

const WIDTH = 100;

/** The words of a line; a code span (`GET /api/v1/ping`) counts as one, so that no line break splits it. */
function words(line: string): string[] {
  const spans = line.match(/(?:`[^`]*`|[^\s`])+/g) ?? [];
  return spans.join(' ') === line.replace(/ +/g, ' ') ? spans : line.split(/ +/);
}

/** Words of one line, wrapped to `width` characters (a word longer than that keeps its own line). */
function wrap(line: string, width: number): string[] {
  const lines: string[] = [];
  let current = '';
  for (const word of words(line)) {
    if (current && current.length + 1 + word.length > width) {
      lines.push(current);
      current = word;
    } else {
      current = current ? `${current} ${word}` : word;
    }
  }
  lines.push(current);
  return lines;
}

/** A tag's value as written in source: strings and numbers as JSON; none for null, objects or functions. */
function tagValue(value: unknown): string | undefined {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return JSON.stringify(value);
  if (Array.isArray(value) && value.every((v) => typeof v === 'string' || typeof v === 'number')) return JSON.stringify(value);
  return undefined;
}

/**
 * A `/** ... *\/` block for `text` (its line breaks kept, each line wrapped) with `@default`
 * and `@example` tags; empty when there is nothing to say.
 */
export function jsDoc(text: string | undefined, tags: { default?: unknown; example?: unknown } = {}, indent = ''): string {
  const width = WIDTH - indent.length - 3;
  const body = (text ?? '')
    .trim()
    .split('\n')
    .flatMap((line) => (line.trim() === '' ? [''] : wrap(line.trim(), width)));
  const tagLines = (['default', 'example'] as const).flatMap((tag) => {
    const value = tagValue(tags[tag]);
    return value === undefined ? [] : [`@${tag} ${value}`];
  });
  const lines = [...(body.length === 1 && body[0] === '' ? [] : body), ...tagLines].map((l) => l.replaceAll('*/', '*\\/'));
  if (lines.length === 0) return '';
  if (lines.length === 1 && `${indent}/** ${lines[0]} */`.length <= WIDTH) return `${indent}/** ${lines[0]} */\n`;
  return `${indent}/**\n${lines.map((l) => (l ? `${indent} * ${l}` : `${indent} *`)).join('\n')}\n${indent} */\n`;
}
