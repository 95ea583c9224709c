import { promptEndpoints } from '@atende/shared';
import { useEffect, useState } from 'react';
import { api } from '../../api';
import type { Choice } from '../../kit/fields';
import { useSession } from '../../session/store';
import { useErrorToast } from '../../ui/useErrorToast';

/**
 * The prompts a queue or connection may use (admin §2 dialogs): the company's prompts by name,
 * asked only when the plan has useOpenAi (else there are none to offer).
 */
export function usePromptChoices(enabled: boolean): Choice[] {
  const showError = useErrorToast();
  const allowed = useSession((s) => s.plan?.useOpenAi === true);
  const [choices, setChoices] = useState<Choice[]>([]);
  useEffect(() => {
    if (!enabled || !allowed) return;
    let live = true;
    api
      .call(promptEndpoints.listPrompts, {})
      .then(
        ({ prompts }) => live && setChoices(prompts.map((p) => ({ value: p.id, label: p.name }))),
      )
      .catch((error: unknown) => live && showError(error));
    return () => {
      live = false;
    };
  }, [enabled, allowed, showError]);
  return choices;
}
