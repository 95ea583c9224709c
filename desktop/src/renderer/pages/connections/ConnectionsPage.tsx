import { can } from '@atende/shared';
import ReportProblemOutlined from '@mui/icons-material/ReportProblemOutlined';
import Button from '@mui/material/Button';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import { checkColumn, ConfirmDialog, ListPage, type Column } from '../../kit';
import { useSession } from '../../session/store';
import { toast } from '../../ui/toast';
import { useErrorToast } from '../../ui/useErrorToast';
import { ConnectionModal } from './ConnectionModal';
import { DeadLettersDialog } from './DeadLettersDialog';
import { QrCodeModal } from './QrCodeModal';
import { SessionButtons, StatusIcon } from './SessionCells';
import { formatUpdatedAt, type SessionButton } from './status';
import type { Connection } from './types';
import { useConnections, useSimulatorAvailable } from './useConnections';
import './i18n';

/** Connections page (admin §2): the company's WhatsApp numbers and their sessions. */
export default function ConnectionsPage() {
  const { t } = useTranslation();
  const showError = useErrorToast();
  const profile = useSession((s) => s.user?.profile ?? 'user');
  const { list, pairingCodes } = useConnections();
  const canAdd = can(profile, 'connections-page:addConnection');
  const canAct = can(profile, 'connections-page:actionButtons');
  const canEdit = can(profile, 'connections-page:editOrDeleteConnection');
  const simulator = useSimulatorAvailable(canAdd || canEdit);
  const [qrId, setQrId] = useState<number | null>(null);
  const [disconnecting, setDisconnecting] = useState<Connection | null>(null);
  const [lettersOf, setLettersOf] = useState<Connection | null>(null);
  const closeLetters = useCallback(() => setLettersOf(null), []);
  const qrConnection = list.items.find((c) => c.id === qrId) ?? null;
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
      if (button === 'disconnect') return setDisconnecting(connection);
      if (button === 'tryAgain') await api.post(`/whatsappsession/${connection.id}`);
      if (button === 'newQr') {
        await api.put(`/whatsappsession/${connection.id}`);
        setQrId(connection.id);
      }
    } catch (error) {
      showError(error);
    }
  };

  const disconnect = async (connection: Connection) => {
    try {
      await api.delete(`/whatsappsession/${connection.id}`);
    } catch (error) {
      showError(error);
    }
  };

  const columns: Column<Connection>[] = [
    { key: 'name', label: t('connections.name'), render: (c) => c.name },
    { key: 'number', label: t('connections.number'), render: (c) => c.number ?? '' },
    {
      key: 'status',
      label: t('connections.status'),
      align: 'center',
      render: (c) => <StatusIcon status={c.status} />,
    },
    ...(canAct
      ? [
          {
            key: 'session',
            label: t('connections.session'),
            align: 'center' as const,
            render: (c: Connection) => (
              <SessionButtons status={c.status} onAction={(b) => void session(c, b)} />
            ),
          },
        ]
      : []),
    {
      key: 'updatedAt',
      label: t('connections.lastUpdate'),
      align: 'center',
      render: (c) => formatUpdatedAt(c.updatedAt),
    },
    checkColumn('default', t('connections.default'), (c) => c.isDefault),
  ];

  return (
    <ListPage
      texts="connections"
      list={list}
      columns={columns}
      testId="connection"
      buttons={
        canAct && (
          <Button variant="outlined" onClick={() => void restart()}>
            {t('connections.restart')}
          </Button>
        )
      }
      addable={canAdd}
      editable={canEdit}
      deletable={canEdit}
      trailingActions={
        canEdit
          ? [
              {
                key: 'deadLetters',
                label: t('connections.deadLetters.open'),
                icon: <ReportProblemOutlined />,
                onClick: setLettersOf,
              },
            ]
          : []
      }
      dialog={(props) => <ConnectionModal {...props} simulator={simulator} />}
      // A new connection shows its QR code at once.
      onSaved={(saved, added) => added && setQrId(saved.id)}
    >
      <QrCodeModal
        connection={qrConnection}
        pairingCode={qrId === null ? undefined : pairingCodes[qrId]}
        onClose={closeQr}
      />
      <DeadLettersDialog connection={lettersOf} onClose={closeLetters} />
      <ConfirmDialog
        open={disconnecting !== null}
        title={t('connections.disconnectTitle')}
        message={t('connections.disconnectMessage')}
        onClose={() => setDisconnecting(null)}
        onConfirm={() => disconnecting && void disconnect(disconnecting)}
      />
    </ListPage>
  );
}
