import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import { alpha, type Theme } from '@mui/material/styles';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import {
  TIME_ZONE_SETTING,
  invoiceEndpoints,
  invoiceStatus,
  type InvoiceDisplayStatus,
  type InvoiceRow,
} from '@atende/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import {
  ConfirmDialog,
  PageFrame,
  PageHeader,
  ScrollPaper,
  STACKED,
  useResourceList,
} from '../../kit';
import { useSession } from '../../session/store';
import { useCompanyEvent } from '../../session/useRealtime';
import { toast } from '../../ui/toast';
import { useErrorToast } from '../../ui/useErrorToast';
import { CheckoutDialog } from './CheckoutDialog';
import { formatBRL, formatDay } from './format';
import './i18n';

/** Overdue unpaid rows are tinted (admin §2): the error colour, faint. */
const overdueTint = (theme: Theme) => ({ bgcolor: alpha(theme.palette.error.main, 0.12) });

/**
 * 'Faturas' (admin §2, §4, §7): the company's invoices, 20 a page with infinite scroll, the status
 * 'Pago' / 'Vencido' / 'Em Aberto', PAGAR on unpaid rows (the checkout), overdue unpaid rows
 * tinted. The super user sees every company's invoices with the company's name and confirms a
 * Pix paid to the platform's static key ('Confirmar pagamento').
 */
export default function FinanceiroPage() {
  const { t, i18n } = useTranslation();
  const showError = useErrorToast();
  const user = useSession((s) => s.user);
  const isSuper = user?.super === true;
  const zone = user?.company?.settings?.find((s) => s.key === TIME_ZONE_SETTING)?.value;
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const list = useResourceList<InvoiceRow>({
    path: '/invoices/all',
    rows: 'invoices',
    event: 'payment',
  });
  const [paying, setPaying] = useState<InvoiceRow | null>(null);
  const [confirming, setConfirming] = useState<InvoiceRow | null>(null);

  // A payment of this company: its row turns 'Pago'.
  useCompanyEvent('payment', () => list.reload());

  const statusOf = (row: InvoiceRow): InvoiceDisplayStatus =>
    invoiceStatus(row, Date.now(), zone ?? undefined);

  const confirm = async (row: InvoiceRow) => {
    setConfirming(null);
    try {
      const answer = await api.call(invoiceEndpoints.confirmInvoice, {
        params: { id: row.id },
        body: {},
      });
      toast.success(
        t('invoices.confirmed', {
          date: answer.dueDate ? formatDay(answer.dueDate, i18n.language) : '',
        }),
      );
      list.reload();
    } catch (error) {
      showError(error);
    }
  };

  const title = isSuper ? t('invoices.allTitle') : t('invoices.title');
  const label = (key: string) => ({ 'data-label': t(`invoices.${key}`) });
  return (
    <PageFrame>
      <PageHeader title={title} search={list.search} onSearch={list.setSearch} />
      <ScrollPaper onEnd={list.loadMore} stickyActions={!phone}>
        <Table size="small" stickyHeader aria-label={title} sx={phone ? STACKED : undefined}>
          <TableHead>
            <TableRow>
              {!phone && <TableCell align="center">{t('invoices.id')}</TableCell>}
              {isSuper && <TableCell>{t('invoices.company')}</TableCell>}
              <TableCell>{t('invoices.detail')}</TableCell>
              <TableCell align="center">{t('invoices.value')}</TableCell>
              <TableCell align="center">{t('invoices.dueDate')}</TableCell>
              <TableCell align="center">{t('invoices.status')}</TableCell>
              <TableCell align="center">{t('invoices.action')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {list.items.map((row) => {
              const status = statusOf(row);
              return (
                <TableRow
                  key={row.id}
                  data-testid={`invoice-${row.id}`}
                  data-status={status}
                  sx={status === 'overdue' ? overdueTint : undefined}
                >
                  {!phone && <TableCell align="center">{row.id}</TableCell>}
                  {isSuper && <TableCell {...label('company')}>{row.companyName}</TableCell>}
                  <TableCell {...label('detail')}>{row.detail}</TableCell>
                  <TableCell align="center" sx={{ whiteSpace: 'nowrap' }} {...label('value')}>
                    {formatBRL(row.value)}
                  </TableCell>
                  <TableCell align="center" {...label('dueDate')}>
                    {formatDay(row.dueDate, i18n.language)}
                  </TableCell>
                  <TableCell
                    align="center"
                    {...label('status')}
                    sx={status === 'overdue' ? { color: 'error.main', fontWeight: 700 } : {}}
                  >
                    {t(`invoices.status_${status}`)}
                  </TableCell>
                  <TableCell
                    align="center"
                    sx={{ whiteSpace: 'nowrap', justifyContent: 'flex-end' }}
                  >
                    {status === 'paid' ? (
                      <Typography variant="button" color="success.main">
                        {t('invoices.paid')}
                      </Typography>
                    ) : isSuper ? (
                      <Button size="small" variant="outlined" onClick={() => setConfirming(row)}>
                        {t('invoices.confirm')}
                      </Button>
                    ) : (
                      <Button size="small" variant="contained" onClick={() => setPaying(row)}>
                        {t('invoices.pay')}
                      </Button>
                    )}
                  </TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
        {list.loading && <LinearProgress aria-label={t('admin.loading')} />}
        {!list.loading && list.items.length === 0 && (
          <Typography sx={{ p: 2 }} color="text.secondary">
            {t('invoices.empty')}
          </Typography>
        )}
      </ScrollPaper>
      {paying && <CheckoutDialog open invoice={paying} onClose={() => setPaying(null)} />}
      <ConfirmDialog
        open={!!confirming}
        title={t('invoices.confirmTitle')}
        message={
          confirming
            ? t('invoices.confirmMessage', {
                value: formatBRL(confirming.value),
                id: confirming.id,
                company: confirming.companyName ?? '',
              })
            : ''
        }
        onClose={() => setConfirming(null)}
        onConfirm={() => confirming && void confirm(confirming)}
      />
    </PageFrame>
  );
}
