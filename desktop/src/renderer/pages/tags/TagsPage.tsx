import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import Edit from '@mui/icons-material/Edit';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../kit/ConfirmDialog';
import { PageHeader } from '../../kit/PageHeader';
import { PageFrame, ScrollPaper } from '../../kit/ScrollPaper';
import { usePagedList } from '../../kit/usePagedList';
import { TagDialog, type Tag } from './TagDialog';
import './i18n';

/** Tags page (admin §2): search, name as a coloured chip, tickets count, actions. */
export default function TagsPage() {
  const { t } = useTranslation();
  const list = usePagedList<Tag>('/tags/', {
    rows: 'tags',
    event: 'tag',
    item: 'tag',
    id: 'tagId',
  });
  const [editing, setEditing] = useState<Tag | null>(null);
  const [open, setOpen] = useState(false);
  const [deleting, setDeleting] = useState<Tag | null>(null);

  return (
    <PageFrame>
      <PageHeader title={t('tags.title')} search={list.search} onSearch={list.setSearch}>
        <Button
          variant="contained"
          onClick={() => {
            setEditing(null);
            setOpen(true);
          }}
        >
          {t('tags.add')}
        </Button>
      </PageHeader>
      <ScrollPaper onEnd={list.loadMore}>
        <Table size="small" stickyHeader aria-label={t('tags.title')}>
          <TableHead>
            <TableRow>
              <TableCell align="center">{t('tags.name')}</TableCell>
              <TableCell align="center">{t('tags.tickets')}</TableCell>
              <TableCell align="center">{t('admin.actions')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {list.items.map((tag) => (
              <TableRow key={tag.id} data-testid={`tag-${tag.id}`}>
                <TableCell align="center">
                  <Chip
                    label={tag.name}
                    size="small"
                    sx={{ bgcolor: tag.color, color: 'common.white', textShadow: '0 0 2px #000' }}
                  />
                </TableCell>
                <TableCell align="center">{tag.ticketsCount ?? 0}</TableCell>
                <TableCell align="center">
                  <IconButton
                    size="small"
                    aria-label={t('common.edit')}
                    onClick={() => {
                      setEditing(tag);
                      setOpen(true);
                    }}
                  >
                    <Edit />
                  </IconButton>
                  <IconButton
                    size="small"
                    aria-label={t('common.delete')}
                    onClick={() => setDeleting(tag)}
                  >
                    <DeleteOutlined />
                  </IconButton>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </ScrollPaper>
      <TagDialog open={open} tag={editing} onClose={() => setOpen(false)} onSaved={list.upsert} />
      <ConfirmDialog
        open={Boolean(deleting)}
        title={t('tags.deleteTitle', { name: deleting?.name ?? '' })}
        onClose={() => setDeleting(null)}
        onConfirm={() => deleting && list.destroy(deleting.id, t('tags.deleted'))}
      />
    </PageFrame>
  );
}
