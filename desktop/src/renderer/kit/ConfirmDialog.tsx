import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import './i18n';

interface Props {
  open: boolean;
  title?: string;
  /** Defaults to the deletion question. */
  message?: string;
  onClose(): void;
  onConfirm(): void;
}

/** The deletion question of admin §8: 'Deseja realmente excluir esse registro?'. */
export function ConfirmDialog({ open, title, message, onClose, onConfirm }: Props) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby="confirm-title">
      <DialogTitle id="confirm-title">{title ?? t('admin.deleteTitle')}</DialogTitle>
      <DialogContent>
        <Typography>{message ?? t('admin.confirmDelete')}</Typography>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common.cancel')}</Button>
        <Button
          color="error"
          variant="contained"
          onClick={() => {
            onClose();
            onConfirm();
          }}
        >
          {t('common.confirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
