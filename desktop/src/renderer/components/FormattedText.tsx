import Box from '@mui/material/Box';
import { parseWhatsAppFormatting, truncateFormatted, type FormatNode } from '@atende/shared';
import { Fragment, useMemo, type ReactNode } from 'react';

function renderNodes(nodes: readonly FormatNode[]): ReactNode[] {
  return nodes.map((node, i) => {
    switch (node.kind) {
      case 'text':
        return <Fragment key={i}>{node.text}</Fragment>;
      case 'bold':
        return <strong key={i}>{renderNodes(node.children)}</strong>;
      case 'italic':
        return <em key={i}>{renderNodes(node.children)}</em>;
      case 'strike':
        return <s key={i}>{renderNodes(node.children)}</s>;
      case 'mono':
        return (
          <Box component="code" key={i} sx={{ fontFamily: 'monospace', fontSize: '0.95em' }}>
            {node.text}
          </Box>
        );
    }
  });
}

/**
 * A message body with WhatsApp's formatting as React elements (text stays text: no HTML is
 * ever interpreted). `max` cuts the visible text, as list previews do in compact mode.
 */
export function FormattedText({ text, max }: { text: string; max?: number }) {
  const nodes = useMemo(() => {
    const parsed = parseWhatsAppFormatting(text);
    return max === undefined ? parsed : truncateFormatted(parsed, max);
  }, [text, max]);
  return <>{renderNodes(nodes)}</>;
}
