import Paper from '@mui/material/Paper';
import type { ReactNode } from 'react';
import { nearBottom } from './scroll';

/**
 * A table wider than a phone scrolls sideways; its last column (the row actions) stays pinned
 * at the right edge so the buttons are always inside the visible row.
 */
const STICKY_ACTIONS = {
  overflowX: 'auto',
  '& .MuiTableRow-root > .MuiTableCell-root:last-of-type': {
    position: 'sticky',
    right: 0,
    bgcolor: 'background.paper',
    zIndex: 1,
  },
  '& .MuiTableHead-root .MuiTableCell-root:last-of-type': {
    zIndex: 3,
    bgcolor: 'background.default',
  },
} as const;

/** The page's scrolling table area; asks for the next page near its bottom. */
export function ScrollPaper({
  onEnd,
  stickyActions = true,
  children,
}: {
  onEnd?(): void;
  stickyActions?: boolean;
  children: ReactNode;
}) {
  return (
    <Paper
      variant="outlined"
      data-testid="scroll-area"
      sx={{
        flex: 1,
        minHeight: 0,
        overflowY: 'auto',
        ...(stickyActions ? STICKY_ACTIONS : { overflowX: 'auto' }),
      }}
      onScroll={(e) => {
        if (onEnd && nearBottom(e.currentTarget)) onEnd();
      }}
    >
      {children}
    </Paper>
  );
}

/** The page frame under the shell's top bar. */
export function PageFrame({ children }: { children: ReactNode }) {
  return (
    <Paper
      elevation={0}
      sx={{
        p: 2,
        height: '100%',
        display: 'flex',
        flexDirection: 'column',
        bgcolor: 'transparent',
      }}
    >
      {children}
    </Paper>
  );
}
