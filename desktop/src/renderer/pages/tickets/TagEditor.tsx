import Autocomplete from '@mui/material/Autocomplete';
import Chip from '@mui/material/Chip';
import TextField from '@mui/material/TextField';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { tagEndpoints } from '@atende/shared';
import { api } from '../../api';
import type { Tag, Ticket } from '../../api/types';
import { useErrorToast } from '../../ui/useErrorToast';
import { useLookups } from './useLookups';

/** The ticket's tags (POST /tags/sync); a typed name that is not a tag yet creates it. */
export function TagEditor({ ticket }: { ticket: Ticket }) {
  const { t } = useTranslation();
  const showError = useErrorToast();
  const { tags: loaded } = useLookups(true, ['tags']);
  const [options, setOptions] = useState<Tag[]>([]);
  const [value, setValue] = useState<Tag[]>(ticket.tags ?? []);

  useEffect(() => setOptions(loaded), [loaded]);
  useEffect(() => setValue(ticket.tags ?? []), [ticket.tags]);

  const change = async (next: (Tag | string)[]) => {
    try {
      const tags: Tag[] = [];
      for (const item of next) {
        if (typeof item !== 'string') tags.push(item);
        else if (item.trim()) {
          const created = await api.call(tagEndpoints.createTag, { body: { name: item.trim() } });
          setOptions((list) => [...list, created]);
          tags.push(created);
        }
      }
      setValue(tags);
      await api.call(tagEndpoints.syncTicketTags, {
        body: { ticketId: ticket.id, tags: tags.map((tag) => tag.id) },
      });
    } catch (error) {
      showError(error);
    }
  };

  return (
    <Autocomplete<Tag, true, false, true>
      multiple
      freeSolo
      size="small"
      options={options}
      value={value}
      getOptionLabel={(o) => (typeof o === 'string' ? o : o.name)}
      isOptionEqualToValue={(a, b) => typeof b !== 'string' && a.id === b.id}
      onChange={(_, next) => void change(next)}
      renderValue={(selected, getItemProps) =>
        selected.map((tag, index) => {
          const { key, ...props } = getItemProps({ index });
          return typeof tag === 'string' ? null : (
            <Chip
              key={key}
              size="small"
              label={tag.name}
              sx={{ bgcolor: tag.color, color: 'common.white' }}
              {...props}
            />
          );
        })
      }
      renderInput={(params) => (
        <TextField {...params} variant="standard" placeholder={t('ticketView.tags')} />
      )}
      sx={{ px: 2, py: 0.5 }}
    />
  );
}
