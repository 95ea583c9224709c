import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * AI prompts and the external messages API (issue 18 items 1 and 3).
 *
 * - `prompts`: keys sealed (`lib/secret-box.ts`) with their last 4 characters beside them;
 *   `queues.promptId` and `whatsapps.promptId` now reference them (a deleted prompt leaves them).
 * - `prompt_turns`: one row per ticket the AI answers: the newest customer message to answer,
 *   when (the debounce), the lease of the one completion running, and when the AI stopped.
 * - `prompt_transcriptions`: what the customer said in an audio (speech to text), once.
 * - `prompt_usage`: tokens per company, prompt and day (the admin's metering).
 * - `whatsapps.token` holds `sha256:<hex>` of the connection's API token from now on, with
 *   `tokenLast4` to show; existing tokens are hashed in place.
 * - `external_api_requests`: the answer of each `Idempotency-Key`, per connection.
 */
export class PromptsAndExternalApi1732242800000 implements MigrationInterface {
  name = 'PromptsAndExternalApi1732242800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE prompts (
        id serial PRIMARY KEY,
        "companyId" integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
        name varchar(100) NOT NULL,
        prompt text NOT NULL,
        "apiKeySealed" text NOT NULL,
        "apiKeyLast4" varchar(4) NOT NULL DEFAULT '',
        voice varchar(60) NOT NULL DEFAULT 'texto',
        "voiceKeySealed" text NOT NULL DEFAULT '',
        "voiceKeyLast4" varchar(4) NOT NULL DEFAULT '',
        "voiceRegion" varchar(50) NOT NULL DEFAULT '',
        "maxTokens" integer NOT NULL DEFAULT 100 CHECK ("maxTokens" BETWEEN 10 AND 4096),
        temperature real NOT NULL DEFAULT 1 CHECK (temperature BETWEEN 0 AND 2),
        "maxMessages" integer NOT NULL DEFAULT 10 CHECK ("maxMessages" BETWEEN 1 AND 50),
        "queueId" integer REFERENCES queues(id) ON DELETE SET NULL,
        "baseUrl" varchar(500) NOT NULL DEFAULT 'https://api.openai.com/v1',
        model varchar(100) NOT NULL DEFAULT 'gpt-4o-mini',
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX prompts_company ON prompts ("companyId", name);

      UPDATE queues SET "promptId" = NULL WHERE "promptId" IS NOT NULL;
      UPDATE whatsapps SET "promptId" = NULL WHERE "promptId" IS NOT NULL;
      ALTER TABLE queues ADD CONSTRAINT queues_prompt_fk
        FOREIGN KEY ("promptId") REFERENCES prompts(id) ON DELETE SET NULL;
      ALTER TABLE whatsapps ADD CONSTRAINT whatsapps_prompt_fk
        FOREIGN KEY ("promptId") REFERENCES prompts(id) ON DELETE SET NULL;

      CREATE TABLE prompt_turns (
        "ticketId" integer PRIMARY KEY REFERENCES tickets(id) ON DELETE CASCADE,
        "companyId" integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
        "promptId" integer NOT NULL REFERENCES prompts(id) ON DELETE CASCADE,
        "messageId" integer NOT NULL,
        "answeredMessageId" integer NOT NULL DEFAULT 0,
        "dueAt" timestamptz NOT NULL,
        "leaseUntil" timestamptz,
        attempts integer NOT NULL DEFAULT 0,
        "stoppedAt" timestamptz,
        "stopReason" varchar(40),
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX prompt_turns_due ON prompt_turns ("dueAt")
        WHERE "stoppedAt" IS NULL AND "messageId" > "answeredMessageId";
      CREATE INDEX prompt_turns_company ON prompt_turns ("companyId");

      CREATE TABLE prompt_transcriptions (
        "messageId" integer PRIMARY KEY REFERENCES messages(id) ON DELETE CASCADE,
        "companyId" integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
        text text NOT NULL,
        "createdAt" timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX prompt_transcriptions_company ON prompt_transcriptions ("companyId");

      CREATE TABLE prompt_usage (
        "companyId" integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
        "promptId" integer NOT NULL,
        day date NOT NULL,
        "promptName" varchar(100) NOT NULL,
        "promptTokens" bigint NOT NULL DEFAULT 0,
        "completionTokens" bigint NOT NULL DEFAULT 0,
        "totalTokens" bigint NOT NULL DEFAULT 0,
        requests integer NOT NULL DEFAULT 0,
        PRIMARY KEY ("companyId", day, "promptId")
      );

      ALTER TABLE whatsapps ADD COLUMN "tokenLast4" varchar(4) NOT NULL DEFAULT '';
      UPDATE whatsapps SET
        "tokenLast4" = right(token, 4),
        token = 'sha256:' || encode(sha256(convert_to(token, 'UTF8')), 'hex')
       WHERE token NOT LIKE 'sha256:%';

      CREATE TABLE external_api_requests (
        id serial PRIMARY KEY,
        "companyId" integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
        "whatsappId" integer NOT NULL REFERENCES whatsapps(id) ON DELETE CASCADE,
        "idempotencyKey" varchar(200) NOT NULL,
        "requestHash" varchar(64) NOT NULL,
        answer jsonb,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        UNIQUE ("whatsappId", "idempotencyKey")
      );
      CREATE INDEX external_api_requests_company ON external_api_requests ("companyId", "createdAt");
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TABLE external_api_requests;
      ALTER TABLE whatsapps DROP COLUMN "tokenLast4";
      DROP TABLE prompt_usage;
      DROP TABLE prompt_transcriptions;
      DROP TABLE prompt_turns;
      ALTER TABLE whatsapps DROP CONSTRAINT whatsapps_prompt_fk;
      ALTER TABLE queues DROP CONSTRAINT queues_prompt_fk;
      DROP TABLE prompts;
    `);
  }
}
