import Autocomplete from '@mui/material/Autocomplete';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import type { Tag } from '../../api/types';
import { useErrorToast } from '../../ui/useErrorToast';
import { LIST_LOAD_DELAY_MS } from './useTicketList';
import { useLookups, type UserOption } from './useLookups';

/** core §2: the user filter searches from the third character typed. */
export const USER_SEARCH_MIN_CHARS = 3;

/** Users whose name or e-mail contains `typed` (GET /users?searchParam), from 3 characters. */
function useUserSearch(typed: string): UserOption[] {
  const showError = useErrorToast();
  const [found, setFound] = useState<UserOption[]>([]);
  useEffect(() => {
    const term = typed.trim();
    if (term.length < USER_SEARCH_MIN_CHARS) return setFound([]);
    let cancelled = false;
    const timer = setTimeout(() => {
      api
        .get<{ users: UserOption[] }>('/users', { query: { searchParam: term, pageNumber: 1 } })
        .then((answer) => !cancelled && setFound(answer.users))
        .catch((error: unknown) => !cancelled && showError(error));
    }, LIST_LOAD_DELAY_MS);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [typed, showError]);
  return found;
}

interface Props {
  tags: Tag[];
  users: UserOption[];
  /** Admins only (core §2). */
  withUsers: boolean;
  onTags(tags: Tag[]): void;
  onUsers(users: UserOption[]): void;
}

/** The search tab's tag filter and, for admins, its user filter. */
export function SearchFilters({ tags, users, withUsers, onTags, onUsers }: Props) {
  const { t } = useTranslation();
  const { tags: tagOptions } = useLookups(true, ['tags']);
  const [typed, setTyped] = useState('');
  const found = useUserSearch(typed);
  return (
    <Stack spacing={1} sx={{ mt: 1 }}>
      <Autocomplete
        multiple
        size="small"
        options={tagOptions}
        value={tags}
        onChange={(_, value) => onTags(value)}
        getOptionLabel={(tag) => tag.name}
        isOptionEqualToValue={(a, b) => a.id === b.id}
        renderValue={(value, getItemProps) =>
          value.map((tag, index) => {
            const { key, ...itemProps } = getItemProps({ index });
            return (
              <Chip
                key={key}
                size="small"
                label={tag.name}
                sx={{ bgcolor: tag.color, color: 'common.white' }}
                {...itemProps}
              />
            );
          })
        }
        renderInput={(params) => <TextField {...params} label={t('ticketSearch.tags')} />}
        data-testid="search-tags"
      />
      {withUsers && (
        <Autocomplete
          multiple
          size="small"
          options={found}
          value={users}
          filterOptions={(options) => options}
          onChange={(_, value) => onUsers(value)}
          onInputChange={(_, value) => setTyped(value)}
          getOptionLabel={(user) => user.name}
          isOptionEqualToValue={(a, b) => a.id === b.id}
          noOptionsText={
            typed.trim().length < USER_SEARCH_MIN_CHARS
              ? t('ticketSearch.typeThree')
              : t('ticketSearch.noUsers')
          }
          renderInput={(params) => <TextField {...params} label={t('ticketSearch.users')} />}
          data-testid="search-users"
        />
      )}
    </Stack>
  );
}
