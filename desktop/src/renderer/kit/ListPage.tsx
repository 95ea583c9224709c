import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import Edit from '@mui/icons-material/Edit';
import Button from '@mui/material/Button';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from './ConfirmDialog';
import { PageHeader } from './PageHeader';
import { ResourceTable, type Column, type RowAction } from './ResourceTable';
import { PageFrame } from './ScrollPaper';
import type { ResourceList } from './useResourceList';
import './i18n';

/** What a list page's add/edit dialog gets: `record` is null when adding. */
export interface RecordDialogProps<T> {
  open: boolean;
  record: T | null;
  onClose(): void;
  onSaved(saved: T): void;
}

interface Props<T extends { id: number }> {
  /**
   * The page's i18n bundle: `{texts}.title`, `.add` (the add button), `.deleteTitle` (the
   * confirm-delete title, `Excluir a tag {{name}}?`) and `.deleted`.
   */
  texts: string;
  /** The title when it is not `{texts}.title` alone (a count in it). */
  title?: string;
  /** The row's `{{name}}` in the delete title; default its `name`. */
  rowName?(row: NoInfer<T>): string;
  /** The rows; the row type is read from here alone. */
  list: ResourceList<T>;
  columns: readonly Column<NoInfer<T>>[];
  /** A row's `data-testid` is `{testId}-{id}`. */
  testId: string;
  /** The search box's text (default 'Pesquisar'). */
  searchLabel?: string;
  /** Whether the add button shows (a permission); default yes, when there is a dialog. */
  addable?: boolean;
  /** Buttons before the add button (restart, import, export). */
  buttons?: ReactNode;
  /** Row actions before edit and delete (open a ticket). */
  leadingActions?: readonly RowAction<NoInfer<T>>[];
  /** Row actions after edit and delete (dead letters). */
  trailingActions?: readonly RowAction<NoInfer<T>>[];
  /** Which rows the user may edit and delete; default all. */
  canManage?(row: NoInfer<T>): boolean;
  /** Whether the edit and delete actions are offered at all (permissions); default yes. */
  editable?: boolean;
  deletable?: boolean;
  /** The confirm-delete question (default admin §8's 'Deseja realmente excluir esse registro?'). */
  deleteMessage?: string;
  /** The add/edit dialog; without it there is no add button nor edit action. */
  dialog?(props: RecordDialogProps<NoInfer<T>>): ReactNode;
  /** After a save, once the row is in the list; `added` when the dialog was adding. */
  onSaved?(saved: NoInfer<T>, added: boolean): void;
  /** Shown when the list is loaded and empty. */
  empty?: string;
  /** Under the header, above the table (an import's progress). */
  banner?: ReactNode;
  /** The page's other dialogs. */
  children?: ReactNode;
}

/**
 * An admin list page in one piece (admin §2, §8, §9): title, search (when the route pages),
 * buttons, the live table with edit and delete per row, the add/edit dialog and the deletion
 * question 'Deseja realmente excluir esse registro?'.
 */
export function ListPage<T extends { id: number }>(props: Props<T>) {
  const { t } = useTranslation();
  const { list, dialog, texts, canManage = () => true, editable = true, deletable = true } = props;
  const title = props.title ?? t(`${texts}.title`);
  const rowName = props.rowName ?? ((row: T) => (row as { name?: string }).name ?? '');
  const [editing, setEditing] = useState<T | null>(null);
  const [open, setOpen] = useState(false);
  const [deleting, setDeleting] = useState<T | null>(null);

  const actions: RowAction<T>[] = [
    ...(props.leadingActions ?? []),
    ...(dialog && editable
      ? [
          {
            key: 'edit',
            label: t('common.edit'),
            icon: <Edit />,
            show: canManage,
            onClick: (row: T) => {
              setEditing(row);
              setOpen(true);
            },
          },
        ]
      : []),
    ...(deletable
      ? [
          {
            key: 'delete',
            label: t('common.delete'),
            icon: <DeleteOutlined />,
            show: canManage,
            onClick: setDeleting,
          },
        ]
      : []),
    ...(props.trailingActions ?? []),
  ];

  return (
    <PageFrame>
      <PageHeader
        title={title}
        search={list.searchable ? list.search : undefined}
        onSearch={list.searchable ? list.setSearch : undefined}
        searchLabel={props.searchLabel}
      >
        {props.buttons}
        {dialog && (props.addable ?? true) && (
          <Button
            variant="contained"
            onClick={() => {
              setEditing(null);
              setOpen(true);
            }}
          >
            {t(`${texts}.add`)}
          </Button>
        )}
      </PageHeader>
      {props.banner}
      <ResourceTable
        label={title}
        rows={list.items}
        columns={props.columns}
        actions={actions}
        rowTestId={(row) => `${props.testId}-${row.id}`}
        onEnd={list.loadMore}
        loading={list.loading}
        empty={props.empty}
      />
      {dialog?.({
        open,
        record: editing,
        onClose: () => setOpen(false),
        onSaved: (saved) => {
          list.upsert(saved);
          props.onSaved?.(saved, editing === null);
        },
      })}
      <ConfirmDialog
        open={deleting !== null}
        title={deleting ? t(`${texts}.deleteTitle`, { name: rowName(deleting) }) : ''}
        message={props.deleteMessage}
        onClose={() => setDeleting(null)}
        onConfirm={() => deleting && list.destroy(deleting.id, t(`${texts}.deleted`))}
      />
      {props.children}
    </PageFrame>
  );
}
