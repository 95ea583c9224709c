import CheckCircle from '@mui/icons-material/CheckCircle';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import type { SxProps, Theme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ScrollPaper } from './ScrollPaper';
import './i18n';

/** One column: its header and what a row shows in it. */
export interface Column<T> {
  key: string;
  label: ReactNode;
  align?: 'left' | 'center' | 'right';
  /** `checkbox` for a narrow leading cell (an avatar). */
  padding?: 'checkbox';
  cellSx?: SxProps<Theme>;
  render(row: T): ReactNode;
}

/** A button in a row's actions cell; `show` hides it for rows the user may not act on. */
export interface RowAction<T> {
  key: string;
  label: string;
  icon: ReactNode;
  onClick(row: T): void;
  show?(row: T): boolean;
}

interface Props<T extends { id: number }> {
  /** The table's accessible name. */
  label: string;
  rows: readonly T[];
  columns: readonly Column<T>[];
  actions?: readonly RowAction<T>[];
  /** `data-testid` of a row. */
  rowTestId(row: T): string;
  onEnd?(): void;
  loading?: boolean;
  /** Shown when the list is empty and loaded. */
  empty?: string;
}

/**
 * On a phone each row is a card: one line per column, its header on the left (the cell's
 * `data-label`), the actions last. The table's elements and roles stay.
 */
export const STACKED = {
  '& thead': { display: 'none' },
  '& tr': { display: 'block', borderBottom: 1, borderColor: 'divider', py: 0.5 },
  '& td': {
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'space-between',
    gap: 2,
    border: 0,
    py: 0.5,
    textAlign: 'right',
    overflowWrap: 'anywhere',
  },
  '& td[data-label]::before': {
    content: 'attr(data-label)',
    color: 'text.secondary',
    textAlign: 'left',
    flexShrink: 0,
  },
  '& td[data-actions]': { justifyContent: 'flex-end' },
} as const;

/**
 * The admin table: a sticky header, one row per record, a last column of row actions that stays
 * pinned at the right edge (a card per row on a phone), the next page asked for near the bottom
 * (admin §9).
 */
export function ResourceTable<T extends { id: number }>({
  label,
  rows,
  columns,
  actions = [],
  rowTestId,
  onEnd,
  loading = false,
  empty,
}: Props<T>) {
  const { t } = useTranslation();
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  return (
    <ScrollPaper onEnd={onEnd} stickyActions={actions.length > 0 && !phone}>
      <Table size="small" stickyHeader aria-label={label} sx={phone ? STACKED : undefined}>
        <TableHead>
          <TableRow>
            {columns.map((c) => (
              <TableCell key={c.key} align={c.align} padding={c.padding}>
                {c.label}
              </TableCell>
            ))}
            {actions.length > 0 && <TableCell align="center">{t('admin.actions')}</TableCell>}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row) => (
            <TableRow key={row.id} data-testid={rowTestId(row)}>
              {columns.map((c) => (
                <TableCell
                  key={c.key}
                  align={c.align}
                  padding={c.padding}
                  sx={c.cellSx}
                  data-label={typeof c.label === 'string' && c.label ? c.label : undefined}
                >
                  {c.render(row)}
                </TableCell>
              ))}
              {actions.length > 0 && (
                <TableCell align="center" sx={{ whiteSpace: 'nowrap' }} data-actions>
                  {actions
                    .filter((a) => a.show?.(row) ?? true)
                    .map((a) => (
                      <IconButton
                        key={a.key}
                        size="small"
                        aria-label={a.label}
                        onClick={() => a.onClick(row)}
                      >
                        {a.icon}
                      </IconButton>
                    ))}
                </TableCell>
              )}
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {loading && <LinearProgress aria-label={t('admin.loading')} />}
      {!loading && rows.length === 0 && empty && (
        <Typography sx={{ p: 2 }} color="text.secondary">
          {empty}
        </Typography>
      )}
    </ScrollPaper>
  );
}

/** A centred column with a green check where `on(row)` (the default connection, a global reply). */
export function checkColumn<T>(key: string, label: string, on: (row: T) => boolean): Column<T> {
  return {
    key,
    label,
    align: 'center',
    render: (row) => on(row) && <CheckCircle color="success" aria-label={label} />,
  };
}
