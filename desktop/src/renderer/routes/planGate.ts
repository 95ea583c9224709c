import type { FeaturePlanFlag } from '@atende/shared';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { useSession } from '../session/store';
import { toast } from '../ui/toast';

/** Secondary §8, §9: the redirect waits 1 s after the toast. */
export const PLAN_REDIRECT_MS = 1_000;

/**
 * A page the company's plan must allow (secondary §2, §8): without the flag, the toast 'Esta
 * empresa não possui permissão para acessar essa página! Estamos lhe redirecionando.' and `/`
 * one second later. Answers whether the page may show (false while the plan is unknown).
 */
export function usePlanGate(flag: FeaturePlanFlag): boolean {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const plan = useSession((s) => s.plan);
  const allowed = plan?.[flag] === true;
  const refused = plan !== null && !allowed;
  useEffect(() => {
    if (!refused) return;
    toast.error(t('errors.noCompanyPermission'));
    const timer = setTimeout(() => navigate('/', { replace: true }), PLAN_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [refused, navigate, t]);
  return allowed;
}
