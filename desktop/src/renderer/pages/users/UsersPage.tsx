import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import Edit from '@mui/icons-material/Edit';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { User } from '../../api/types';
import { ConfirmDialog } from '../../kit/ConfirmDialog';
import { PageHeader } from '../../kit/PageHeader';
import { PageFrame, ScrollPaper } from '../../kit/ScrollPaper';
import { usePagedList } from '../../kit/usePagedList';
import { UserModal } from './UserModal';
import './i18n';

/** Users page (admin §2): search, add, table of id, name, e-mail, profile and actions. */
export default function UsersPage() {
  const { t } = useTranslation();
  const list = usePagedList<User>('/users/', {
    rows: 'users',
    event: 'user',
    item: 'user',
    id: 'userId',
  });
  const [editing, setEditing] = useState<User | null>(null);
  const [open, setOpen] = useState(false);
  const [deleting, setDeleting] = useState<User | null>(null);

  return (
    <PageFrame>
      <PageHeader title={t('users.title')} search={list.search} onSearch={list.setSearch}>
        <Button
          variant="contained"
          onClick={() => {
            setEditing(null);
            setOpen(true);
          }}
        >
          {t('users.add')}
        </Button>
      </PageHeader>
      <ScrollPaper onEnd={list.loadMore}>
        <Table size="small" stickyHeader aria-label={t('users.title')}>
          <TableHead>
            <TableRow>
              <TableCell align="center">{t('users.id')}</TableCell>
              <TableCell>{t('users.name')}</TableCell>
              <TableCell>{t('users.email')}</TableCell>
              <TableCell align="center">{t('users.profile')}</TableCell>
              <TableCell align="center">{t('admin.actions')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {list.items.map((u) => (
              <TableRow key={u.id} data-testid={`user-${u.id}`}>
                <TableCell align="center">{u.id}</TableCell>
                <TableCell>{u.name}</TableCell>
                <TableCell>{u.email}</TableCell>
                <TableCell align="center">{t(`users.profiles.${u.profile}`)}</TableCell>
                <TableCell align="center">
                  <IconButton
                    size="small"
                    aria-label={t('common.edit')}
                    onClick={() => {
                      setEditing(u);
                      setOpen(true);
                    }}
                  >
                    <Edit />
                  </IconButton>
                  <IconButton
                    size="small"
                    aria-label={t('common.delete')}
                    onClick={() => setDeleting(u)}
                  >
                    <DeleteOutlined />
                  </IconButton>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </ScrollPaper>
      <UserModal open={open} user={editing} onClose={() => setOpen(false)} onSaved={list.upsert} />
      <ConfirmDialog
        open={Boolean(deleting)}
        title={t('users.deleteTitle', { name: deleting?.name ?? '' })}
        onClose={() => setDeleting(null)}
        onConfirm={() => deleting && list.destroy(deleting.id, t('users.deleted'))}
      />
    </PageFrame>
  );
}
