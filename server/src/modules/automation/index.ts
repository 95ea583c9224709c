// Automation: the clients of outside services (OpenAI-compatible servers, Typebot, Dialogflow ES,
// webhooks and n8n) and the sealed credentials of prompts and integrations (see CONTEXT.md). No
// routes, workers or listeners yet: the prompts and queue-integration features add them here.
import { defineModule } from '../manifest.js';

export const automationModule = defineModule({ name: 'automation' });

// What other modules use (they import this module only through this file).
export * from './credentials.js';
export * as openai from './clients/openai.js';
export * as openaiHistory from './clients/openai-history.js';
export * as typebot from './clients/typebot.js';
export * as typebotFlow from './clients/typebot-flow.js';
export * as dialogflow from './clients/dialogflow.js';
export * as webhook from './clients/webhook.js';
export type { ClientFailure, Result } from './clients/result.js';
export * as openaiAzureSpeech from './clients/openai-azure-speech.js';
