import VolumeOff from '@mui/icons-material/VolumeOff';
import VolumeUp from '@mui/icons-material/VolumeUp';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Popover from '@mui/material/Popover';
import Slider from '@mui/material/Slider';
import Tooltip from '@mui/material/Tooltip';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePrefs, VOLUME_STEP } from '../ui/prefs';

/** Notification volume, 0 to 1 in steps of 0.1, kept locally (core §2). */
export function VolumeControl() {
  const { t } = useTranslation();
  const volume = usePrefs((s) => s.volume);
  const setVolume = usePrefs((s) => s.setVolume);
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  return (
    <>
      <Tooltip title={t('topbar.volume')}>
        <IconButton
          color="inherit"
          aria-label={t('topbar.volume')}
          onClick={(e) => setAnchor(e.currentTarget)}
        >
          {volume === 0 ? <VolumeOff /> : <VolumeUp />}
        </IconButton>
      </Tooltip>
      <Popover
        open={anchor !== null}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
      >
        <Box sx={{ width: 200, px: 3, py: 2 }}>
          <Slider
            aria-label={t('topbar.volume')}
            min={0}
            max={1}
            step={VOLUME_STEP}
            value={volume}
            valueLabelDisplay="auto"
            onChange={(_, value) => setVolume(value as number)}
          />
        </Box>
      </Popover>
    </>
  );
}
