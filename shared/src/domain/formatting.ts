/**
 * WhatsApp's text formatting (`*bold*`, `_italic_`, `~strike~`, ```monospace```) as a tree that
 * clients render as their own elements, never as HTML.
 */

export type FormatStyle = 'bold' | 'italic' | 'strike' | 'mono';

export type FormatNode =
  | { kind: 'text'; text: string }
  | { kind: 'bold' | 'italic' | 'strike'; children: FormatNode[] }
  | { kind: 'mono'; text: string };

const MARKERS: Record<string, 'bold' | 'italic' | 'strike'> = {
  '*': 'bold',
  _: 'italic',
  '~': 'strike',
};
const MONO = '```';

const isSpace = (ch: string | undefined) => ch !== undefined && /\s/u.test(ch);
/** Letters and digits glue a marker to a word (`2*3*4`, `snake_case`): no formatting there. */
const isWordChar = (ch: string | undefined) => ch !== undefined && /[\p{L}\p{N}]/u.test(ch);

/** A marker opens after the start, a space or punctuation, and before a non-space. */
const canOpen = (text: string, at: number) => {
  const next = text[at + 1];
  return !isWordChar(text[at - 1]) && next !== undefined && !isSpace(next) && next !== text[at];
};

/** The closing marker for the one at `at`: after a non-space, before the end, a space or punctuation, on the same line. */
function closingOf(text: string, at: number): number {
  const marker = text[at]!;
  for (let k = at + 2; k < text.length; k++) {
    const ch = text[k];
    if (ch === '\n') return -1;
    if (ch === marker && !isSpace(text[k - 1]) && !isWordChar(text[k + 1])) return k;
  }
  return -1;
}

/** Parses a message body into formatted runs; unmatched markers stay as text. */
export function parseWhatsAppFormatting(text: string): FormatNode[] {
  const nodes: FormatNode[] = [];
  let plain = '';
  const flush = () => {
    if (plain) nodes.push({ kind: 'text', text: plain });
    plain = '';
  };
  let i = 0;
  while (i < text.length) {
    if (text.startsWith(MONO, i)) {
      const end = text.indexOf(MONO, i + MONO.length + 1);
      if (end > 0) {
        flush();
        nodes.push({ kind: 'mono', text: text.slice(i + MONO.length, end) });
        i = end + MONO.length;
        continue;
      }
    }
    const ch = text[i]!;
    const style = MARKERS[ch];
    if (style && canOpen(text, i)) {
      const end = closingOf(text, i);
      if (end > 0) {
        flush();
        nodes.push({ kind: style, children: parseWhatsAppFormatting(text.slice(i + 1, end)) });
        i = end + 1;
        continue;
      }
    }
    plain += ch;
    i++;
  }
  flush();
  return nodes;
}

/** The visible text of formatted runs (markers removed). */
export const formattedText = (nodes: readonly FormatNode[]): string =>
  nodes
    .map((n) => (n.kind === 'text' || n.kind === 'mono' ? n.text : formattedText(n.children)))
    .join('');

/**
 * The runs cut to `max` visible characters plus an ellipsis when longer (list previews in
 * compact mode), keeping the formatting of what stays.
 */
export function truncateFormatted(nodes: readonly FormatNode[], max: number): FormatNode[] {
  if (formattedText(nodes).length <= max) return [...nodes];
  let left = max;
  const cut = (list: readonly FormatNode[]): FormatNode[] => {
    const out: FormatNode[] = [];
    for (const node of list) {
      if (left <= 0) break;
      if (node.kind === 'text' || node.kind === 'mono') {
        const text = node.text.slice(0, left);
        left -= text.length;
        out.push({ ...node, text });
      } else out.push({ kind: node.kind, children: cut(node.children) });
    }
    return out;
  };
  return [...cut(nodes), { kind: 'text', text: '...' }];
}
