import type { ScheduleEntry } from '@atende/shared';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import './i18n';

/** Time fields are two digits, a colon, two digits (admin §5); empty means closed. */
export const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;
export const validTime = (value: string) => value === '' || HHMM.test(value);
export const schedulesValid = (rows: readonly ScheduleEntry[]) =>
  rows.every((r) => validTime(r.startTime) && validTime(r.endTime));

const WEEKDAY_LABELS: Record<string, Record<ScheduleEntry['weekdayEn'], string>> = {
  'pt-BR': {
    monday: 'Segunda-feira',
    tuesday: 'Terça-feira',
    wednesday: 'Quarta-feira',
    thursday: 'Quinta-feira',
    friday: 'Sexta-feira',
    saturday: 'Sábado',
    sunday: 'Domingo',
  },
  en: {
    monday: 'Monday',
    tuesday: 'Tuesday',
    wednesday: 'Wednesday',
    thursday: 'Thursday',
    friday: 'Friday',
    saturday: 'Saturday',
    sunday: 'Sunday',
  },
  es: {
    monday: 'Lunes',
    tuesday: 'Martes',
    wednesday: 'Miércoles',
    thursday: 'Jueves',
    friday: 'Viernes',
    saturday: 'Sábado',
    sunday: 'Domingo',
  },
};

interface Props {
  value: ScheduleEntry[];
  onChange(rows: ScheduleEntry[]): void;
}

/** Seven weekday rows, each with a start and an end time (admin §2 Schedules form). */
export function SchedulesEditor({ value, onChange }: Props) {
  const { t, i18n } = useTranslation();
  const labels = WEEKDAY_LABELS[i18n.language] ?? WEEKDAY_LABELS['pt-BR']!;
  const set = (index: number, field: 'startTime' | 'endTime', time: string) =>
    onChange(value.map((row, i) => (i === index ? { ...row, [field]: time } : row)));
  return (
    <Stack spacing={1.5}>
      {value.map((row, index) => (
        <Stack key={row.weekdayEn} direction="row" spacing={2} sx={{ alignItems: 'center' }}>
          <Typography sx={{ width: 140 }}>{labels[row.weekdayEn]}</Typography>
          {(['startTime', 'endTime'] as const).map((field) => {
            const bad = !validTime(row[field]);
            return (
              <TextField
                key={field}
                size="small"
                label={t(field === 'startTime' ? 'admin.startTime' : 'admin.endTime')}
                value={row[field]}
                placeholder="HH:MM"
                onChange={(e) => set(index, field, e.target.value)}
                error={bad}
                helperText={bad ? t('admin.hhmm') : undefined}
                slotProps={{
                  htmlInput: {
                    maxLength: 5,
                    inputMode: 'numeric',
                    'aria-label': `${labels[row.weekdayEn]} ${t(`admin.${field}`)}`,
                  },
                }}
              />
            );
          })}
        </Stack>
      ))}
    </Stack>
  );
}
