import { DEFAULT_QUEUE_SCHEDULES, type ScheduleEntry } from '@atende/shared';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import { toast } from '../../ui/toast';
import { useErrorToast } from '../../ui/useErrorToast';
import { SchedulesEditor, schedulesValid } from '../../kit/SchedulesEditor';
import './i18n';

/** Seven weekdays; a company without saved hours starts with every time empty. */
const emptyWeek = (): ScheduleEntry[] =>
  DEFAULT_QUEUE_SCHEDULES.map((d) => ({ ...d, startTime: '', endTime: '' }));

/** Company opening hours (admin §2 Schedules form), used when scheduleType is company. */
export function SchedulesTab({ companyId }: { companyId: number }) {
  const { t } = useTranslation();
  const showError = useErrorToast();
  const [rows, setRows] = useState<ScheduleEntry[]>(emptyWeek);

  useEffect(() => {
    api
      .get<{ schedules?: ScheduleEntry[] }>(`/companies/${companyId}`)
      .then((company) => {
        const saved = company.schedules ?? [];
        setRows(emptyWeek().map((d) => saved.find((s) => s.weekdayEn === d.weekdayEn) ?? d));
      })
      .catch(showError);
  }, [companyId, showError]);

  const save = async () => {
    if (!schedulesValid(rows)) return;
    try {
      await api.put(`/companies/${companyId}/schedules`, { id: companyId, schedules: rows });
      toast.success(t('admin.schedulesSaved'));
    } catch (error) {
      showError(error);
    }
  };

  return (
    <Stack spacing={2} sx={{ maxWidth: 560 }}>
      <SchedulesEditor value={rows} onChange={setRows} />
      <Button variant="contained" onClick={save} sx={{ alignSelf: 'flex-start' }}>
        {t('settings.save')}
      </Button>
    </Stack>
  );
}
