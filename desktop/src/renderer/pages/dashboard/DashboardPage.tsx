import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { can } from '@atende/shared';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router-dom';
import { api } from '../../api';
import { useSession } from '../../session/store';
import { toast } from '../../ui/toast';
import { useErrorToast } from '../../ui/useErrorToast';
import { TicketsChart } from './Charts';
import {
  chartRange,
  DASHBOARD_PERIODS,
  dashboardQuery,
  splitMinutes,
  type DashboardFilter,
  type DashboardQuery,
} from './filter';

interface Counters {
  supportHappening: number;
  supportPending: number;
  supportFinished: number;
  avgSupportTime: number;
  avgWaitTime: number;
  totalWhatsappSessions?: number;
  totalCompanies?: number;
}
interface Attendant {
  id: number;
  name: string;
  rating: number | null;
  avgSupportTime: number;
  tickets: number;
  online: boolean;
}

function Card({ label, value }: { label: string; value: string | number }) {
  return (
    <Paper variant="outlined" sx={{ p: 2, minWidth: { xs: 140, sm: 180 }, flex: 1 }}>
      <Typography variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography variant="h4">{value}</Typography>
    </Paper>
  );
}

/** / (core §2): date or period filter, counters, attendants table and two bar charts. */
export default function DashboardPage() {
  const { t } = useTranslation();
  const showError = useErrorToast();
  const user = useSession((s) => s.user);
  const [filter, setFilter] = useState<DashboardFilter>({ type: 'period', days: 7 });
  const [query, setQuery] = useState<DashboardQuery | null>({ days: 7 });
  const [data, setData] = useState<{ counters: Counters; attendants: Attendant[] } | null>(null);

  useEffect(() => {
    if (!query || !user || !can(user.profile, 'dashboard:view')) return;
    let cancelled = false;
    api
      .get<{ counters: Counters; attendants: Attendant[] }>('/dashboard', { query: { ...query } })
      .then((answer) => !cancelled && setData(answer))
      .catch((error: unknown) => !cancelled && showError(error));
    return () => {
      cancelled = true;
    };
  }, [query, user, showError]);

  const apply = useCallback(() => {
    const next = dashboardQuery(filter);
    if (!next) return toast.error(t('dashboard.filterParams'));
    setQuery(next);
  }, [filter, t]);

  // The dashboard is for admins (core §6); everyone else starts on /tickets.
  if (!user || !can(user.profile, 'dashboard:view')) return <Navigate to="/tickets" replace />;
  const duration = (minutes: number) => t('dashboard.duration', splitMinutes(minutes));
  const counters = data?.counters;
  const range = query ? chartRange(query, new Date()) : null;

  return (
    // One column that never grows past the screen: wide parts (the table) scroll inside.
    <Box
      sx={{
        p: 2,
        display: 'grid',
        gridTemplateColumns: 'minmax(0, 1fr)',
        // Rows keep their content's height: the table's scroll box must not shrink to nothing.
        gridAutoRows: 'max-content',
        alignContent: 'start',
        gap: 2,
        overflowY: 'auto',
        height: '100%',
      }}
    >
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center' }}>
        <Typography variant="h5" sx={{ flex: 1 }}>
          {t('dashboard.title')}
        </Typography>
        <TextField
          select
          size="small"
          label={t('dashboard.filterType')}
          value={filter.type}
          onChange={(e) =>
            setFilter(
              e.target.value === 'date'
                ? { type: 'date', dateFrom: '', dateTo: '' }
                : { type: 'period', days: null },
            )
          }
        >
          <MenuItem value="date">{t('dashboard.byDate')}</MenuItem>
          <MenuItem value="period">{t('dashboard.byPeriod')}</MenuItem>
        </TextField>
        {filter.type === 'period' ? (
          <TextField
            select
            size="small"
            label={t('dashboard.period')}
            value={filter.days ?? ''}
            sx={{ minWidth: 180 }}
            onChange={(e) => setFilter({ type: 'period', days: Number(e.target.value) || null })}
          >
            {DASHBOARD_PERIODS.map((days) => (
              <MenuItem key={days} value={days}>
                {t('dashboard.days', { count: days })}
              </MenuItem>
            ))}
          </TextField>
        ) : (
          <>
            <TextField
              type="date"
              size="small"
              label={t('dashboard.dateFrom')}
              value={filter.dateFrom}
              onChange={(e) => setFilter({ ...filter, dateFrom: e.target.value })}
              slotProps={{ inputLabel: { shrink: true } }}
            />
            <TextField
              type="date"
              size="small"
              label={t('dashboard.dateTo')}
              value={filter.dateTo}
              onChange={(e) => setFilter({ ...filter, dateTo: e.target.value })}
              slotProps={{ inputLabel: { shrink: true } }}
            />
          </>
        )}
        <Button variant="contained" onClick={apply}>
          {t('dashboard.filter')}
        </Button>
      </Box>
      {counters && (
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2 }}>
          {user.super && (
            <>
              <Card
                label={t('dashboard.connections')}
                value={counters.totalWhatsappSessions ?? 0}
              />
              <Card label={t('dashboard.companies')} value={counters.totalCompanies ?? 0} />
            </>
          )}
          <Card label={t('dashboard.happening')} value={counters.supportHappening} />
          <Card label={t('dashboard.pending')} value={counters.supportPending} />
          <Card label={t('dashboard.finished')} value={counters.supportFinished} />
          <Card label={t('dashboard.avgSupport')} value={duration(counters.avgSupportTime)} />
          <Card label={t('dashboard.avgWait')} value={duration(counters.avgWaitTime)} />
        </Box>
      )}
      {data && (
        <Paper variant="outlined" sx={{ overflowX: 'auto' }}>
          <Typography variant="subtitle1" sx={{ p: 2, pb: 0 }}>
            {t('dashboard.attendants')}
          </Typography>
          <Table size="small">
            <TableHead>
              <TableRow>
                <TableCell>{t('dashboard.name')}</TableCell>
                <TableCell>{t('dashboard.rating')}</TableCell>
                <TableCell>{t('dashboard.avgSupportTime')}</TableCell>
                <TableCell>{t('dashboard.tickets')}</TableCell>
                <TableCell>{t('dashboard.status')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {data.attendants.map((a) => (
                <TableRow key={a.id}>
                  <TableCell>{a.name}</TableCell>
                  <TableCell>{a.rating ?? '-'}</TableCell>
                  <TableCell>{duration(a.avgSupportTime)}</TableCell>
                  <TableCell>{a.tickets}</TableCell>
                  <TableCell>
                    <Chip
                      size="small"
                      color={a.online ? 'success' : 'default'}
                      label={t(a.online ? 'dashboard.online' : 'dashboard.offline')}
                    />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Paper>
      )}
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2 }}>
        <TicketsChart kind="users" range={range} />
        <TicketsChart kind="day" range={range} />
      </Box>
    </Box>
  );
}
