import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { lazy, Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { useSession } from '../../session/store';
import { PageHeader } from '../../kit/PageHeader';
import { PageFrame } from '../../kit/ScrollPaper';
import { toast } from '../../ui/toast';
import { OptionsTab } from './OptionsTab';
import { SchedulesTab } from './SchedulesTab';
import { useSettings } from './useSettings';
import './i18n';

// The super user's tabs load only when opened: nobody else ever downloads them.
const LogoTab = lazy(() => import('./LogoTab').then((m) => ({ default: m.LogoTab })));
const CompaniesTab = lazy(() =>
  import('./CompaniesTab').then((m) => ({ default: m.CompaniesTab })),
);
const RegisterCompanyTab = lazy(() =>
  import('./RegisterCompanyTab').then((m) => ({ default: m.RegisterCompanyTab })),
);
const PlansTab = lazy(() => import('./PlansTab').then((m) => ({ default: m.PlansTab })));
const HelpsTab = lazy(() => import('./HelpsTab').then((m) => ({ default: m.HelpsTab })));

/** The super user's tabs (admin §2, §6), in the spec's order. */
export const SUPER_TABS = ['logo', 'companies', 'register', 'plans', 'helps'] as const;
type SuperTab = (typeof SUPER_TABS)[number];
type SettingsTab = 'options' | 'schedules' | SuperTab;
const isSuperTab = (tab: string): tab is SuperTab =>
  (SUPER_TABS as readonly string[]).includes(tab);

/** A non-super user who opens a super tab is sent to the root after 0.5 s (admin §2). */
export const NO_PERMISSION_REDIRECT_MS = 500;

/**
 * Settings page (admin §2): Options always, Schedules only when scheduleType is company, and for
 * the super user Logo, Companies, Register company, Plans and Help. The tab is in the address
 * (`?tab=companies`), so a super tab can be linked to.
 */
export default function SettingsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const user = useSession((s) => s.user);
  const isSuper = Boolean(user?.super);
  const { values, set } = useSettings();
  const [params, setParams] = useSearchParams();
  const asked = params.get('tab') ?? 'options';
  const withSchedules = values.scheduleType === 'company';
  const refused = isSuperTab(asked) && !isSuper;
  const current: SettingsTab =
    asked === 'schedules' && withSchedules
      ? 'schedules'
      : isSuperTab(asked) && isSuper
        ? asked
        : 'options';

  useEffect(() => {
    if (!refused) return;
    toast.error(t('superTabs.noPermission'));
    const timer = setTimeout(() => navigate('/', { replace: true }), NO_PERMISSION_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [refused, navigate, t]);

  const labels: Record<SuperTab, string> = {
    logo: t('superTabs.logoTab'),
    companies: t('superTabs.companiesTab'),
    register: t('superTabs.registerTab'),
    plans: t('superTabs.plansTab'),
    helps: t('superTabs.helpsTab'),
  };

  return (
    <PageFrame>
      <PageHeader title={t('settings.title')} />
      <Paper variant="outlined" sx={{ flex: 1, minHeight: 0, overflowY: 'auto' }}>
        <Tabs
          value={current}
          onChange={(_, v: SettingsTab) => setParams(v === 'options' ? {} : { tab: v })}
          variant="scrollable"
          scrollButtons="auto"
          allowScrollButtonsMobile
        >
          <Tab value="options" label={t('settings.optionsTab')} />
          {withSchedules && <Tab value="schedules" label={t('settings.schedulesTab')} />}
          {isSuper && SUPER_TABS.map((tab) => <Tab key={tab} value={tab} label={labels[tab]} />)}
        </Tabs>
        <Paper elevation={0} sx={{ p: 2 }}>
          {current === 'options' && <OptionsTab values={values} isSuper={isSuper} onSaved={set} />}
          {current === 'schedules' && user && <SchedulesTab companyId={user.companyId} />}
          <Suspense fallback={<LinearProgress />}>
            {current === 'logo' && <LogoTab />}
            {current === 'companies' && <CompaniesTab />}
            {current === 'register' && <RegisterCompanyTab />}
            {current === 'plans' && <PlansTab />}
            {current === 'helps' && <HelpsTab />}
          </Suspense>
        </Paper>
      </Paper>
    </PageFrame>
  );
}
