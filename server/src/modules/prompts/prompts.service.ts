// AI prompts (issue 18 item 1): the rows, their sealed keys and what any client may see of them.
import {
  isMaskedSecret,
  PROMPT_FORM_DEFAULTS,
  SECRET_MASK,
  TEXT_VOICE,
  type PromptAnswer,
  type PromptCreate,
  type PromptUpdate,
} from '@atende/shared';
import type { EntityManager } from 'typeorm';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { secretBoxFromConfig } from '../../lib/secret-box.js';
import {
  loadCredential,
  openai,
  storeCredential,
  type CredentialField,
} from '../automation/index.js';

type Db = AppContext['ds'] | EntityManager;

/** A prompt row as stored (the keys sealed). */
export interface PromptRow {
  id: number;
  companyId: number;
  name: string;
  prompt: string;
  apiKeySealed: string;
  apiKeyLast4: string;
  voice: string;
  voiceKeySealed: string;
  voiceKeyLast4: string;
  voiceRegion: string;
  maxTokens: number;
  temperature: number;
  maxMessages: number;
  queueId: number | null;
  baseUrl: string;
  model: string;
  createdAt: Date;
  updatedAt: Date;
  queueName: string | null;
  queueColor: string | null;
}

const SELECT = `SELECT p.*, q.name AS "queueName", q.color AS "queueColor"
                  FROM prompts p LEFT JOIN queues q ON q.id = p."queueId"`;

export async function loadPrompts(db: Db, companyId: number): Promise<PromptRow[]> {
  return (await db.query(`${SELECT} WHERE p."companyId" = $1 ORDER BY p.name, p.id`, [
    companyId,
  ])) as PromptRow[];
}

export async function loadPrompt(
  db: Db,
  companyId: number,
  id: number,
): Promise<PromptRow | undefined> {
  const [row] = (await db.query(`${SELECT} WHERE p."companyId" = $1 AND p.id = $2`, [
    companyId,
    id,
  ])) as PromptRow[];
  return row;
}

async function getPrompt(db: Db, companyId: number, id: number): Promise<PromptRow> {
  const row = await loadPrompt(db, companyId, id);
  if (!row) throw new AppError('ERR_NO_PROMPT_FOUND');
  return row;
}

const masked = (sealed: string, last4: string) => (sealed ? `${SECRET_MASK}${last4}` : '');

/** What every answer carries: the keys only as `••••` and their last 4 characters. */
export function promptView(row: PromptRow): PromptAnswer {
  return {
    id: row.id,
    companyId: row.companyId,
    name: row.name,
    prompt: row.prompt,
    apiKey: masked(row.apiKeySealed, row.apiKeyLast4),
    voice: row.voice,
    voiceKey: masked(row.voiceKeySealed, row.voiceKeyLast4),
    voiceRegion: row.voiceRegion,
    maxTokens: row.maxTokens,
    temperature: Number(row.temperature),
    maxMessages: row.maxMessages,
    queueId: row.queueId,
    baseUrl: row.baseUrl,
    model: row.model,
    queue:
      row.queueId != null && row.queueName != null
        ? { id: row.queueId, name: row.queueName, color: row.queueColor ?? '' }
        : null,
    createdAt: new Date(row.createdAt).toISOString(),
    updatedAt: new Date(row.updatedAt).toISOString(),
  };
}

const owner = (companyId: number, field: CredentialField) => ({
  companyId,
  kind: 'prompt' as const,
  field,
});

export const boxOf = (app: AppContext) => secretBoxFromConfig(app.config);

/** The plain key of a prompt, for the call that uses it (a key that does not open: failure). */
export function promptKey(app: AppContext, row: PromptRow, field: 'apiKey' | 'voiceKey') {
  const sealed = field === 'apiKey' ? row.apiKeySealed : row.voiceKeySealed;
  return loadCredential(boxOf(app), owner(row.companyId, field), { sealed }, 'openai');
}

/** The client of a prompt's OpenAI-compatible server, with its plain key. */
export function promptClient(
  app: AppContext,
  row: Pick<PromptRow, 'baseUrl' | 'model'>,
  key: string,
) {
  return openai.createOpenAiClient({ baseUrl: row.baseUrl, apiKey: key, model: row.model });
}

async function assertQueue(db: Db, companyId: number, queueId: number) {
  const rows = (await db.query('SELECT 1 FROM queues WHERE id = $1 AND "companyId" = $2', [
    queueId,
    companyId,
  ])) as unknown[];
  if (!rows.length) throw new AppError('ERR_NO_QUEUE_FOUND');
}

/**
 * The key is checked against the server before anything is written (`GET /models`: a bad key
 * is ERR_INTEGRATION_AUTH, an unknown model ERR_INTEGRATION_NOT_FOUND), so a saved prompt works.
 */
async function checkKey(app: AppContext, fields: { baseUrl: string; model: string }, key: string) {
  const checked = await promptClient(app, fields, key).check();
  if (!checked.ok) {
    throw new AppError(checked.code, {
      details: { service: checked.service, status: checked.status ?? null },
    });
  }
}

function voiceSettings(voice: string, voiceKey: string, voiceRegion: string) {
  // Azure's voices need a region with the key; without a key, OpenAI's speech stands in.
  if (voice !== TEXT_VOICE && voiceKey && !voiceRegion) {
    throw new AppError('ERR_VALIDATION', {
      details: [{ path: 'body.voiceRegion', message: 'Obrigatório' }],
    });
  }
}

export async function createPrompt(app: AppContext, companyId: number, input: PromptCreate) {
  const fields = { ...PROMPT_FORM_DEFAULTS, ...input };
  await assertQueue(app.ds, companyId, input.queueId!);
  const voiceKey = isMaskedSecret(input.voiceKey) ? '' : input.voiceKey!;
  voiceSettings(fields.voice, voiceKey, fields.voiceRegion);
  await checkKey(app, fields, input.apiKey);
  const box = boxOf(app);
  const api = storeCredential(box, owner(companyId, 'apiKey'), input.apiKey);
  const voice = voiceKey ? storeCredential(box, owner(companyId, 'voiceKey'), voiceKey) : null;
  const [row] = (await app.ds.query(
    `INSERT INTO prompts ("companyId", name, prompt, "apiKeySealed", "apiKeyLast4", voice,
            "voiceKeySealed", "voiceKeyLast4", "voiceRegion", "maxTokens", temperature,
            "maxMessages", "queueId", "baseUrl", model)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15) RETURNING id`,
    [
      companyId,
      fields.name,
      fields.prompt,
      api.sealed,
      api.last4,
      fields.voice,
      voice?.sealed ?? '',
      voice?.last4 ?? '',
      fields.voiceRegion,
      fields.maxTokens,
      fields.temperature,
      fields.maxMessages,
      input.queueId,
      fields.baseUrl,
      fields.model,
    ],
  )) as { id: number }[];
  return getPrompt(app.ds, companyId, row!.id);
}

const COLUMNS = [
  'name',
  'prompt',
  'voice',
  'voiceRegion',
  'maxTokens',
  'temperature',
  'maxMessages',
  'queueId',
  'baseUrl',
  'model',
] as const;

export async function updatePrompt(
  app: AppContext,
  companyId: number,
  id: number,
  input: PromptUpdate,
) {
  const current = await getPrompt(app.ds, companyId, id);
  if (input.queueId !== undefined) await assertQueue(app.ds, companyId, input.queueId);
  const next = {
    baseUrl: input.baseUrl ?? current.baseUrl,
    model: input.model ?? current.model,
  };
  const newKey = isMaskedSecret(input.apiKey) ? undefined : input.apiKey;
  const newVoiceKey = isMaskedSecret(input.voiceKey) ? undefined : input.voiceKey;
  voiceSettings(
    input.voice ?? current.voice,
    newVoiceKey ?? (current.voiceKeySealed ? 'kept' : ''),
    input.voiceRegion ?? current.voiceRegion,
  );
  // A new key, server or model is checked before it is kept.
  if (newKey || next.baseUrl !== current.baseUrl || next.model !== current.model) {
    const key = newKey ?? promptKey(app, current, 'apiKey');
    if (typeof key !== 'string' && !key.ok) {
      throw new AppError(key.code, { details: { service: key.service, status: null } });
    }
    await checkKey(app, next, typeof key === 'string' ? key : key.value);
  }
  const sets: string[] = [];
  const params: unknown[] = [id, companyId];
  for (const column of COLUMNS) {
    const value = input[column];
    if (value !== undefined) sets.push(`"${column}" = $${params.push(value)}`);
  }
  const box = boxOf(app);
  if (newKey) {
    const api = storeCredential(box, owner(companyId, 'apiKey'), newKey);
    sets.push(`"apiKeySealed" = $${params.push(api.sealed)}`);
    sets.push(`"apiKeyLast4" = $${params.push(api.last4)}`);
  }
  if (newVoiceKey) {
    const voice = storeCredential(box, owner(companyId, 'voiceKey'), newVoiceKey);
    sets.push(`"voiceKeySealed" = $${params.push(voice.sealed)}`);
    sets.push(`"voiceKeyLast4" = $${params.push(voice.last4)}`);
  }
  if (sets.length) {
    await app.ds.query(
      `UPDATE prompts SET ${sets.join(', ')}, "updatedAt" = now()
        WHERE id = $1 AND "companyId" = $2`,
      params,
    );
  }
  return getPrompt(app.ds, companyId, id);
}

export async function deletePrompt(app: AppContext, companyId: number, id: number) {
  const rows = (await app.ds.query(
    'DELETE FROM prompts WHERE id = $1 AND "companyId" = $2 RETURNING id',
    [id, companyId],
  )) as [unknown[], number];
  if (!rows[0].length) throw new AppError('ERR_NO_PROMPT_FOUND');
}

export { getPrompt };
