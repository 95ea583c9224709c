import {
  TYPEBOT_DEFAULTS,
  type QueueIntegrationAnswer,
  type QueueIntegrationInput,
  type QueueIntegrationUpdate,
} from '@atende/shared';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { secretBoxFromConfig, type SecretBox } from '../../lib/secret-box.js';
import {
  credentialView,
  dialogflow,
  loadCredential,
  storeCredential,
  typebot,
  webhook,
  type ClientFailure,
  type Result,
} from '../automation/index.js';
import type { QueueIntegration } from './integration.entity.js';

/** The server's secret box, made once per app. */
const boxes = new WeakMap<AppContext, SecretBox>();
export function boxOf(app: AppContext): SecretBox {
  let box = boxes.get(app);
  if (!box) boxes.set(app, (box = secretBoxFromConfig(app.config)));
  return box;
}

/** A client failure as the 4xx/5xx a route answers: its code, and the safe reason in details. */
export const failureAppError = (f: ClientFailure): AppError =>
  new AppError(f.code, {
    details: { service: f.service, status: f.status ?? null, reason: f.message },
  });

/** What any client sees of an integration: never a credential, only whether one is set. */
export function integrationView(row: QueueIntegration): QueueIntegrationAnswer {
  return {
    id: row.id,
    companyId: row.companyId,
    type: row.type,
    name: row.name,
    projectName: row.projectName,
    jsonContent: '',
    projectId: row.projectId,
    credential: credentialView(
      row.jsonContentSealed ? { sealed: row.jsonContentSealed, last4: row.jsonContentLast4 } : null,
    ),
    signingSecret: credentialView(
      row.webhookSecretSealed
        ? { sealed: row.webhookSecretSealed, last4: row.webhookSecretLast4 }
        : null,
    ),
    language: row.language,
    urlN8N: row.urlN8N,
    typebotSlug: row.typebotSlug,
    typebotExpires: row.typebotExpires,
    typebotDelayMessage: row.typebotDelayMessage,
    typebotKeywordFinish: row.typebotKeywordFinish,
    typebotKeywordRestart: row.typebotKeywordRestart,
    typebotUnknownMessage: row.typebotUnknownMessage,
    typebotRestartMessage: row.typebotRestartMessage,
    createdAt: new Date(row.createdAt).toISOString(),
    updatedAt: new Date(row.updatedAt).toISOString(),
  };
}

const isHttpUrl = (value: string): boolean => {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
};

const owner = (companyId: number, field: 'serviceAccount' | 'webhookSecret') => ({
  companyId,
  kind: 'integration' as const,
  field,
});

/** The Dialogflow client of a saved integration (or of a pasted JSON), endpoints from config. */
export function dialogflowClient(
  app: AppContext,
  json: string,
  language: QueueIntegration['language'],
): Result<dialogflow.DialogflowClient> {
  const account = dialogflow.parseServiceAccount(json);
  if (!account.ok) return account;
  return {
    ok: true,
    value: dialogflow.createDialogflowClient({
      serviceAccount: account.value,
      language,
      apiBaseUrl: app.config.DIALOGFLOW_API_URL,
      tokenUri: app.config.DIALOGFLOW_TOKEN_URI,
    }),
  };
}

/** One client per saved version of an integration, so the Dialogflow token stays cached. */
const dialogflowClients = new WeakMap<AppContext, Map<string, dialogflow.DialogflowClient>>();
export function dialogflowClientOf(
  app: AppContext,
  row: QueueIntegration,
): Result<dialogflow.DialogflowClient> {
  let byRow = dialogflowClients.get(app);
  if (!byRow) dialogflowClients.set(app, (byRow = new Map()));
  const key = `${row.id}:${new Date(row.updatedAt).getTime()}`;
  const cached = byRow.get(key);
  if (cached) return { ok: true, value: cached };
  if (!row.jsonContentSealed)
    return {
      ok: false,
      service: 'dialogflow',
      code: 'ERR_INTEGRATION_CREDENTIALS_INVALID',
      message: 'no service account saved',
    };
  const json = loadCredential(
    boxOf(app),
    owner(row.companyId, 'serviceAccount'),
    { sealed: row.jsonContentSealed },
    'dialogflow',
  );
  if (!json.ok) return json;
  const client = dialogflowClient(app, json.value, row.language);
  if (client.ok) {
    for (const k of byRow.keys()) if (k.startsWith(`${row.id}:`)) byRow.delete(k);
    byRow.set(key, client.value);
  }
  return client;
}

export const typebotClientOf = (row: Pick<QueueIntegration, 'urlN8N' | 'typebotSlug'>) =>
  typebot.createTypebotClient({ baseUrl: row.urlN8N, publicId: row.typebotSlug });

/** The plain signing secret of an n8n/webhook integration, for one delivery. */
export function signingSecretOf(app: AppContext, row: QueueIntegration): Result<string> {
  if (!row.webhookSecretSealed)
    return {
      ok: false,
      service: 'webhook',
      code: 'ERR_INTEGRATION_CREDENTIALS_INVALID',
      message: 'no signing secret saved',
    };
  return loadCredential(
    boxOf(app),
    owner(row.companyId, 'webhookSecret'),
    { sealed: row.webhookSecretSealed },
    'webhook',
  );
}

export type IntegrationColumns = Omit<QueueIntegration, 'id' | 'createdAt' | 'updatedAt'>;

/** A new signing secret, sealed for the row, and its plain value (shown once). */
export function newSigningSecret(app: AppContext, companyId: number) {
  const plain = webhook.generateWebhookSecret();
  const stored = storeCredential(boxOf(app), owner(companyId, 'webhookSecret'), plain);
  return { plain, sealed: stored.sealed, last4: stored.last4 };
}

/**
 * The row to write for a create (`before` undefined) or an update, with the credentials checked
 * against the service: a Dialogflow account is parsed (the field that is wrong is named) and
 * must get a token and answer a detectIntent; a Typebot flow must start. Fields the type does not
 * use are stored empty. Answers the plain signing secret when one was made (shown once).
 */
export async function prepareIntegration(
  app: AppContext,
  companyId: number,
  input: QueueIntegrationInput | QueueIntegrationUpdate,
  before?: QueueIntegration,
): Promise<{ columns: IntegrationColumns; webhookSecret?: string }> {
  const type = input.type ?? before?.type;
  if (!type) throw new AppError('ERR_VALIDATION');
  if (before && input.type && input.type !== before.type)
    throw new AppError('ERR_INTEGRATION_TYPE_LOCKED');
  const name = input.name ?? before?.name ?? '';
  const pick = <K extends keyof QueueIntegration>(key: K, fallback: QueueIntegration[K]) =>
    ((input as Partial<QueueIntegration>)[key] ?? before?.[key] ?? fallback) as QueueIntegration[K];

  const columns: IntegrationColumns = {
    companyId,
    type,
    name,
    projectName: name,
    projectId: null,
    jsonContentSealed: null,
    jsonContentLast4: '',
    webhookSecretSealed: null,
    webhookSecretLast4: '',
    language: pick('language', 'pt-BR'),
    urlN8N: '',
    typebotSlug: '',
    typebotExpires: TYPEBOT_DEFAULTS.expiresMinutes,
    typebotDelayMessage: TYPEBOT_DEFAULTS.delayMessageMs,
    typebotKeywordFinish: '',
    typebotKeywordRestart: '',
    typebotUnknownMessage: '',
    typebotRestartMessage: '',
  };
  let webhookSecret: string | undefined;

  if (type === 'n8n' || type === 'webhook') {
    columns.urlN8N = pick('urlN8N', '');
    if (!isHttpUrl(columns.urlN8N)) throw new AppError('ERR_INTEGRATION_URL_INVALID');
    if (before?.webhookSecretSealed) {
      columns.webhookSecretSealed = before.webhookSecretSealed;
      columns.webhookSecretLast4 = before.webhookSecretLast4;
    } else {
      const secret = newSigningSecret(app, companyId);
      columns.webhookSecretSealed = secret.sealed;
      columns.webhookSecretLast4 = secret.last4;
      webhookSecret = secret.plain;
    }
  }

  if (type === 'typebot') {
    columns.urlN8N = pick('urlN8N', '');
    columns.typebotSlug = pick('typebotSlug', '');
    columns.typebotExpires = pick('typebotExpires', TYPEBOT_DEFAULTS.expiresMinutes);
    columns.typebotDelayMessage = pick('typebotDelayMessage', TYPEBOT_DEFAULTS.delayMessageMs);
    columns.typebotKeywordFinish = pick('typebotKeywordFinish', '').trim();
    columns.typebotKeywordRestart = pick('typebotKeywordRestart', '').trim();
    columns.typebotUnknownMessage = pick('typebotUnknownMessage', '');
    columns.typebotRestartMessage = pick('typebotRestartMessage', '');
    if (!isHttpUrl(columns.urlN8N)) throw new AppError('ERR_INTEGRATION_URL_INVALID');
    if (!columns.typebotSlug) throw new AppError('ERR_INTEGRATION_SLUG_REQUIRED');
    const changed =
      !before || before.urlN8N !== columns.urlN8N || before.typebotSlug !== columns.typebotSlug;
    if (changed) {
      // The flow must exist and start (a wrong URL or slug is refused here, not at the customer).
      const started = await typebotClientOf(columns).startChat();
      if (!started.ok) throw failureAppError(started);
    }
  }

  if (type === 'dialogflow') {
    const pasted = input.jsonContent?.trim() ?? '';
    if (pasted) {
      const account = dialogflow.parseServiceAccount(pasted);
      if (!account.ok) throw failureAppError(account);
      const client = dialogflowClient(app, pasted, columns.language);
      if (!client.ok) throw failureAppError(client);
      const checked = await client.value.check();
      if (!checked.ok) throw failureAppError(checked);
      const stored = storeCredential(
        boxOf(app),
        owner(companyId, 'serviceAccount'),
        pasted,
        account.value.privateKeyId ?? account.value.clientEmail,
      );
      columns.jsonContentSealed = stored.sealed;
      columns.jsonContentLast4 = stored.last4;
      columns.projectId = account.value.projectId;
    } else if (before?.jsonContentSealed) {
      columns.jsonContentSealed = before.jsonContentSealed;
      columns.jsonContentLast4 = before.jsonContentLast4;
      columns.projectId = before.projectId;
      if (columns.language !== before.language) {
        const client = dialogflowClientOf(app, before);
        if (!client.ok) throw failureAppError(client);
      }
    } else throw new AppError('ERR_INTEGRATION_JSON_REQUIRED');
    columns.projectName = pick('projectName', '') || columns.projectId || name;
  }
  return { columns, webhookSecret };
}
