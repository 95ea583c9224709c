import CheckCircle from '@mui/icons-material/CheckCircle';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import type { SxProps, Theme } from '@mui/material/styles';
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
 * The admin table: a sticky header, one row per record, a last column of row actions that stays
 * pinned at the right edge on a phone, the next page asked for near the bottom (admin §9).
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
  return (
    <ScrollPaper onEnd={onEnd} stickyActions={actions.length > 0}>
      <Table size="small" stickyHeader aria-label={label}>
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
                <TableCell key={c.key} align={c.align} padding={c.padding} sx={c.cellSx}>
                  {c.render(row)}
                </TableCell>
              ))}
              {actions.length > 0 && (
                <TableCell align="center" sx={{ whiteSpace: 'nowrap' }}>
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
