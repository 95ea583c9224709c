import { useCallback, useEffect, useState } from 'react';
import { api } from '../../api';
import type { Setting } from '../../api/types';
import { useCompanyEvent } from '../../session/useRealtime';
import { useErrorToast } from '../../ui/useErrorToast';

/** The company settings as a key → value map, kept live by the settings event. */
export function useSettings() {
  const showError = useErrorToast();
  const [values, setValues] = useState<Record<string, string>>({});
  const [loaded, setLoaded] = useState(false);

  useEffect(() => {
    api
      .get<Setting[]>('/settings')
      .then((rows) => setValues(Object.fromEntries(rows.map((r) => [r.key, r.value]))))
      .catch(showError)
      .finally(() => setLoaded(true));
  }, [showError]);

  useCompanyEvent('settings', (payload) => {
    const { setting } = payload as { setting?: Setting };
    if (setting) setValues((v) => ({ ...v, [setting.key]: setting.value }));
  });

  const set = useCallback((key: string, value: string) => {
    setValues((v) => ({ ...v, [key]: value }));
  }, []);

  return { values, loaded, set };
}
