import Check from '@mui/icons-material/Check';
import ContentCopy from '@mui/icons-material/ContentCopy';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import QRCode from 'qrcode';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatBRL } from './format';
import './i18n';

/** The copy-code button goes back to 'Copiar código' this long after a copy (admin §9). */
export const COPY_RESET_MS = 1000;

/** The QR image of a BR Code, drawn here from the code (nothing leaves the machine). */
function useQrImage(code: string): string | null {
  const [image, setImage] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    QRCode.toDataURL(code, { errorCorrectionLevel: 'M', margin: 2, width: 240 })
      .then((url) => live && setImage(url))
      .catch(() => live && setImage(null));
    return () => {
      live = false;
    };
  }, [code]);
  return image;
}

/** The Pix screen: the amount, the QR, the copy-and-paste code and its copy button. */
export function PixScreen({ value, code }: { value: string; code: string }) {
  const { t } = useTranslation();
  const image = useQrImage(code);
  const [copied, setCopied] = useState(false);

  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPY_RESET_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(code);
    } catch {
      // The field below stays selectable: the user can copy it by hand.
    }
    setCopied(true);
  };

  return (
    <Stack spacing={2} sx={{ alignItems: 'center', textAlign: 'center' }} data-testid="pix-screen">
      <Typography variant="h6">{t('checkout.pix.title')}</Typography>
      <Typography data-testid="pix-value">
        {t('checkout.pix.value', { value: formatBRL(value) })}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {t('checkout.pix.scan')}
      </Typography>
      {image ? (
        <img
          src={image}
          alt={t('checkout.pix.qrAlt')}
          width={240}
          height={240}
          style={{ maxWidth: '100%', height: 'auto', background: '#fff' }}
        />
      ) : (
        <div style={{ width: 240, height: 240 }} aria-hidden />
      )}
      <TextField
        label={t('checkout.pix.code')}
        value={code}
        fullWidth
        multiline
        maxRows={4}
        slotProps={{ htmlInput: { readOnly: true, 'data-testid': 'pix-code' } }}
      />
      <Button
        variant="contained"
        color={copied ? 'success' : 'primary'}
        startIcon={copied ? <Check /> : <ContentCopy />}
        onClick={() => void copy()}
      >
        {copied ? t('checkout.pix.copied') : t('checkout.pix.copy')}
      </Button>
      <Typography variant="body2" color="text.secondary">
        {t('checkout.pix.waiting')}
      </Typography>
    </Stack>
  );
}
