import ArrowBack from '@mui/icons-material/ArrowBack';
import Download from '@mui/icons-material/Download';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import {
  campaignEndpoints,
  campaignEvent,
  campaignShippingEvent,
  type CampaignCounters,
  type CampaignDetail,
} from '@atende/shared';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { api } from '../../api';
import { PageFrame, PageHeader, ScrollPaper } from '../../kit';
import { useCompanyEvent } from '../../session/useRealtime';
import { useErrorToast } from '../../ui/useErrorToast';
import { formatWhen, toCsv, type Shipping } from './rules';
import './i18n';

/** Secondary §4: the report reloads this long after an update with status FINALIZADA. */
export const RELOAD_AFTER_FINISHED_MS = 5_000;

const COUNTERS: (keyof CampaignCounters)[] = [
  'total',
  'queued',
  'sent',
  'delivered',
  'read',
  'replied',
  'confirmed',
  'failed',
  'skipped',
  'optedOut',
];
const STEPS = [
  'queuedAt',
  'confirmationRequestedAt',
  'confirmedAt',
  'sentAt',
  'deliveredAt',
  'readAt',
  'repliedAt',
  'failedAt',
] as const;
const STATE_COLOR = {
  queued: 'default',
  sent: 'info',
  delivered: 'primary',
  read: 'primary',
  replied: 'success',
  failed: 'error',
  skipped: 'warning',
} as const;

/** /campaign/{id}/report: counters and each recipient's timeline, live; CSV export. */
export default function CampaignReportPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const showError = useErrorToast();
  const id = Number(useParams().campaignId);
  const [report, setReport] = useState<CampaignDetail | null>(null);
  const reloadTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const load = useCallback(() => {
    api.call(campaignEndpoints.showCampaign, { params: { id } }).then(setReport, showError);
  }, [id, showError]);
  useEffect(() => {
    load();
    return () => clearTimeout(reloadTimer.current);
  }, [load]);

  useCompanyEvent('campaign', (payload) => {
    const event = campaignEvent.safeParse(payload);
    if (!event.success || event.data.id !== id || !event.data.record) return;
    const record = event.data.record as unknown as CampaignDetail;
    setReport((r) => (r ? { ...r, ...record, shipping: r.shipping } : r));
    if (record.status === 'FINALIZADA') {
      clearTimeout(reloadTimer.current);
      reloadTimer.current = setTimeout(load, RELOAD_AFTER_FINISHED_MS);
    }
  });
  useCompanyEvent('campaignShipping', (payload) => {
    const event = campaignShippingEvent.safeParse(payload);
    if (!event.success || event.data.campaignId !== id) return;
    const row = event.data.shipping as unknown as Shipping;
    setReport((r) => {
      if (!r) return r;
      const at = r.shipping.findIndex((s) => s.id === row.id);
      const shipping =
        at < 0 ? [...r.shipping, row] : r.shipping.map((s, i) => (i === at ? row : s));
      return { ...r, shipping };
    });
  });

  const exportCsv = () => {
    if (!report) return;
    const header = [
      t('campaignReport.number'),
      t('campaignReport.name'),
      t('campaignReport.state'),
      'reason',
      t('campaignReport.variant'),
      t('campaignReport.reply'),
      'replyText',
      ...STEPS,
    ];
    const rows = report.shipping.map((s) => [
      s.number,
      s.name,
      s.state,
      s.reason,
      s.variant,
      s.reply,
      s.replyText,
      ...STEPS.map((k) => s[k]),
    ]);
    const blob = new Blob(['\uFEFF', toCsv([header, ...rows])], { type: 'text/csv' });
    const url = URL.createObjectURL(blob);
    const a = document.createElement('a');
    a.href = url;
    a.download = `campanha-${report.id}.csv`;
    a.click();
    URL.revokeObjectURL(url);
  };

  if (!report) return <LinearProgress />;
  const c = report.counters;
  const done = c.total - c.queued;
  return (
    <PageFrame>
      <PageHeader title={t('campaignReport.title', { name: report.name })}>
        <Chip label={t(`campaigns.statuses.${report.status}`)} data-testid="report-status" />
        <Button startIcon={<ArrowBack />} onClick={() => navigate('/campaigns')}>
          {t('campaignReport.back')}
        </Button>
        <Button variant="contained" startIcon={<Download />} onClick={exportCsv}>
          {t('campaignReport.export')}
        </Button>
      </PageHeader>
      <LinearProgress
        variant="determinate"
        value={c.total ? (100 * done) / c.total : 0}
        sx={{ mb: 1 }}
      />
      <Box
        sx={{
          display: 'grid',
          // Three across on a phone, so the recipients' table keeps most of the screen.
          gridTemplateColumns: {
            xs: 'repeat(3, 1fr)',
            sm: 'repeat(auto-fill, minmax(120px, 1fr))',
          },
          gap: 1,
          mb: 1,
        }}
      >
        {COUNTERS.map((k) => (
          <Paper key={k} variant="outlined" sx={{ p: { xs: 0.5, sm: 1 }, textAlign: 'center' }}>
            <Typography
              variant="h5"
              sx={{ fontSize: { xs: '1.1rem', sm: '1.5rem' } }}
              data-testid={`report-${k}`}
            >
              {c[k]}
            </Typography>
            <Typography variant="caption" color="text.secondary">
              {t(`campaignReport.${k}`)}
            </Typography>
          </Paper>
        ))}
      </Box>
      <ScrollPaper stickyActions={false}>
        {report.shipping.length === 0 ? (
          <Typography sx={{ p: 2 }} color="text.secondary">
            {t('campaignReport.empty')}
          </Typography>
        ) : (
          <Table size="small" stickyHeader aria-label={t('campaignReport.timeline')}>
            <TableHead>
              <TableRow>
                <TableCell>{t('campaignReport.number')}</TableCell>
                <TableCell>{t('campaignReport.name')}</TableCell>
                <TableCell>{t('campaignReport.state')}</TableCell>
                <TableCell align="center">{t('campaignReport.variant')}</TableCell>
                <TableCell>{t('campaignReport.reply')}</TableCell>
                <TableCell>{t('campaignReport.timeline')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {report.shipping.map((s) => (
                <TableRow key={s.id} data-testid={`shipping-${s.id}`}>
                  <TableCell>{s.number}</TableCell>
                  <TableCell>{s.name}</TableCell>
                  <TableCell>
                    <Chip
                      size="small"
                      color={STATE_COLOR[s.state]}
                      label={
                        t(`campaignReport.states.${s.state}`) +
                        (s.reason
                          ? ` (${t(`campaignReport.reasons.${s.reason}`, { defaultValue: s.reason })})`
                          : '')
                      }
                      data-testid={`shipping-state-${s.id}`}
                    />
                  </TableCell>
                  <TableCell align="center">{s.variant ?? ''}</TableCell>
                  <TableCell>{s.reply ? t(`campaignReport.replies.${s.reply}`) : ''}</TableCell>
                  <TableCell>
                    <Typography variant="caption" component="div">
                      {STEPS.filter((k) => s[k])
                        .map(
                          (k) =>
                            `${t(`campaignReport.steps.${k}`)} ${formatWhen(s[k], i18n.language)}`,
                        )
                        .join(' → ')}
                    </Typography>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </ScrollPaper>
    </PageFrame>
  );
}
