import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Grid from '@mui/material/Grid';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Step from '@mui/material/Step';
import StepLabel from '@mui/material/StepLabel';
import Stepper from '@mui/material/Stepper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import {
  CHECKOUT_COUNTRIES,
  CHECKOUT_MESSAGES,
  COMPANY_EVENTS,
  checkoutAddress,
  invoiceEndpoints,
  type CheckoutAddress,
  type InvoiceRow,
  type SubscriptionAnswer,
  type SubscriptionView,
} from '@atende/shared';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { api } from '../../api';
import { useSession } from '../../session/store';
import { useCompanyEvent } from '../../session/useRealtime';
import { toast } from '../../ui/toast';
import { useErrorToast } from '../../ui/useErrorToast';
import { formatBRL, formatDay } from './format';
import { PixScreen } from './PixScreen';
import './i18n';

/** After the renewal message the checkout goes to `/` this long later (admin §4). */
export const RENEWED_REDIRECT_MS = 4000;

/** Dados, Personalizar, Revisar (admin §2); it opens at step 1, the plan (admin §4). */
const STEPS = ['data', 'plan', 'review'] as const;
const FIRST_STEP = 1;
const PIX_STEP = STEPS.length;

type Address = Record<keyof CheckoutAddress, string>;
const EMPTY: Address = {
  firstName: '',
  address2: '',
  city: '',
  state: '',
  zipcode: '',
  country: CHECKOUT_COUNTRIES[0],
};
type Errors = Partial<Record<keyof Address, string>>;

/** The i18n key of each of admin §5's messages (the schema carries the Portuguese text). */
const MESSAGE_KEY = new Map<string, string>(
  Object.entries(CHECKOUT_MESSAGES).map(([key, text]) => [text, `checkout.messages.${key}`]),
);

function validate(address: Address): Errors {
  const parsed = checkoutAddress.safeParse(address);
  if (parsed.success) return {};
  const errors: Errors = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] as keyof Address;
    errors[field] ??= issue.message;
  }
  return errors;
}

interface Props {
  open: boolean;
  invoice: InvoiceRow;
  /** The plan, when the caller knows it (the subscription page). */
  plan?: SubscriptionView['plan'];
  onClose(): void;
}

/**
 * The checkout (admin §2, §4, §5): the steps Dados (billing address), Personalizar (the plan
 * being paid) and Revisar, starting at Personalizar; Revisar posts `POST /subscription` with the
 * invoice alone (the price is the server's) and shows the Pix screen. While it is open, the
 * company's payment event shows the renewal message with the new due date and goes to `/` 4 s
 * later.
 */
export function CheckoutDialog({ open, invoice, plan, onClose }: Props) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const showError = useErrorToast();
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const [step, setStep] = useState(FIRST_STEP);
  const [address, setAddress] = useState<Address>(EMPTY);
  const [errors, setErrors] = useState<Errors>({});
  const [sending, setSending] = useState(false);
  const [pix, setPix] = useState<SubscriptionAnswer | null>(null);
  const [renewedUntil, setRenewedUntil] = useState<string | null>(null);

  useEffect(() => {
    if (!open) return;
    setStep(FIRST_STEP);
    setErrors({});
    setPix(null);
    setRenewedUntil(null);
  }, [open, invoice.id]);

  useCompanyEvent('payment', (payload) => {
    if (!open) return;
    const parsed = COMPANY_EVENTS.payment.safeParse(payload);
    if (!parsed.success) return;
    const dueDate = parsed.data.company.dueDate;
    setRenewedUntil(dueDate);
    const { user, setUser } = useSession.getState();
    if (user?.company) setUser({ ...user, company: { ...user.company, dueDate } });
  });

  // The 4 s count from the message alone: a re-render (the session's new due date) must not
  // start it again.
  const go = useRef(navigate);
  go.current = navigate;
  useEffect(() => {
    if (!renewedUntil) return;
    const timer = setTimeout(() => go.current('/'), RENEWED_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [renewedUntil]);

  const message = (field: keyof Address) => {
    const text = errors[field];
    return text ? t(MESSAGE_KEY.get(text) ?? text) : undefined;
  };
  const change = (field: keyof Address) => (e: { target: { value: string } }) => {
    const next = { ...address, [field]: e.target.value };
    setAddress(next);
    if (errors[field]) setErrors(validate(next));
  };

  /** The address is checked leaving Dados, and again before paying (it may have been skipped). */
  const addressValid = () => {
    const found = validate(address);
    setErrors(found);
    return Object.keys(found).length === 0;
  };

  const next = () => {
    if (step === 0 && !addressValid()) return;
    setStep((s) => s + 1);
  };

  const pay = async () => {
    if (!addressValid()) {
      setStep(0);
      return;
    }
    setSending(true);
    try {
      const answer = await api.call(invoiceEndpoints.subscribe, {
        body: { invoiceId: invoice.id },
      });
      setPix(answer);
      setStep(PIX_STEP);
      toast.success(t('checkout.success'));
    } catch (error) {
      showError(error);
    } finally {
      setSending(false);
    }
  };

  const field = (name: keyof Address, extra: { select?: boolean; width?: number } = {}) => (
    <Grid size={{ xs: 12, sm: extra.width ?? 6 }}>
      <TextField
        label={t(`checkout.address.${name}`)}
        name={name}
        value={address[name]}
        onChange={change(name)}
        error={!!errors[name]}
        helperText={message(name)}
        select={extra.select}
        fullWidth
        size="small"
      >
        {extra.select &&
          CHECKOUT_COUNTRIES.map((c) => (
            <MenuItem key={c} value={c}>
              {c}
            </MenuItem>
          ))}
      </TextField>
    </Grid>
  );

  const due = formatDay(invoice.dueDate, i18n.language);
  const addressOk = checkoutAddress.safeParse(address).success;
  const planCard = (
    <Stack spacing={0.5} data-testid="checkout-plan">
      <Typography variant="subtitle1" sx={{ fontWeight: 700 }}>
        {plan?.name ?? invoice.detail}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {t('checkout.plan.invoice', { id: invoice.id, date: due })}
      </Typography>
      {plan && (
        <Typography variant="body2">
          {t('checkout.plan.users', { count: plan.users })} ·{' '}
          {t('checkout.plan.connections', { count: plan.connections })} ·{' '}
          {t('checkout.plan.queues', { count: plan.queues })}
        </Typography>
      )}
      <Typography variant="h6" color="primary">
        {t('checkout.plan.monthly', { value: formatBRL(invoice.value) })}
      </Typography>
    </Stack>
  );

  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" fullScreen={phone}>
      <DialogTitle>{t('checkout.title')}</DialogTitle>
      <DialogContent dividers>
        {renewedUntil ? (
          <Alert severity="success" data-testid="checkout-renewed">
            {t('checkout.renewed', { date: formatDay(renewedUntil, i18n.language) })}
          </Alert>
        ) : step === PIX_STEP && pix ? (
          <PixScreen value={pix.valor.original} code={pix.qrcode.qrcode} />
        ) : (
          <Stack spacing={3}>
            <Stepper activeStep={step} alternativeLabel>
              {STEPS.map((s, i) => (
                <Step key={s} completed={i < step && (i > 0 || addressOk)}>
                  <StepLabel>{t(`checkout.steps.${s}`)}</StepLabel>
                </Step>
              ))}
            </Stepper>
            {step === 0 && (
              <Stack spacing={2}>
                <Typography variant="subtitle1">{t('checkout.address.title')}</Typography>
                <Grid container spacing={2}>
                  {field('firstName', { width: 12 })}
                  {field('address2', { width: 12 })}
                  {field('city')}
                  {field('state')}
                  {field('zipcode')}
                  {field('country', { select: true })}
                </Grid>
              </Stack>
            )}
            {step === 1 && planCard}
            {step === 2 && (
              <Stack spacing={2} data-testid="checkout-review">
                <Typography variant="subtitle1">{t('checkout.review.title')}</Typography>
                {planCard}
                <Stack spacing={0.5}>
                  <Typography variant="subtitle2">{t('checkout.review.billing')}</Typography>
                  <Typography variant="body2">{address.firstName}</Typography>
                  <Typography variant="body2">
                    {[address.address2, address.city, address.state, address.zipcode]
                      .filter(Boolean)
                      .join(', ')}
                  </Typography>
                  <Typography variant="body2">{address.country}</Typography>
                </Stack>
                <Typography variant="subtitle1" sx={{ fontWeight: 700 }}>
                  {t('checkout.review.total')}: {formatBRL(invoice.value)}
                </Typography>
              </Stack>
            )}
          </Stack>
        )}
      </DialogContent>
      <DialogActions>
        {step < PIX_STEP && !renewedUntil && step > 0 && (
          <Button onClick={() => setStep((s) => s - 1)} disabled={sending}>
            {t('checkout.back')}
          </Button>
        )}
        {step < STEPS.length - 1 && !renewedUntil && (
          <Button variant="contained" onClick={next}>
            {t('checkout.next')}
          </Button>
        )}
        {step === STEPS.length - 1 && !renewedUntil && (
          <Button variant="contained" onClick={() => void pay()} disabled={sending}>
            {t('checkout.pay')}
          </Button>
        )}
        <Button onClick={onClose}>{t('checkout.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
