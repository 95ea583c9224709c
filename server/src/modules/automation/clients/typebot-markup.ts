/**
 * Typebot's text bubbles (markdown or Slate rich text) as WhatsApp markup: *bold*, _italic_,
 * ~strike~, ```code```, links written out as "text (url)". Pure functions.
 */

/** Characters a markdown writer escapes with a backslash. */
const ESCAPABLE = /\\([\\`*_{}[\]()#+\-.!~|>])/g;
// Private-use placeholders: they never occur in Typebot text and survive the passes below.
const BOLD = '\uE001';
const ITALIC = '\uE002';
const STRIKE = '\uE003';
const escapedChar = (i: number) => `\uE010${i}\uE011`;

/** "text (url)", or the url alone when the text is the url. */
const linkText = (text: string, url: string) =>
  text.trim() === '' || text.trim() === url || text.trim() === url.replace(/^https?:\/\//, '')
    ? url
    : `${text} (${url})`;

/** WhatsApp marks only work tight against the words: keep outer spaces outside the mark. */
function wrap(text: string, mark: string): string {
  const match = /^(\s*)([\s\S]*?)(\s*)$/.exec(text)!;
  return match[2] === '' ? text : `${match[1]}${mark}${match[2]}${mark}${match[3]}`;
}

export function markdownToWhatsApp(markdown: string): string {
  const escaped: string[] = [];
  let s = markdown.replace(ESCAPABLE, (_, ch: string) => {
    escaped.push(ch);
    return escapedChar(escaped.length - 1);
  });
  s = s
    .replace(/\r\n?/g, '\n')
    // [text](url) and <url>
    .replace(
      /\[([^\]]*)\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g,
      (_, text: string, url: string) => linkText(text, url),
    )
    .replace(/<(https?:\/\/[^>\s]+)>/g, '$1')
    // headings become bold lines
    .replace(/^#{1,6}\s+(.+?)\s*#*\s*$/gm, (_, text: string) => wrap(text, BOLD))
    // ***x*** first, so bold and italic nest the way WhatsApp reads them
    .replace(/(\*\*\*|___)(?=\S)([\s\S]*?\S)\1/g, (_, __, text: string) =>
      wrap(wrap(text, ITALIC), BOLD),
    )
    .replace(/(\*\*|__)(?=\S)([\s\S]*?\S)\1/g, (_, __, text: string) => wrap(text, BOLD))
    .replace(/(?<![\w*])\*(?=\S)([^*\n]*?\S)\*(?![\w*])/g, (_, text: string) => wrap(text, ITALIC))
    .replace(/(?<![\w_])_(?=\S)([^_\n]*?\S)_(?![\w_])/g, (_, text: string) => wrap(text, ITALIC))
    .replace(/~~(?=\S)([\s\S]*?\S)~~/g, (_, text: string) => wrap(text, STRIKE))
    // list bullets: "* item" / "+ item" read better as "- item"
    .replace(/^(\s*)[*+]\s+/gm, '$1- ')
    // markdown hard breaks (two trailing spaces or a backslash) are plain new lines
    .replace(/ {2,}\n/g, '\n');
  return s
    .replaceAll(BOLD, '*')
    .replaceAll(ITALIC, '_')
    .replaceAll(STRIKE, '~')
    .replace(/\uE010(\d+)\uE011/g, (_, i: string) => escaped[Number(i)] ?? '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** A Slate node of Typebot's rich text. */
interface RichNode {
  type?: string;
  text?: string;
  url?: string;
  bold?: boolean;
  italic?: boolean;
  underline?: boolean;
  strikethrough?: boolean;
  code?: boolean;
  children?: RichNode[];
}

const asNode = (value: unknown): RichNode =>
  value && typeof value === 'object' ? (value as RichNode) : {};

function leaf(node: RichNode): string {
  let text = node.text ?? '';
  if (text === '') return '';
  if (node.code) return wrap(text, '```');
  if (node.strikethrough) text = wrap(text, '~');
  if (node.italic) text = wrap(text, '_');
  if (node.bold) text = wrap(text, '*');
  return text;
}

function inline(nodes: RichNode[] | undefined): string {
  return (nodes ?? [])
    .map(asNode)
    .map((n) => {
      if (n.type === 'a' && n.url) return linkText(inline(n.children), n.url);
      if (n.children) return blocks(n.children, '');
      return leaf(n);
    })
    .join('');
}

/** Paragraph-level nodes joined by new lines; list items get their bullet or number. */
function blocks(nodes: RichNode[] | undefined, separator = '\n'): string {
  const lines: string[] = [];
  for (const n of (nodes ?? []).map(asNode)) {
    if (n.type === 'ul' || n.type === 'ol') {
      (n.children ?? []).map(asNode).forEach((item, i) => {
        lines.push(`${n.type === 'ol' ? `${i + 1}.` : '-'} ${inline(item.children)}`);
      });
    } else if (n.type && /^h[1-6]$/.test(n.type)) {
      lines.push(wrap(inline(n.children), '*'));
    } else if (n.type === 'variable' || n.type === 'inline-variable') {
      lines.push(
        n.children?.some((c) => asNode(c).type === 'p') ? blocks(n.children) : inline(n.children),
      );
    } else if (n.children) {
      lines.push(inline(n.children));
    } else {
      lines.push(leaf(n));
    }
  }
  return lines.join(separator);
}

export function richTextToWhatsApp(richText: readonly unknown[]): string {
  return blocks(richText.map(asNode))
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
