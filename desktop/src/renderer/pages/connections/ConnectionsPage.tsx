import { can } from '@atende/shared';
import CheckCircle from '@mui/icons-material/CheckCircle';
import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import Edit from '@mui/icons-material/Edit';
import ReportProblemOutlined from '@mui/icons-material/ReportProblemOutlined';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import { useSession } from '../../session/store';
import { toast } from '../../ui/toast';
import { useErrorToast } from '../../ui/useErrorToast';
import { ConfirmDialog } from '../../kit/ConfirmDialog';
import { PageHeader } from '../../kit/PageHeader';
import { PageFrame, ScrollPaper } from '../../kit/ScrollPaper';
import { ConnectionModal } from './ConnectionModal';
import { DeadLettersDialog } from './DeadLettersDialog';
import { QrCodeModal } from './QrCodeModal';
import { SessionButtons, StatusIcon } from './SessionCells';
import { formatUpdatedAt, type SessionButton } from './status';
import type { Connection } from './types';
import { useConnections, useSimulatorAvailable } from './useConnections';
import './i18n';

type Confirm = { kind: 'delete' | 'disconnect'; connection: Connection } | null;

/** Connections page (admin §2): the company's WhatsApp numbers and their sessions. */
export default function ConnectionsPage() {
  const { t } = useTranslation();
  const showError = useErrorToast();
  const profile = useSession((s) => s.user?.profile ?? 'user');
  const { connections, pairingCodes, replace, drop } = useConnections();
  const canAdd = can(profile, 'connections-page:addConnection');
  const canAct = can(profile, 'connections-page:actionButtons');
  const canEdit = can(profile, 'connections-page:editOrDeleteConnection');
  const simulator = useSimulatorAvailable(canAdd || canEdit);
  const [editing, setEditing] = useState<Connection | null>(null);
  const [modalOpen, setModalOpen] = useState(false);
  const [qrId, setQrId] = useState<number | null>(null);
  const [confirm, setConfirm] = useState<Confirm>(null);
  const [lettersOf, setLettersOf] = useState<Connection | null>(null);
  const closeLetters = useCallback(() => setLettersOf(null), []);
  const qrConnection = connections.find((c) => c.id === qrId) ?? null;
  const closeQr = useCallback(() => setQrId(null), []);

  const restart = async () => {
    try {
      await api.post('/whatsapp-restart/');
      toast.warning(t('connections.restarting'));
    } catch (error) {
      showError(error);
    }
  };

  const session = async (connection: Connection, button: SessionButton) => {
    try {
      if (button === 'qrcode') return setQrId(connection.id);
      if (button === 'disconnect') return setConfirm({ kind: 'disconnect', connection });
      if (button === 'tryAgain') await api.post(`/whatsappsession/${connection.id}`);
      if (button === 'newQr') {
        await api.put(`/whatsappsession/${connection.id}`);
        setQrId(connection.id);
      }
    } catch (error) {
      showError(error);
    }
  };

  const confirmed = async () => {
    if (!confirm) return;
    const { kind, connection } = confirm;
    try {
      if (kind === 'disconnect') {
        await api.delete(`/whatsappsession/${connection.id}`);
      } else {
        await api.delete(`/whatsapp/${connection.id}`);
        drop(connection.id);
        toast.success(t('connections.deleted'));
      }
    } catch (error) {
      showError(error);
    }
  };

  return (
    <PageFrame>
      <PageHeader title={t('connections.title')}>
        {canAct && (
          <Button variant="outlined" onClick={restart}>
            {t('connections.restart')}
          </Button>
        )}
        {canAdd && (
          <Button
            variant="contained"
            onClick={() => {
              setEditing(null);
              setModalOpen(true);
            }}
          >
            {t('connections.add')}
          </Button>
        )}
      </PageHeader>
      <ScrollPaper>
        <Table size="small" stickyHeader aria-label={t('connections.title')}>
          <TableHead>
            <TableRow>
              <TableCell>{t('connections.name')}</TableCell>
              <TableCell>{t('connections.number')}</TableCell>
              <TableCell align="center">{t('connections.status')}</TableCell>
              {canAct && <TableCell align="center">{t('connections.session')}</TableCell>}
              <TableCell align="center">{t('connections.lastUpdate')}</TableCell>
              <TableCell align="center">{t('connections.default')}</TableCell>
              {canEdit && <TableCell align="center">{t('admin.actions')}</TableCell>}
            </TableRow>
          </TableHead>
          <TableBody>
            {connections.map((c) => (
              <TableRow key={c.id} data-testid={`connection-${c.id}`}>
                <TableCell>{c.name}</TableCell>
                <TableCell>{c.number ?? ''}</TableCell>
                <TableCell align="center">
                  <StatusIcon status={c.status} />
                </TableCell>
                {canAct && (
                  <TableCell align="center">
                    <SessionButtons status={c.status} onAction={(b) => session(c, b)} />
                  </TableCell>
                )}
                <TableCell align="center">{formatUpdatedAt(c.updatedAt)}</TableCell>
                <TableCell align="center">
                  {c.isDefault && (
                    <CheckCircle color="success" aria-label={t('connections.default')} />
                  )}
                </TableCell>
                {canEdit && (
                  <TableCell align="center">
                    <IconButton
                      size="small"
                      aria-label={t('common.edit')}
                      onClick={() => {
                        setEditing(c);
                        setModalOpen(true);
                      }}
                    >
                      <Edit />
                    </IconButton>
                    <IconButton
                      size="small"
                      aria-label={t('common.delete')}
                      onClick={() => setConfirm({ kind: 'delete', connection: c })}
                    >
                      <DeleteOutline />
                    </IconButton>
                    <IconButton
                      size="small"
                      aria-label={t('connections.deadLetters.open')}
                      onClick={() => setLettersOf(c)}
                    >
                      <ReportProblemOutlined />
                    </IconButton>
                  </TableCell>
                )}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </ScrollPaper>
      <ConnectionModal
        open={modalOpen}
        connection={editing}
        simulator={simulator}
        onClose={() => setModalOpen(false)}
        onSaved={(saved) => {
          replace(saved);
          if (!editing) setQrId(saved.id);
        }}
      />
      <QrCodeModal
        connection={qrConnection}
        pairingCode={qrId === null ? undefined : pairingCodes[qrId]}
        onClose={closeQr}
      />
      <DeadLettersDialog connection={lettersOf} onClose={closeLetters} />
      <ConfirmDialog
        open={Boolean(confirm)}
        title={
          confirm?.kind === 'disconnect'
            ? t('connections.disconnectTitle')
            : t('connections.deleteTitle', { name: confirm?.connection.name ?? '' })
        }
        message={confirm?.kind === 'disconnect' ? t('connections.disconnectMessage') : undefined}
        onClose={() => setConfirm(null)}
        onConfirm={confirmed}
      />
    </PageFrame>
  );
}
