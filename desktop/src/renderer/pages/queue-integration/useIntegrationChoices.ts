import { queueIntegrationEndpoints } from '@atende/shared';
import { useEffect, useState } from 'react';
import { api } from '../../api';
import type { Choice } from '../../kit/fields';
import { useSession } from '../../session/store';
import { useErrorToast } from '../../ui/useErrorToast';

/** Pages read at most for the queue form's select (20 a page). */
const MAX_PAGES = 10;

/**
 * The company's integrations as choices of the queue form (administration §2), read when the
 * dialog opens and the plan allows integrations (otherwise the select offers only 'none').
 */
export function useIntegrationChoices(open: boolean): Choice[] {
  const showError = useErrorToast();
  const allowed = useSession((s) => s.plan?.useIntegrations === true);
  const [choices, setChoices] = useState<Choice[]>([]);
  useEffect(() => {
    if (!open || !allowed) return;
    let live = true;
    (async () => {
      const all: Choice[] = [];
      for (let pageNumber = 1; pageNumber <= MAX_PAGES; pageNumber++) {
        const page = await api.call(queueIntegrationEndpoints.listQueueIntegrations, {
          query: { pageNumber },
        });
        all.push(...page.queueIntegrations.map((i) => ({ value: i.id, label: i.name })));
        if (!page.hasMore) break;
      }
      if (live) setChoices(all);
    })().catch((error: unknown) => live && showError(error));
    return () => {
      live = false;
    };
  }, [open, allowed, showError]);
  return choices;
}
