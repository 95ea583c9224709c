import SearchIcon from '@mui/icons-material/Search';
import InputAdornment from '@mui/material/InputAdornment';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import './i18n';

interface Props {
  title: string;
  search?: string;
  onSearch?(value: string): void;
  /** The search box's text (default 'Pesquisar'). */
  searchLabel?: string;
  children?: ReactNode;
}

/** Title, optional search box and the page's buttons, on one line. */
export function PageHeader({ title, search, onSearch, searchLabel, children }: Props) {
  const { t } = useTranslation();
  const label = searchLabel ?? t('admin.search');
  return (
    <Stack
      direction="row"
      spacing={1}
      useFlexGap
      sx={{ alignItems: 'center', flexWrap: 'wrap', mb: 1 }}
    >
      <Typography variant="h6" component="h1" color="primary" sx={{ flexGrow: 1 }}>
        {title}
      </Typography>
      {onSearch && (
        <TextField
          size="small"
          placeholder={label}
          value={search ?? ''}
          onChange={(e) => onSearch(e.target.value)}
          slotProps={{
            htmlInput: { 'aria-label': label },
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <SearchIcon fontSize="small" />
                </InputAdornment>
              ),
            },
          }}
        />
      )}
      {children}
    </Stack>
  );
}
