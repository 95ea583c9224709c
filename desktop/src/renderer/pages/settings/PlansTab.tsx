import { planEndpoints, PLAN_FLAGS, type PlanAnswer, type PlanFlag } from '@atende/shared';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useCallback } from 'react';
import { Controller, useFormContext } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { api } from '../../api';
import { FieldRow, TextInput, type Column } from '../../kit';
import { FormTable } from './FormTable';
import { money } from './format';
import './i18n';

/**
 * What the form and the table show for a flag: 'Sim' when on, except `useInternal`, which is
 * inverted (admin §3: false shows 'Sim' for an internal plan).
 */
export const flagShown = (flag: PlanFlag, value: boolean): boolean =>
  flag === 'useInternal' ? !value : value;

const count = z.coerce.number({ error: 'Required' }).int().min(0).max(100_000);
const planForm = z.object({
  name: z.string().trim().min(2, 'Too Short!').max(100, 'Too Long!'),
  users: count,
  connections: count,
  queues: count,
  value: z.coerce.number({ error: 'Required' }).min(0).max(1_000_000),
  ...(Object.fromEntries(PLAN_FLAGS.map((f) => [f, z.boolean()])) as Record<
    PlanFlag,
    z.ZodBoolean
  >),
});
type PlanForm = z.input<typeof planForm>;

const EMPTY = {
  name: '',
  users: 0,
  connections: 0,
  queues: 0,
  value: 0,
  ...Object.fromEntries(PLAN_FLAGS.map((f) => [f, true])),
} as PlanForm;

const listPlans = () => api.call(planEndpoints.planList);

/** Plans tab (admin §2, §3): users, connections, queues, value in BRL and every flag. */
export function PlansTab() {
  const { t } = useTranslation();
  const yesNo = (on: boolean) => (on ? t('common.yes') : t('common.no'));
  const columns: Column<PlanAnswer>[] = [
    { key: 'name', label: t('superTabs.plans.name'), render: (p) => p.name },
    { key: 'users', label: t('superTabs.plans.users'), align: 'center', render: (p) => p.users },
    {
      key: 'connections',
      label: t('superTabs.plans.connections'),
      align: 'center',
      render: (p) => p.connections,
    },
    { key: 'queues', label: t('superTabs.plans.queues'), align: 'center', render: (p) => p.queues },
    { key: 'value', label: t('superTabs.plans.value'), render: (p) => money(p.value) },
    ...PLAN_FLAGS.map((flag): Column<PlanAnswer> => ({
      key: flag,
      label: t(`superTabs.plans.flags.${flag}`),
      align: 'center',
      render: (p) => yesNo(flagShown(flag, p[flag])),
    })),
  ];
  return (
    <FormTable<PlanAnswer, PlanForm, z.output<typeof planForm>>
      testId="plan"
      what={t('superTabs.plans.what')}
      schema={planForm}
      empty={EMPTY}
      valuesOf={(p) =>
        ({
          name: p.name,
          users: p.users,
          connections: p.connections,
          queues: p.queues,
          value: p.value,
          ...Object.fromEntries(PLAN_FLAGS.map((f) => [f, p[f]])),
        }) as PlanForm
      }
      load={useCallback(listPlans, [])}
      save={(body, editing) =>
        editing
          ? api.call(planEndpoints.updatePlan, { params: { id: editing.id }, body })
          : api.call(planEndpoints.createPlan, { body })
      }
      remove={(p) => api.call(planEndpoints.deletePlan, { params: { id: p.id } })}
      columns={columns}
      fields={
        <>
          <FieldRow>
            <TextInput name="name" label={t('superTabs.plans.name')} size="small" />
            <TextInput name="users" type="number" label={t('superTabs.plans.users')} size="small" />
            <TextInput
              name="connections"
              type="number"
              label={t('superTabs.plans.connections')}
              size="small"
            />
            <TextInput
              name="queues"
              type="number"
              label={t('superTabs.plans.queues')}
              size="small"
            />
            <TextInput
              name="value"
              type="number"
              label={t('superTabs.plans.value')}
              size="small"
              slotProps={{ htmlInput: { step: '0.01', min: 0 } }}
            />
          </FieldRow>
          <FieldRow>
            {PLAN_FLAGS.map((flag) => (
              <FlagSelect key={flag} flag={flag} label={t(`superTabs.plans.flags.${flag}`)} />
            ))}
          </FieldRow>
        </>
      }
    />
  );
}

/** A flag as a Sim/Não select; `useInternal` inverted (admin §3). */
function FlagSelect({ flag, label }: { flag: PlanFlag; label: string }) {
  const { t } = useTranslation();
  const { control } = useFormContext();
  return (
    <Controller
      control={control}
      name={flag}
      render={({ field }) => (
        <TextField
          select
          fullWidth
          size="small"
          label={label}
          value={flagShown(flag, Boolean(field.value)) ? 'yes' : 'no'}
          onChange={(e) => field.onChange(flagShown(flag, e.target.value === 'yes'))}
          slotProps={{
            select: { SelectDisplayProps: { 'data-testid': `plan-${flag}` } as object },
          }}
        >
          <MenuItem value="yes">{t('common.yes')}</MenuItem>
          <MenuItem value="no">{t('common.no')}</MenuItem>
        </TextField>
      )}
    />
  );
}
