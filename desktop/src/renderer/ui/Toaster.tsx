import Alert from '@mui/material/Alert';
import Snackbar from '@mui/material/Snackbar';
import { TOAST_DURATION_MS, useToasts } from './toast';

/** Shows the oldest toast; the next one appears when it closes. */
export function Toaster() {
  const current = useToasts((s) => s.queue[0]);
  const dismiss = useToasts((s) => s.dismiss);
  if (!current) return null;
  return (
    <Snackbar
      key={current.id}
      open
      autoHideDuration={TOAST_DURATION_MS}
      onClose={(_, reason) => reason !== 'clickaway' && dismiss(current.id)}
      anchorOrigin={{ vertical: 'top', horizontal: 'right' }}
    >
      <Alert severity={current.kind} variant="filled" onClose={() => dismiss(current.id)}>
        {current.text}
      </Alert>
    </Snackbar>
  );
}
