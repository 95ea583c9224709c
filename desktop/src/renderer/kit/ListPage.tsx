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
  title: string;
  /** The rows; the row type is read from here alone. */
  list: ResourceList<T>;
  columns: readonly Column<NoInfer<T>>[];
  rowTestId(row: NoInfer<T>): string;
  /** The search box's text (default 'Pesquisar'). */
  searchLabel?: string;
  /** The add button's text; none: no add button. */
  addLabel?: string;
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
  /** The confirm-delete title of a row (admin §8 asks the question under it) and the done text. */
  deleteTitle(row: NoInfer<T>): string;
  deleteMessage?: string;
  deleted: string;
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
  const { list, dialog, canManage = () => true, editable = true, deletable = true } = props;
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
        title={props.title}
        search={list.searchable ? list.search : undefined}
        onSearch={list.searchable ? list.setSearch : undefined}
        searchLabel={props.searchLabel}
      >
        {props.buttons}
        {dialog && props.addLabel && (
          <Button
            variant="contained"
            onClick={() => {
              setEditing(null);
              setOpen(true);
            }}
          >
            {props.addLabel}
          </Button>
        )}
      </PageHeader>
      {props.banner}
      <ResourceTable
        label={props.title}
        rows={list.items}
        columns={props.columns}
        actions={actions}
        rowTestId={props.rowTestId}
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
        title={deleting ? props.deleteTitle(deleting) : ''}
        message={props.deleteMessage}
        onClose={() => setDeleting(null)}
        onConfirm={() => deleting && list.destroy(deleting.id, props.deleted)}
      />
      {props.children}
    </PageFrame>
  );
}
