import { chatEndpoints, type ChatAnswer } from '@atende/shared';
import Autocomplete from '@mui/material/Autocomplete';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import { useSession } from '../../session/store';
import { useErrorToast } from '../../ui/useErrorToast';
import { chatFormProblem, NARROW_MAX_PX } from './rules';
import './i18n';

interface UserOption {
  id: number;
  name: string;
}

interface Props {
  open: boolean;
  /** The chat being edited (its owner only), or null to create one. */
  chat: ChatAnswer | null;
  onClose(): void;
  onSaved(chat: ChatAnswer): void;
}

/**
 * Create or edit a chat: a title and at least one other user. The two problems are browser
 * alerts with the spec's texts (secondary §5), and nothing is sent.
 */
export function ChatDialog({ open, chat, onClose, onSaved }: Props) {
  const { t } = useTranslation();
  const me = useSession((s) => s.user?.id);
  const showError = useErrorToast();
  const narrow = useMediaQuery(`(max-width:${NARROW_MAX_PX - 0.05}px)`);
  const [title, setTitle] = useState('');
  const [users, setUsers] = useState<UserOption[]>([]);
  const [options, setOptions] = useState<UserOption[]>([]);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (!open) return;
    setTitle(chat?.title ?? '');
    setUsers(chat ? chat.users.filter((u) => u.userId !== me).map((u) => u.user) : []);
    api
      .get<UserOption[]>('/users/list')
      .then((list) => setOptions(list.filter((u) => u.id !== me)))
      .catch(() => setOptions([]));
  }, [open, chat, me]);

  const save = async () => {
    const problem = chatFormProblem(
      title,
      users.map((u) => u.id),
    );
    if (problem) {
      window.alert(problem);
      return;
    }
    setSaving(true);
    try {
      const body = { title: title.trim(), users: users.map((u) => ({ id: u.id, name: u.name })) };
      const saved = chat
        ? await api.call(chatEndpoints.updateChat, { params: { id: chat.id }, body })
        : await api.call(chatEndpoints.createChat, { body });
      onSaved(saved);
      onClose();
    } catch (error) {
      showError(error);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" fullScreen={narrow}>
      <DialogTitle>{t(chat ? 'chats.dialog.editTitle' : 'chats.dialog.addTitle')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <TextField
            label={t('chats.dialog.title')}
            value={title}
            onChange={(e) => setTitle(e.target.value)}
            autoFocus
            fullWidth
            slotProps={{ htmlInput: { 'data-testid': 'chat-title', maxLength: 255 } }}
          />
          <Autocomplete
            multiple
            options={options}
            value={users}
            onChange={(_, value) => setUsers(value)}
            getOptionLabel={(u) => u.name}
            isOptionEqualToValue={(a, b) => a.id === b.id}
            renderInput={(params) => <TextField {...params} label={t('chats.dialog.users')} />}
            data-testid="chat-users"
          />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('chats.dialog.cancel')}</Button>
        <Button variant="contained" onClick={save} disabled={saving} data-testid="chat-save">
          {t('chats.dialog.save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
