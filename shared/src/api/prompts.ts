import { z } from 'zod';
import { PROMPT_DEFAULTS, TEXT_VOICE } from '../domain/automation.js';
import { endpoint } from './endpoint.js';
import {
  idParams,
  lineSchema,
  messageAnswer,
  ref,
  textSchema,
  wireDate,
  wireInt,
} from './common.js';
import { SECRET_MASK } from './settings.js';

/**
 * AI prompts (secondary §2, §3, §9; issue 18 item 1). The fields are Whaticket's (`voiceKey`,
 * `voiceRegion` are Azure Speech's key and region); `baseUrl` and `model` name the
 * OpenAI-compatible server, so a local one works. Keys are sealed on save and answered only as
 * `••••` and their last 4 characters.
 */

/** The 15 Brazilian Portuguese neural voices (Azure Speech) a prompt may answer with. */
export const PROMPT_VOICES = [
  'pt-BR-FranciscaNeural',
  'pt-BR-AntonioNeural',
  'pt-BR-BrendaNeural',
  'pt-BR-DonatoNeural',
  'pt-BR-ElzaNeural',
  'pt-BR-FabioNeural',
  'pt-BR-GiovannaNeural',
  'pt-BR-HumbertoNeural',
  'pt-BR-JulioNeural',
  'pt-BR-LeilaNeural',
  'pt-BR-LeticiaNeural',
  'pt-BR-ManuelaNeural',
  'pt-BR-NicolauNeural',
  'pt-BR-ValerioNeural',
  'pt-BR-YaraNeural',
] as const;
export type PromptVoice = (typeof PROMPT_VOICES)[number];

/** The female voices (the rest are male): which OpenAI voice stands in without Azure. */
export const FEMALE_PROMPT_VOICES: readonly PromptVoice[] = [
  'pt-BR-FranciscaNeural',
  'pt-BR-BrendaNeural',
  'pt-BR-ElzaNeural',
  'pt-BR-GiovannaNeural',
  'pt-BR-LeilaNeural',
  'pt-BR-LeticiaNeural',
  'pt-BR-ManuelaNeural',
  'pt-BR-YaraNeural',
];

export const PROMPT_DEFAULT_MODEL = 'gpt-4o-mini';
export const PROMPT_DEFAULT_BASE_URL = 'https://api.openai.com/v1';

/** A key as typed: empty or the masked form on an edit keeps the stored one. */
const secretInput = lineSchema(500).trim();
export const isMaskedSecret = (value: string | undefined): boolean =>
  value === undefined || value === '' || value.startsWith(SECRET_MASK);

const httpUrl = lineSchema(500)
  .trim()
  .regex(/^https?:\/\/[^\s/?#@]+(\/[^\s?#]*)?$/i, 'URL inválida');

/** Numbers as Whaticket's form sends them (strings or numbers). */
const num = (min: number, max: number) => z.coerce.number().min(min).max(max);
const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

export const promptFields = z.object({
  name: lineSchema(100).trim().min(1, 'Obrigatório'),
  prompt: textSchema(20_000).trim().min(1, 'Obrigatório'),
  apiKey: secretInput,
  /** The queue the prompt belongs to and hands customers to (required: 'Informe o setor'). */
  queueId: z.preprocess(
    (v) => (v === '' || v === false || v === 0 || v === '0' || v === null ? undefined : v),
    ref('queue').optional(),
  ),
  maxTokens: int(10, 4096),
  temperature: num(0, 2),
  maxMessages: int(1, 50),
  voice: z.enum([TEXT_VOICE, ...PROMPT_VOICES]),
  voiceKey: secretInput,
  voiceRegion: lineSchema(50).trim(),
  baseUrl: httpUrl,
  model: lineSchema(100).trim().min(1, 'Obrigatório'),
});

/** A new prompt's fields: name, prompt and key required; the rest has the defaults of §9. */
export const promptCreateFields = promptFields.partial().extend({
  name: promptFields.shape.name,
  prompt: promptFields.shape.prompt,
  apiKey: secretInput.min(1, 'Obrigatório'),
});

/** The queue is required too, with secondary §8's message ('Informe o setor'). */
export const requireQueue = <T extends { queueId?: number }>(v: T, ctx: z.RefinementCtx) => {
  if (v.queueId === undefined) {
    ctx.addIssue({ code: 'custom', path: ['queueId'], message: 'Informe o setor' });
  }
};

export const promptCreate = promptCreateFields.superRefine(requireQueue);
export type PromptCreate = z.infer<typeof promptCreate>;

export const promptUpdate = promptFields.partial();
export type PromptUpdate = z.infer<typeof promptUpdate>;

export const PROMPT_FORM_DEFAULTS = {
  ...PROMPT_DEFAULTS,
  voiceRegion: '',
  baseUrl: PROMPT_DEFAULT_BASE_URL,
  model: PROMPT_DEFAULT_MODEL,
} as const;

/** A prompt as answered: keys masked (`••••abcd`), never in clear. */
export const promptAnswer = z.object({
  id: wireInt,
  companyId: wireInt,
  name: z.string(),
  prompt: z.string(),
  apiKey: z.string(),
  voice: z.string(),
  voiceKey: z.string(),
  voiceRegion: z.string(),
  maxTokens: wireInt,
  temperature: z.number(),
  maxMessages: wireInt,
  queueId: wireInt.nullable(),
  baseUrl: z.string(),
  model: z.string(),
  queue: z.object({ id: wireInt, name: z.string(), color: z.string() }).nullable(),
  createdAt: wireDate,
  updatedAt: wireDate,
});
export type PromptAnswer = z.infer<typeof promptAnswer>;

/** Token use of the company's prompts (issue 18: metering shown to the admin). */
export const promptUsageAnswer = z.object({
  /** The current month, from its first day (UTC). */
  since: wireDate,
  promptTokens: wireInt,
  completionTokens: wireInt,
  totalTokens: wireInt,
  requests: wireInt,
  prompts: z.array(
    z.object({
      promptId: wireInt.nullable(),
      name: z.string(),
      totalTokens: wireInt,
      requests: wireInt,
    }),
  ),
});
export type PromptUsageAnswer = z.infer<typeof promptUsageAnswer>;

export const promptEndpoints = {
  listPrompts: endpoint({
    method: 'get',
    path: '/prompt',
    summary: "The company's AI prompts (keys masked)",
    tag: 'prompts',
    access: 'admin',
    plan: 'useOpenAi',
    query: z.object({ searchParam: z.unknown().optional() }).passthrough(),
    response: z.object({ prompts: z.array(promptAnswer), hasMore: z.boolean().optional() }),
  }),
  promptUsage: endpoint({
    method: 'get',
    path: '/prompt/usage',
    summary: "The tokens the company's prompts used this month",
    tag: 'prompts',
    access: 'admin',
    plan: 'useOpenAi',
    response: promptUsageAnswer,
  }),
  showPrompt: endpoint({
    method: 'get',
    path: '/prompt/:id',
    summary: 'One prompt (keys masked)',
    tag: 'prompts',
    access: 'admin',
    plan: 'useOpenAi',
    params: idParams,
    response: promptAnswer,
  }),
  createPrompt: endpoint({
    method: 'post',
    path: '/prompt',
    summary: 'Creates a prompt; its key is checked against the server and sealed',
    tag: 'prompts',
    access: 'admin',
    plan: 'useOpenAi',
    body: promptCreate,
    status: 201,
    response: promptAnswer,
  }),
  updatePrompt: endpoint({
    method: 'put',
    path: '/prompt/:id',
    summary: 'Changes a prompt (an empty or masked key keeps the stored one)',
    tag: 'prompts',
    access: 'admin',
    plan: 'useOpenAi',
    params: idParams,
    body: promptUpdate,
    response: promptAnswer,
  }),
  deletePrompt: endpoint({
    method: 'delete',
    path: '/prompt/:id',
    summary: 'Deletes a prompt (queues and connections using it lose it)',
    tag: 'prompts',
    access: 'admin',
    plan: 'useOpenAi',
    params: idParams,
    response: messageAnswer,
  }),
} as const;
