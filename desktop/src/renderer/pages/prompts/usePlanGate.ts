import type { FeaturePlanFlag } from '@atende/shared';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { useSession } from '../../session/store';
import { toast } from '../../ui/toast';
import './i18n';

/** Secondary §8: the redirect after the no-permission toast. */
export const PLAN_REDIRECT_MS = 1_000;

/**
 * A page behind a plan flag (secondary §2, §6, §8): without it the error toast 'Esta empresa não
 * possui permissão para acessar essa página! Estamos lhe redirecionando.' and `/` after 1 s.
 * Answers whether the page may show (false while the plan is loading, too).
 */
export function usePlanGate(flag: FeaturePlanFlag): boolean {
  const plan = useSession((s) => s.plan);
  const navigate = useNavigate();
  const { t } = useTranslation();
  const denied = plan !== null && !plan[flag];
  useEffect(() => {
    if (!denied) return;
    toast.error(t('planGate.denied'));
    const timer = setTimeout(() => navigate('/'), PLAN_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [denied, navigate, t]);
  return plan !== null && plan[flag];
}
