import type { ConnectionStatusName } from '@atende/shared';
import CheckCircle from '@mui/icons-material/CheckCircle';
import CropFree from '@mui/icons-material/CropFree';
import PhonelinkLock from '@mui/icons-material/PhonelinkLock';
import SignalCellularConnectedNoInternet0Bar from '@mui/icons-material/SignalCellularConnectedNoInternet0Bar';
import SignalCellularConnectedNoInternet2Bar from '@mui/icons-material/SignalCellularConnectedNoInternet2Bar';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import { useTranslation } from 'react-i18next';
import { sessionButtons, statusIcon, type SessionButton } from './status';
import './i18n';

/** The status column: one icon per status (admin §2), its name as the tooltip. */
export function StatusIcon({ status }: { status: ConnectionStatusName }) {
  const { t } = useTranslation();
  const kind = statusIcon(status);
  const label = t(`connections.statusLabel.${status}`);
  const icon =
    kind === 'spinner' ? (
      <CircularProgress size={20} aria-label={label} />
    ) : kind === 'connected' ? (
      <CheckCircle color="success" aria-label={label} />
    ) : kind === 'qrcode' ? (
      <CropFree aria-label={label} />
    ) : kind === 'pairing' ? (
      <PhonelinkLock aria-label={label} />
    ) : kind === 'timeout' ? (
      <SignalCellularConnectedNoInternet2Bar color="error" aria-label={label} />
    ) : (
      <SignalCellularConnectedNoInternet0Bar color="error" aria-label={label} />
    );
  return (
    <Tooltip title={label}>
      <span data-testid="connection-status" data-status={status}>
        {icon}
      </span>
    </Tooltip>
  );
}

const LABEL: Record<SessionButton, string> = {
  qrcode: 'connections.qrcode',
  tryAgain: 'connections.tryAgain',
  newQr: 'connections.newQr',
  disconnect: 'connections.disconnect',
  connecting: 'connections.connecting',
};

/** The session buttons of a status; `connecting` is shown disabled. */
export function SessionButtons({
  status,
  onAction,
}: {
  status: ConnectionStatusName;
  onAction(button: SessionButton): void;
}) {
  const { t } = useTranslation();
  return (
    <Stack direction="row" spacing={1} sx={{ justifyContent: 'center' }}>
      {sessionButtons(status).map((button) => (
        <Button
          key={button}
          size="small"
          variant={button === 'disconnect' ? 'outlined' : 'contained'}
          color={button === 'disconnect' ? 'secondary' : 'primary'}
          disabled={button === 'connecting'}
          startIcon={button === 'connecting' ? <CircularProgress size={14} /> : undefined}
          onClick={() => onAction(button)}
        >
          {t(LABEL[button])}
        </Button>
      ))}
    </Stack>
  );
}
