import { promptEndpoints, type PromptAnswer, type PromptUsageAnswer } from '@atende/shared';
import Alert from '@mui/material/Alert';
import Stack from '@mui/material/Stack';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import { ListPage, useResourceList, type Column } from '../../kit';
import { PromptDialog } from './PromptDialog';
import { usePlanGate } from '../../routes/planGate';
import './i18n';

/** This month's token use of the company's prompts (issue 18: metering shown to the admin). */
function Usage({ refresh }: { refresh: number }) {
  const { t } = useTranslation();
  const [usage, setUsage] = useState<PromptUsageAnswer | null>(null);
  useEffect(() => {
    let live = true;
    api
      .call(promptEndpoints.promptUsage, {})
      .then((u) => live && setUsage(u))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [refresh]);
  if (!usage) return null;
  return (
    <Alert severity="info" data-testid="prompt-usage">
      {t('prompts.usage', {
        tokens: usage.totalTokens.toLocaleString(),
        requests: usage.requests.toLocaleString(),
      })}
    </Alert>
  );
}

function Prompts() {
  const { t } = useTranslation();
  const [saves, setSaves] = useState(0);
  const list = useResourceList<PromptAnswer>({ path: '/prompt', rows: 'prompts', event: 'prompt' });
  const columns: Column<PromptAnswer>[] = [
    { key: 'name', label: t('prompts.name'), render: (p) => p.name },
    {
      key: 'queue',
      label: t('prompts.queue'),
      align: 'center',
      render: (p) => p.queue?.name ?? '',
    },
    {
      key: 'maxTokens',
      label: t('prompts.maxTokens'),
      align: 'center',
      render: (p) => p.maxTokens,
    },
  ];
  return (
    <ListPage
      texts="prompts"
      list={list}
      columns={columns}
      testId="prompt"
      empty={t('prompts.empty')}
      deleteMessage={t('prompts.deleteMessage')}
      onSaved={() => setSaves((n) => n + 1)}
      banner={
        <Stack spacing={1} sx={{ mb: 1 }}>
          <Alert severity="warning" data-testid="prompt-credit-warning">
            {t('prompts.warning')}
          </Alert>
          <Usage refresh={saves} />
        </Stack>
      }
      dialog={(props) => <PromptDialog {...props} />}
    />
  );
}

/** Prompts page (secondary §2, /prompts): only with the plan's useOpenAi. */
export default function PromptsPage() {
  return usePlanGate('useOpenAi') ? <Prompts /> : null;
}
