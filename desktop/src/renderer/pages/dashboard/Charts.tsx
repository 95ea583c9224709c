import Alert from '@mui/material/Alert';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { BarChart } from '@mui/x-charts/BarChart';
import { ChartsLocalizationProvider } from '@mui/x-charts/ChartsLocalizationProvider';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import { chartLabel, countTick } from './chartAxes';

interface Series {
  labels: string[];
  values: number[];
  count: number;
}

/** One bar chart over GET /dashboard/{ticketsUsers|ticketsDay}; its own error text (core §8). */
function useSeries(
  path: '/dashboard/ticketsUsers' | '/dashboard/ticketsDay',
  range: { initialDate?: string; finalDate?: string } | null,
) {
  const [series, setSeries] = useState<Series | null>(null);
  const [failed, setFailed] = useState(false);
  const key = JSON.stringify(range);
  useEffect(() => {
    const parsed = JSON.parse(key) as typeof range;
    if (!parsed) return;
    let cancelled = false;
    api
      .get<{ data: Record<string, string | number>[]; count: number }>(path, { query: parsed })
      .then(({ data, count }) => {
        if (cancelled) return;
        setFailed(false);
        setSeries({
          labels: data.map(chartLabel),
          values: data.map((row) => Number(row.quantidade ?? row.total ?? 0)),
          count,
        });
      })
      .catch(() => !cancelled && setFailed(true));
    return () => {
      cancelled = true;
    };
  }, [path, key]);
  return { series, failed };
}

export function TicketsChart({
  kind,
  range,
}: {
  kind: 'users' | 'day';
  range: { initialDate?: string; finalDate?: string } | null;
}) {
  const { t } = useTranslation();
  const { series, failed } = useSeries(
    kind === 'users' ? '/dashboard/ticketsUsers' : '/dashboard/ticketsDay',
    range,
  );
  return (
    // Side by side when both get 320 px, one under the other on phones.
    <Paper variant="outlined" sx={{ p: 2, flex: '1 1 320px', minWidth: 0 }}>
      <Typography variant="subtitle1">
        {t(kind === 'users' ? 'dashboard.ticketsByUser' : 'dashboard.ticketsByDay')}
      </Typography>
      {failed ? (
        <Alert severity="error">
          {t(kind === 'users' ? 'dashboard.chartUsersError' : 'dashboard.chartDayError')}
        </Alert>
      ) : (
        series && (
          <>
            <Typography variant="caption">
              {t('dashboard.total', { count: series.count })}
            </Typography>
            <ChartsLocalizationProvider
              localeText={{ noData: t('charts.noData'), loading: t('charts.loading') }}
            >
              <BarChart
                height={260}
                xAxis={[{ scaleType: 'band', data: series.labels }]}
                yAxis={[{ valueFormatter: countTick, tickMinStep: 1, width: 40 }]}
                series={[{ data: series.values, color: kind === 'users' ? '#2576d2' : '#2e7d32' }]}
              />
            </ChartsLocalizationProvider>
          </>
        )
      )}
    </Paper>
  );
}
