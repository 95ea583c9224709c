import Alert from '@mui/material/Alert';
import { ERRORS } from '@atende/shared';
import { useTranslation } from 'react-i18next';
import { useRealtime } from '../session/useRealtime';
import { currentLanguage } from '../ui/useErrorToast';

/**
 * Shown above the page for as long as the server refuses this app's socket protocol
 * (ERR_PROTOCOL_VERSION): no retry helps, only an update does. The text is the error's own, in
 * the user's language.
 */
export function ProtocolBanner() {
  const { i18n } = useTranslation();
  const mismatch = useRealtime((s) => s.protocolMismatch);
  if (!mismatch) return null;
  return (
    <Alert severity="error" variant="filled" square data-testid="protocol-banner">
      {ERRORS.ERR_PROTOCOL_VERSION.text[currentLanguage(i18n.language)]}
    </Alert>
  );
}
