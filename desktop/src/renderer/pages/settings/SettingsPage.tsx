import Paper from '@mui/material/Paper';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../session/store';
import { PageHeader } from '../../kit/PageHeader';
import { PageFrame } from '../../kit/ScrollPaper';
import { OptionsTab } from './OptionsTab';
import { SchedulesTab } from './SchedulesTab';
import { useSettings } from './useSettings';
import './i18n';

/** Settings page (admin §2): Options always, Schedules only when scheduleType is company. */
export default function SettingsPage() {
  const { t } = useTranslation();
  const user = useSession((s) => s.user);
  const { values, set } = useSettings();
  const [tab, setTab] = useState<'options' | 'schedules'>('options');
  const withSchedules = values.scheduleType === 'company';
  const current = tab === 'schedules' && !withSchedules ? 'options' : tab;

  return (
    <PageFrame>
      <PageHeader title={t('settings.title')} />
      <Paper variant="outlined" sx={{ flex: 1, minHeight: 0, overflowY: 'auto' }}>
        <Tabs value={current} onChange={(_, v: 'options' | 'schedules') => setTab(v)}>
          <Tab value="options" label={t('settings.optionsTab')} />
          {withSchedules && <Tab value="schedules" label={t('settings.schedulesTab')} />}
        </Tabs>
        <Paper elevation={0} sx={{ p: 2 }}>
          {current === 'options' && (
            <OptionsTab values={values} isSuper={Boolean(user?.super)} onSaved={set} />
          )}
          {current === 'schedules' && user && <SchedulesTab companyId={user.companyId} />}
        </Paper>
      </Paper>
    </PageFrame>
  );
}
