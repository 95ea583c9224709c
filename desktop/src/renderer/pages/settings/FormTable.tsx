import { zodResolver } from '@hookform/resolvers/zod';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import Edit from '@mui/icons-material/Edit';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import type { SxProps, Theme } from '@mui/material/styles';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import {
  FormProvider,
  useForm,
  type DefaultValues,
  type FieldValues,
  type Resolver,
  type UseFormReturn,
} from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { ConfirmDialog, type Column } from '../../kit';
import { toast } from '../../ui/toast';
import './i18n';

interface Props<T extends { id: number }, In extends FieldValues, Out> {
  /** `data-testid` prefix: `{testId}-form`, `{testId}-row-{id}`, `{testId}-save`... */
  testId: string;
  /** What the failure text names: 'uma empresa', 'um plano', 'uma ajuda' (admin §8). */
  what: string;
  schema: z.ZodType<Out, In>;
  /** The form's values for a new record. */
  empty: In;
  /** The form's values for a row picked from the table. */
  valuesOf(row: T): In;
  load(): Promise<T[]>;
  save(values: Out, editing: T | null): Promise<unknown>;
  remove(row: T): Promise<unknown>;
  columns: readonly Column<T>[];
  /** The fields (they read the form through `useFormContext`). */
  fields: ReactNode;
  /** More buttons beside Limpar / Excluir / Salvar ('+ Vencimento'). */
  buttons?(form: UseFormReturn<In, unknown, Out>): ReactNode;
  /** A row's background (the companies' due-date tint). */
  rowSx?(row: T): SxProps<Theme> | undefined;
}

/**
 * A super-user tab of admin §2: a form above a table of records. Picking a row loads it into the
 * form; Salvar creates or updates, Excluir asks 'Deseja realmente excluir esse registro?', Limpar
 * starts a new one. Messages of admin §8: 'Operação realizada com sucesso!', the save, delete and
 * list failures.
 */
export function FormTable<T extends { id: number }, In extends FieldValues, Out>(
  props: Props<T, In, Out>,
) {
  const { t } = useTranslation();
  const { load, empty, valuesOf } = props;
  const [rows, setRows] = useState<T[]>([]);
  const [editing, setEditing] = useState<T | null>(null);
  const [deleting, setDeleting] = useState<T | null>(null);
  const form = useForm<In, unknown, Out>({
    resolver: zodResolver(props.schema as never) as unknown as Resolver<In, unknown, Out>,
    defaultValues: empty as DefaultValues<In>,
  });

  const reload = useCallback(
    () =>
      load().then(setRows, () => {
        toast.error(t('superTabs.loadFailed'));
      }),
    [load, t],
  );
  useEffect(() => {
    void reload();
  }, [reload]);

  const clear = () => {
    setEditing(null);
    form.reset(empty);
  };
  const pick = (row: T) => {
    setEditing(row);
    form.reset(valuesOf(row));
  };

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await props.save(values, editing);
      toast.success(t('superTabs.success'));
      clear();
      await reload();
    } catch {
      toast.error(t('superTabs.saveFailed', { what: props.what }));
    }
  });

  const destroy = async (row: T) => {
    try {
      await props.remove(row);
      toast.success(t('superTabs.success'));
      if (editing?.id === row.id) clear();
      await reload();
    } catch {
      toast.error(t('superTabs.deleteFailed'));
    }
  };

  return (
    <Stack spacing={2}>
      <FormProvider {...form}>
        <form noValidate onSubmit={onSubmit} data-testid={`${props.testId}-form`}>
          <Stack spacing={2}>
            {props.fields}
            <Stack
              direction="row"
              spacing={1}
              sx={{ justifyContent: 'flex-end', flexWrap: 'wrap', rowGap: 1 }}
            >
              {props.buttons?.(form)}
              <Button onClick={clear}>{t('superTabs.clear')}</Button>
              {editing && (
                <Button color="error" variant="outlined" onClick={() => setDeleting(editing)}>
                  {t('common.delete')}
                </Button>
              )}
              <Button
                type="submit"
                variant="contained"
                disabled={form.formState.isSubmitting}
                data-testid={`${props.testId}-save`}
              >
                {t('common.save')}
              </Button>
            </Stack>
          </Stack>
        </form>
      </FormProvider>
      <Paper variant="outlined" sx={{ overflowX: 'auto' }}>
        <Table size="small" aria-label={props.what} data-testid={`${props.testId}-table`}>
          <TableHead>
            <TableRow>
              <TableCell align="center">{t('admin.actions')}</TableCell>
              {props.columns.map((c) => (
                <TableCell key={c.key} align={c.align} sx={{ whiteSpace: 'nowrap' }}>
                  {c.label}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((row) => (
              <TableRow
                key={row.id}
                data-testid={`${props.testId}-row-${row.id}`}
                selected={editing?.id === row.id}
                sx={props.rowSx?.(row)}
              >
                <TableCell align="center" sx={{ whiteSpace: 'nowrap' }}>
                  <IconButton size="small" aria-label={t('common.edit')} onClick={() => pick(row)}>
                    <Edit fontSize="small" />
                  </IconButton>
                  <IconButton
                    size="small"
                    aria-label={t('common.delete')}
                    onClick={() => setDeleting(row)}
                  >
                    <DeleteOutlined fontSize="small" />
                  </IconButton>
                </TableCell>
                {props.columns.map((c) => (
                  <TableCell key={c.key} align={c.align} sx={c.cellSx}>
                    {c.render(row)}
                  </TableCell>
                ))}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Paper>
      <ConfirmDialog
        open={deleting !== null}
        onClose={() => setDeleting(null)}
        onConfirm={() => deleting && void destroy(deleting)}
      />
    </Stack>
  );
}
