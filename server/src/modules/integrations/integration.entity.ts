import { EntitySchema } from 'typeorm';
import type { DialogflowLanguage, IntegrationType } from '@atende/shared';

/**
 * A queue integration (secondary §3; issue 18 item 2). Credentials are two columns each
 * (`…Sealed`, `…Last4`, see automation/credentials.ts): the Dialogflow service-account JSON and
 * the n8n/webhook signing secret. `projectId` is read from the JSON when it is saved.
 */
export interface QueueIntegration {
  id: number;
  companyId: number;
  type: IntegrationType;
  name: string;
  projectName: string;
  projectId: string | null;
  jsonContentSealed: string | null;
  jsonContentLast4: string;
  webhookSecretSealed: string | null;
  webhookSecretLast4: string;
  language: DialogflowLanguage;
  urlN8N: string;
  typebotSlug: string;
  typebotExpires: number;
  typebotDelayMessage: number;
  typebotKeywordFinish: string;
  typebotKeywordRestart: string;
  typebotUnknownMessage: string;
  typebotRestartMessage: string;
  createdAt: Date;
  updatedAt: Date;
}

export const QueueIntegrationEntity = new EntitySchema<QueueIntegration>({
  name: 'QueueIntegration',
  tableName: 'queue_integrations',
  columns: {
    id: { type: Number, primary: true, generated: true },
    companyId: { type: Number },
    type: { type: String },
    name: { type: String },
    projectName: { type: String },
    projectId: { type: String, nullable: true },
    jsonContentSealed: { type: String, nullable: true },
    jsonContentLast4: { type: String },
    webhookSecretSealed: { type: String, nullable: true },
    webhookSecretLast4: { type: String },
    language: { type: String },
    urlN8N: { type: String },
    typebotSlug: { type: String },
    typebotExpires: { type: Number },
    typebotDelayMessage: { type: Number },
    typebotKeywordFinish: { type: String },
    typebotKeywordRestart: { type: String },
    typebotUnknownMessage: { type: String },
    typebotRestartMessage: { type: String },
    createdAt: { type: 'timestamptz', createDate: true },
    updatedAt: { type: 'timestamptz', updateDate: true },
  },
});
