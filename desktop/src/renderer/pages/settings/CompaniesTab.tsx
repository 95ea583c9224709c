import {
  companyEndpoints,
  daysUntilDue,
  dueDateOrNull,
  dueDateTint,
  emailSchema,
  localDay,
  nextDueDate,
  RECURRENCES,
  type DueDateTint,
} from '@atende/shared';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useCallback, useEffect, useState } from 'react';
import { Controller, useFormContext } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { api } from '../../api';
import { FieldRow, SelectInput, TextInput, type Column } from '../../kit';
import { FormTable } from './FormTable';
import { money } from './format';
import './i18n';

type CompanyRow = Awaited<ReturnType<typeof listCompanies>>[number];
const listCompanies = () => api.call(companyEndpoints.companyList);

/** The row tints of admin §4. */
export const TINT_COLORS: Record<Exclude<DueDateTint, null>, string> = {
  paleYellow: '#fffead',
  amber: '#f7cc8f',
  red: '#fa8c8c',
};

/** The tint of a company's row today (admin §4), by calendar days to its due date. */
export function companyTint(dueDate: string | null, now = Date.now()): DueDateTint {
  return dueDateTint(dueDate ? daysUntilDue(dueDate, now) : null);
}

/** Company form (admin §5): email and plan required; the due date goes as null when empty. */
const companyForm = z.object({
  name: z.string().trim().min(2, 'Too Short!').max(100, 'Too Long!'),
  email: z.string().trim().min(1, 'Required').pipe(emailSchema),
  phone: z.string().trim().max(30),
  planId: z.number({ error: 'Required' }).int().positive('Required'),
  status: z.boolean(),
  campaignsEnabled: z.boolean(),
  dueDate: z.string(),
  recurrence: z.string(),
});
type CompanyForm = z.input<typeof companyForm>;

const EMPTY: CompanyForm = {
  name: '',
  email: '',
  phone: '',
  planId: null as unknown as number,
  status: true,
  campaignsEnabled: true,
  dueDate: '',
  recurrence: 'MENSAL',
};

const enabled = (settings: { key: string; value: string }[]) => {
  const value = settings.find((s) => s.key === 'campaignsEnabled')?.value;
  return value === undefined || value === 'true' || value === 'enabled';
};

/** Companies tab (admin §2, §4, §5): a form plus the table, rows tinted by days to due date. */
export function CompaniesTab() {
  const { t } = useTranslation();
  const [plans, setPlans] = useState<{ value: number; label: string }[]>([]);
  useEffect(() => {
    api
      .get<{ id: number; name: string }[]>('/plans/list')
      .then((rows) => setPlans(rows.map((p) => ({ value: p.id, label: p.name }))))
      .catch(() => setPlans([]));
  }, []);
  const yesNo = [
    { value: 'true', label: t('common.yes') },
    { value: 'false', label: t('common.no') },
  ];

  const columns: Column<CompanyRow>[] = [
    { key: 'name', label: t('superTabs.companies.name'), render: (c) => c.name },
    { key: 'email', label: t('superTabs.companies.email'), render: (c) => c.email },
    { key: 'phone', label: t('superTabs.companies.phone'), render: (c) => c.phone },
    { key: 'plan', label: t('superTabs.companies.plan'), render: (c) => c.plan?.name },
    {
      key: 'value',
      label: t('superTabs.plans.value'),
      render: (c) => (c.plan ? money(c.plan.value) : ''),
    },
    {
      key: 'campaigns',
      label: t('superTabs.companies.campaigns'),
      render: (c) => (enabled(c.settings) ? t('superTabs.enabled') : t('superTabs.disabled')),
    },
    {
      key: 'status',
      label: t('superTabs.companies.status'),
      render: (c) => (c.status ? t('common.yes') : t('common.no')),
    },
    {
      key: 'createdAt',
      label: t('superTabs.companies.createdAt'),
      render: (c) => localDay(Date.parse(c.createdAt)).split('-').reverse().join('/'),
    },
    {
      key: 'dueDate',
      label: t('superTabs.companies.dueDate'),
      render: (c) => (c.dueDate ? c.dueDate.slice(0, 10).split('-').reverse().join('/') : ''),
    },
    {
      key: 'recurrence',
      label: t('superTabs.companies.recurrence'),
      render: (c) => c.recurrence,
    },
  ];

  return (
    <FormTable<CompanyRow, CompanyForm, z.output<typeof companyForm>>
      testId="company"
      what={t('superTabs.companies.what')}
      schema={companyForm}
      empty={EMPTY}
      valuesOf={(c) => ({
        name: c.name,
        email: c.email ?? '',
        phone: c.phone ?? '',
        planId: c.planId as number,
        status: c.status,
        campaignsEnabled: enabled(c.settings),
        dueDate: c.dueDate?.slice(0, 10) ?? '',
        recurrence: c.recurrence || 'MENSAL',
      })}
      load={useCallback(listCompanies, [])}
      save={(values, editing) => {
        const body = { ...values, dueDate: dueDateOrNull(values.dueDate) };
        return editing
          ? api.call(companyEndpoints.updateCompany, { params: { id: editing.id }, body })
          : api.call(companyEndpoints.createCompany, { body });
      }}
      remove={(c) => api.call(companyEndpoints.deleteCompany, { params: { id: c.id } })}
      columns={columns}
      rowSx={(c) => {
        const tint = companyTint(c.dueDate);
        return tint ? { '& > td': { bgcolor: TINT_COLORS[tint], color: '#000' } } : undefined;
      }}
      buttons={(form) => (
        <Button
          variant="outlined"
          data-testid="company-add-due"
          onClick={() =>
            form.setValue(
              'dueDate',
              nextDueDate(
                dueDateOrNull(form.getValues('dueDate')),
                form.getValues('recurrence'),
                localDay(Date.now()),
              ),
              { shouldDirty: true },
            )
          }
        >
          {t('superTabs.companies.addDue')}
        </Button>
      )}
      fields={
        <>
          <FieldRow>
            <TextInput name="name" label={t('superTabs.companies.name')} />
            <TextInput name="email" label={t('superTabs.companies.email')} />
            <TextInput name="phone" label={t('superTabs.companies.phone')} />
          </FieldRow>
          <FieldRow>
            <SelectInput name="planId" label={t('superTabs.companies.plan')} options={plans} />
            <BooleanSelect name="status" label={t('superTabs.companies.status')} options={yesNo} />
            <BooleanSelect
              name="campaignsEnabled"
              label={t('superTabs.companies.campaigns')}
              options={[
                { value: 'true', label: t('superTabs.enabled') },
                { value: 'false', label: t('superTabs.disabled') },
              ]}
            />
          </FieldRow>
          <FieldRow>
            <TextInput
              name="dueDate"
              type="date"
              label={t('superTabs.companies.dueDate')}

              slotProps={{ inputLabel: { shrink: true } }}
            />
            {/* Only MENSAL is offered (admin §3); a company on another keeps it. */}
            <RecurrenceSelect label={t('superTabs.companies.recurrence')} />
          </FieldRow>
        </>
      }
    />
  );
}

/** A yes/no select over a boolean field. */
function BooleanSelect(props: {
  name: string;
  label: string;
  options: { value: string; label: string }[];
}) {
  const { control } = useFormContext();
  return (
    <Controller
      control={control}
      name={props.name}
      render={({ field }) => (
        <TextField
          select
          fullWidth
          label={props.label}
          value={String(Boolean(field.value))}
          onChange={(e) => field.onChange(e.target.value === 'true')}
        >
          {props.options.map((o) => (
            <MenuItem key={o.value} value={o.value}>
              {o.label}
            </MenuItem>
          ))}
        </TextField>
      )}
    />
  );
}

function RecurrenceSelect({ label }: { label: string }) {
  const { control } = useFormContext();
  return (
    <Controller
      control={control}
      name="recurrence"
      render={({ field }) => {
        const value = String(field.value || 'MENSAL');
        const offered = RECURRENCES.filter((r) => r === 'MENSAL' || r === value);
        return (
          <TextField
            select
            fullWidth
            label={label}
            value={value}
            onChange={(e) => field.onChange(e.target.value)}
          >
            {offered.map((r) => (
              <MenuItem key={r} value={r}>
                {r}
              </MenuItem>
            ))}
          </TextField>
        );
      }}
    />
  );
}
