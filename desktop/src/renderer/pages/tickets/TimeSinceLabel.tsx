import Typography from '@mui/material/Typography';
import { TIME_SINCE_REFRESH_MS, timeSinceLabel, type TimeSinceColor } from '@atende/shared';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

const COLORS: Record<TimeSinceColor, string> = {
  green: 'success.main',
  amber: 'warning.light',
  orange: 'warning.dark',
  red: 'error.main',
};

/** Re-renders every 30 s (core §4). */
export function useNow(intervalMs = TIME_SINCE_REFRESH_MS): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}

export function TimeSinceLabel({ updatedAt }: { updatedAt: string }) {
  const { t } = useTranslation();
  const now = useNow();
  const label = timeSinceLabel(Date.parse(updatedAt), now);
  if (!label) return null;
  return (
    <Typography
      component="span"
      variant="caption"
      data-testid="time-since"
      data-color={label.color}
      sx={{ color: COLORS[label.color], fontWeight: 700, whiteSpace: 'nowrap' }}
    >
      {t(`tickets.${label.unit}`, { count: label.value })}
    </Typography>
  );
}
