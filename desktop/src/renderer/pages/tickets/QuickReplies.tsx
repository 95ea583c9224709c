import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import {
  quickMessageEndpoints,
  quickMessageLabel,
  wantsQuickMessages,
  type QuickMessageAnswer,
} from '@atende/shared';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import { useSession } from '../../session/store';
import { useErrorToast } from '../../ui/useErrorToast';

/** A quick message as the input uses it (secondary §3): shortcode, text and its file. */
export type QuickMessage = Pick<QuickMessageAnswer, 'shortcode' | 'message'> &
  Partial<Pick<QuickMessageAnswer, 'id' | 'mediaPath' | 'mediaName' | 'mediaUrl'>>;

/** The quick messages whose shortcode starts with what follows the '/'. */
export function matchQuickMessages(list: readonly QuickMessage[], input: string): QuickMessage[] {
  if (!wantsQuickMessages(input)) return [];
  const typed = input.slice(1).toLowerCase();
  return list.filter((q) => q.shortcode.toLowerCase().startsWith(typed));
}

/** Suggestions above the input when it starts with / and has more than 1 character (core §2). */
export function QuickReplies({ input, onPick }: { input: string; onPick(q: QuickMessage): void }) {
  const { t } = useTranslation();
  const showError = useErrorToast();
  const user = useSession((s) => s.user);
  const [list, setList] = useState<QuickMessage[] | null>(null);
  const active = wantsQuickMessages(input);

  // Loaded the first time the user types a shortcut, then kept while the ticket is open.
  useEffect(() => {
    if (!active || list || !user) return;
    api
      .call(quickMessageEndpoints.quickMessageList, {
        query: { companyId: user.companyId, userId: user.id },
      })
      .then(setList)
      .catch((error: unknown) => (showError(error), setList([])));
  }, [active, list, user, showError]);

  const matches = matchQuickMessages(list ?? [], input);
  if (!matches.length) return null;
  return (
    <Paper elevation={3} sx={{ maxHeight: 240, overflowY: 'auto', mb: 1 }}>
      <List dense aria-label={t('messages.quickReplies')}>
        {matches.map((q) => (
          <ListItemButton key={q.id ?? q.shortcode} onClick={() => onPick(q)}>
            <ListItemText
              primary={`${q.shortcode} - ${quickMessageLabel(q.message)}`}
              secondary={q.mediaName ?? undefined}
            />
          </ListItemButton>
        ))}
      </List>
    </Paper>
  );
}
