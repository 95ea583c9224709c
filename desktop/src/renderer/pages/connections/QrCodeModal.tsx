import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Divider from '@mui/material/Divider';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import QRCode from 'qrcode';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import { useErrorToast } from '../../ui/useErrorToast';
import type { Connection } from './types';
import './i18n';

interface Props {
  connection: Connection | null;
  pairingCode?: string;
  onClose(): void;
}

/**
 * The QR code of a connection, redrawn whenever a session update brings a new one; it closes by
 * itself once the number is linked. A phone number can ask for a pairing code instead.
 */
export function QrCodeModal({ connection, pairingCode, onClose }: Props) {
  const { t } = useTranslation();
  const showError = useErrorToast();
  const [image, setImage] = useState<string | null>(null);
  const [phone, setPhone] = useState('');
  const qrcode = connection?.qrcode ?? '';
  const status = connection?.status;

  useEffect(() => {
    let live = true;
    if (!qrcode) return setImage(null);
    QRCode.toDataURL(qrcode, { width: 256, margin: 1 }).then(
      (url) => live && setImage(url),
      () => live && setImage(null),
    );
    return () => {
      live = false;
    };
  }, [qrcode]);

  useEffect(() => {
    if (status === 'CONNECTED') onClose();
  }, [status, onClose]);

  const requestCode = async () => {
    if (!connection) return;
    try {
      await api.put(`/whatsappsession/${connection.id}`, {
        pairingPhone: phone.replace(/\D/g, ''),
      });
    } catch (error) {
      showError(error);
    }
  };

  return (
    <Dialog open={Boolean(connection)} onClose={onClose} maxWidth="xs" fullWidth>
      <DialogTitle>{t('connections.qr.title')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ alignItems: 'center' }}>
          {image ? (
            <Box
              component="img"
              src={image}
              alt="QR Code"
              data-testid="qrcode-image"
              data-qrcode={qrcode}
              sx={{ width: 256, height: 256 }}
            />
          ) : (
            <Typography color="text.secondary">{t('connections.qr.waiting')}</Typography>
          )}
          <Divider flexItem />
          <Typography variant="subtitle2">{t('connections.qr.pairingTitle')}</Typography>
          <Stack direction="row" spacing={1} sx={{ width: '100%' }}>
            <TextField
              size="small"
              fullWidth
              label={t('connections.qr.pairingPhone')}
              value={phone}
              onChange={(e) => setPhone(e.target.value)}
              slotProps={{ htmlInput: { inputMode: 'tel', maxLength: 20 } }}
            />
            <Button
              variant="outlined"
              disabled={phone.replace(/\D/g, '').length < 10}
              onClick={requestCode}
            >
              {t('connections.qr.pairingRequest')}
            </Button>
          </Stack>
          {pairingCode && (
            <Box sx={{ textAlign: 'center' }}>
              <Typography variant="caption">{t('connections.qr.pairingCode')}</Typography>
              <Typography
                variant="h4"
                data-testid="pairing-code"
                sx={{ fontFamily: 'monospace', letterSpacing: 4 }}
              >
                {pairingCode.length === 8
                  ? `${pairingCode.slice(0, 4)}-${pairingCode.slice(4)}`
                  : pairingCode}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                {t('connections.qr.pairingHint')}
              </Typography>
            </Box>
          )}
        </Stack>
      </DialogContent>
    </Dialog>
  );
}
