// Token metering of the AI prompts (issue 18 item 1): per company, prompt and day (UTC).
import type { PromptUsageAnswer } from '@atende/shared';
import type { AppContext } from '../../context.js';
import type { openai } from '../automation/index.js';
import type { PromptRow } from './prompts.service.js';

/** Adds one completion's tokens (a server that reports none still counts the request). */
export async function recordUsage(
  app: AppContext,
  prompt: Pick<PromptRow, 'id' | 'companyId' | 'name'>,
  usage: openai.Usage | null,
): Promise<void> {
  await app.ds.query(
    `INSERT INTO prompt_usage ("companyId", "promptId", day, "promptName", "promptTokens",
            "completionTokens", "totalTokens", requests)
     VALUES ($1, $2, (now() AT TIME ZONE 'UTC')::date, $3, $4, $5, $6, 1)
     ON CONFLICT ("companyId", day, "promptId") DO UPDATE SET
       "promptName" = EXCLUDED."promptName",
       "promptTokens" = prompt_usage."promptTokens" + EXCLUDED."promptTokens",
       "completionTokens" = prompt_usage."completionTokens" + EXCLUDED."completionTokens",
       "totalTokens" = prompt_usage."totalTokens" + EXCLUDED."totalTokens",
       requests = prompt_usage.requests + 1`,
    [
      prompt.companyId,
      prompt.id,
      prompt.name,
      usage?.promptTokens ?? 0,
      usage?.completionTokens ?? 0,
      usage?.totalTokens ?? 0,
    ],
  );
}

/** This month's use of the company, in all and per prompt. */
export async function monthUsage(app: AppContext, companyId: number): Promise<PromptUsageAnswer> {
  const rows = (await app.ds.query(
    `SELECT u."promptId", coalesce(p.name, max(u."promptName")) AS name,
            sum(u."promptTokens")::int AS "promptTokens",
            sum(u."completionTokens")::int AS "completionTokens",
            sum(u."totalTokens")::int AS "totalTokens", sum(u.requests)::int AS requests
       FROM prompt_usage u LEFT JOIN prompts p ON p.id = u."promptId" AND p."companyId" = u."companyId"
      WHERE u."companyId" = $1
        AND u.day >= date_trunc('month', now() AT TIME ZONE 'UTC')::date
      GROUP BY u."promptId", p.name ORDER BY sum(u."totalTokens") DESC`,
    [companyId],
  )) as {
    promptId: number;
    name: string;
    promptTokens: number;
    completionTokens: number;
    totalTokens: number;
    requests: number;
  }[];
  const now = new Date();
  const sum = (k: 'promptTokens' | 'completionTokens' | 'totalTokens' | 'requests') =>
    rows.reduce((n, r) => n + r[k], 0);
  return {
    since: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString(),
    promptTokens: sum('promptTokens'),
    completionTokens: sum('completionTokens'),
    totalTokens: sum('totalTokens'),
    requests: sum('requests'),
    prompts: rows.map((r) => ({
      promptId: r.promptId,
      name: r.name,
      totalTokens: r.totalTokens,
      requests: r.requests,
    })),
  };
}
