import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { can, invoiceEndpoints, type SubscriptionView } from '@atende/shared';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import { PageFrame, PageHeader } from '../../kit';
import { useSession } from '../../session/store';
import { useCompanyEvent } from '../../session/useRealtime';
import { useErrorToast } from '../../ui/useErrorToast';
import { CheckoutDialog } from '../financeiro/CheckoutDialog';
import { formatBRL, formatDay } from '../financeiro/format';
import './i18n';

/**
 * 'Assinatura' (admin §2): days left of the trial or the license, the billing e-mail, the plan,
 * and the subscribe button that opens the checkout for the oldest open invoice (admins).
 */
export default function SubscriptionPage() {
  const { t, i18n } = useTranslation();
  const showError = useErrorToast();
  const user = useSession((s) => s.user);
  const mayPay = !!user && (user.super || can(user.profile, 'drawer-admin-items:view'));
  const [view, setView] = useState<SubscriptionView | null>(null);
  const [open, setOpen] = useState(false);

  const load = useCallback(() => {
    api
      .call(invoiceEndpoints.subscription)
      .then(setView)
      .catch((error: unknown) => showError(error));
  }, [showError]);
  useEffect(load, [load]);
  useCompanyEvent('payment', load);

  const dueLine = view?.company.dueDate
    ? `${t('subscription.daysLeft', { count: view.daysLeft ?? 0 })} · ${t('subscription.until', {
        date: formatDay(view.company.dueDate, i18n.language),
      })}`
    : t('subscription.noDueDate');

  return (
    <PageFrame>
      <PageHeader title={t('subscription.title')} />
      <Paper variant="outlined" sx={{ p: 2, maxWidth: 560, width: '100%' }}>
        {view && (
          <>
            <List disablePadding>
              <ListItem disableGutters>
                <ListItemText
                  primary={view.trial ? t('subscription.trial') : t('subscription.license')}
                  secondary={<span data-testid="subscription-days">{dueLine}</span>}
                />
              </ListItem>
              <Divider component="li" />
              <ListItem disableGutters>
                <ListItemText
                  primary={t('subscription.email')}
                  secondary={<span data-testid="subscription-email">{view.company.email}</span>}
                />
              </ListItem>
              <Divider component="li" />
              <ListItem disableGutters>
                <ListItemText
                  primary={t('subscription.plan')}
                  secondary={
                    view.plan
                      ? t('subscription.planLine', {
                          name: view.plan.name,
                          value: formatBRL(view.plan.value),
                        })
                      : t('subscription.noPlan')
                  }
                />
              </ListItem>
            </List>
            {mayPay ? (
              <>
                <Button
                  variant="contained"
                  fullWidth
                  sx={{ mt: 2 }}
                  disabled={!view.invoice}
                  onClick={() => setOpen(true)}
                >
                  {t('subscription.subscribe')}
                </Button>
                {!view.invoice && (
                  <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
                    {t('subscription.noInvoice')}
                  </Typography>
                )}
              </>
            ) : (
              <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }}>
                {t('subscription.askAdmin')}
              </Typography>
            )}
          </>
        )}
      </Paper>
      {view?.invoice && (
        <CheckoutDialog
          open={open}
          invoice={view.invoice}
          plan={view.plan}
          onClose={() => setOpen(false)}
        />
      )}
    </PageFrame>
  );
}
