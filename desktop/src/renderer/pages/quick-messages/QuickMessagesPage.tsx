import CheckCircle from '@mui/icons-material/CheckCircle';
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
import { useSession } from '../../session/store';
import { ConfirmDialog } from '../../kit/ConfirmDialog';
import { PageHeader } from '../../kit/PageHeader';
import { PageFrame, ScrollPaper } from '../../kit/ScrollPaper';
import { usePagedList } from '../../kit/usePagedList';
import { QuickMessageDialog } from './QuickMessageDialog';
import { canManage, type QuickMessage } from './rules';
import './i18n';

/** Quick messages page (secondary §2): shortcode, media name or 'Sem anexo', general icon. */
export default function QuickMessagesPage() {
  const { t } = useTranslation();
  const me = useSession((s) => s.user);
  const list = usePagedList<QuickMessage>('/quick-messages', {
    rows: 'records',
    event: 'quickmessage',
    item: 'record',
    id: 'id',
  });
  const [editing, setEditing] = useState<QuickMessage | null>(null);
  const [open, setOpen] = useState(false);
  const [deleting, setDeleting] = useState<QuickMessage | null>(null);

  return (
    <PageFrame>
      <PageHeader title={t('quickMessages.title')} search={list.search} onSearch={list.setSearch}>
        <Button
          variant="contained"
          onClick={() => {
            setEditing(null);
            setOpen(true);
          }}
        >
          {t('quickMessages.add')}
        </Button>
      </PageHeader>
      <ScrollPaper onEnd={list.loadMore}>
        <Table size="small" stickyHeader aria-label={t('quickMessages.title')}>
          <TableHead>
            <TableRow>
              <TableCell>{t('quickMessages.shortcode')}</TableCell>
              <TableCell>{t('quickMessages.media')}</TableCell>
              <TableCell align="center">{t('quickMessages.geral')}</TableCell>
              <TableCell align="center">{t('admin.actions')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {list.items.map((q) => {
              const manage = me ? canManage(me.profile, me.id, q) : false;
              return (
                <TableRow key={q.id} data-testid={`quick-message-${q.id}`}>
                  <TableCell>{q.shortcode}</TableCell>
                  <TableCell>{q.mediaName ?? t('quickMessages.noMedia')}</TableCell>
                  <TableCell align="center">
                    {q.geral && (
                      <CheckCircle color="success" aria-label={t('quickMessages.geral')} />
                    )}
                  </TableCell>
                  <TableCell align="center">
                    {manage && (
                      <>
                        <IconButton
                          size="small"
                          aria-label={t('common.edit')}
                          onClick={() => {
                            setEditing(q);
                            setOpen(true);
                          }}
                        >
                          <Edit />
                        </IconButton>
                        <IconButton
                          size="small"
                          aria-label={t('common.delete')}
                          onClick={() => setDeleting(q)}
                        >
                          <DeleteOutlined />
                        </IconButton>
                      </>
                    )}
                  </TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      </ScrollPaper>
      <QuickMessageDialog
        open={open}
        record={editing}
        onClose={() => setOpen(false)}
        onSaved={list.upsert}
      />
      <ConfirmDialog
        open={Boolean(deleting)}
        title={t('quickMessages.deleteTitle', { shortcode: deleting?.shortcode ?? '' })}
        onClose={() => setDeleting(null)}
        onConfirm={() => deleting && list.destroy(deleting.id, t('quickMessages.deleted'))}
      />
    </PageFrame>
  );
}
