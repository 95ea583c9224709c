import Box from '@mui/material/Box';
import Popover from '@mui/material/Popover';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import './i18n';

/** The 49 fixed colours offered for queues (admin §9), shown as a 7 × 7 grid. */
// prettier-ignore
export const COLOR_PALETTE: readonly string[] = [
  '#B80000', '#DB3E00', '#FCCB00', '#008B02', '#006B76', '#1273DE', '#004DCF',
  '#5300EB', '#EB9694', '#FAD0C3', '#FEF3BD', '#C1E1C5', '#BEDADC', '#C4DEF6',
  '#BED3F3', '#D4C4FB', '#F44E3B', '#FE9200', '#FCDC00', '#DBDF00', '#A4DD00',
  '#68CCCA', '#73D8FF', '#AEA1FF', '#FDA1FF', '#333333', '#808080', '#CCCCCC',
  '#D33115', '#E27300', '#FCC400', '#B0BC00', '#68BC00', '#16A5A5', '#009CE0',
  '#7B64FF', '#FA28FF', '#000000', '#666666', '#B3B3B3', '#9F0500', '#C45100',
  '#FB9E00', '#808900', '#194D33', '#0C797D', '#0062B1', '#653294', '#AB149E',
];

interface Props {
  value: string;
  onChange(color: string): void;
  error?: string;
  label: string;
  name?: string;
}

/** A colour text field with a swatch that opens the palette. */
export function ColorPicker({ value, onChange, error, label, name }: Props) {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  return (
    <>
      <TextField
        label={label}
        name={name}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        error={Boolean(error)}
        helperText={error}
        fullWidth
        slotProps={{
          input: {
            startAdornment: (
              <Box
                component="button"
                type="button"
                aria-label={t('admin.palette')}
                onClick={(e) => setAnchor(e.currentTarget)}
                sx={{
                  width: 24,
                  height: 24,
                  mr: 1,
                  border: 1,
                  borderColor: 'divider',
                  borderRadius: 1,
                  bgcolor: value || 'transparent',
                  cursor: 'pointer',
                  flexShrink: 0,
                }}
              />
            ),
          },
        }}
      />
      <Popover open={Boolean(anchor)} anchorEl={anchor} onClose={() => setAnchor(null)}>
        <Box
          role="listbox"
          aria-label={t('admin.palette')}
          sx={{ display: 'grid', gridTemplateColumns: 'repeat(7, 28px)', gap: 0.5, p: 1 }}
        >
          {COLOR_PALETTE.map((color) => (
            <Box
              key={color}
              component="button"
              type="button"
              role="option"
              aria-selected={color === value}
              aria-label={color}
              onClick={() => {
                onChange(color);
                setAnchor(null);
              }}
              sx={{ width: 28, height: 28, bgcolor: color, border: 0, borderRadius: 0.5 }}
            />
          ))}
        </Box>
      </Popover>
    </>
  );
}
