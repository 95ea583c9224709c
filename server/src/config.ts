import { z } from 'zod';

const DEFAULT_SECRET = 'atende-dev-secret-change-me';
/** The seeded super user's password outside production when ADMIN_PASSWORD is unset. */
const DEV_ADMIN_PASSWORD = 'admin123';

const bool = z
  .enum(['on', 'off', 'true', 'false', '1', '0'])
  .transform((v) => v === 'on' || v === 'true' || v === '1');

const schema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    ROLE: z.enum(['api', 'worker', 'all']).default('all'),
    PORT: z.coerce.number().int().min(0).max(65535).default(8080),
    HOST: z.string().default('0.0.0.0'),
    DATA_DIR: z.string().default('.data'),
    DATABASE_URL: z.string().url().optional(),
    DB_POOL_SIZE: z.coerce.number().int().min(1).max(500).default(20),
    REDIS_URL: z.string().url().default('redis://127.0.0.1:6379'),
    REDIS_PREFIX: z.string().default('atende'),
    JWT_SECRET: z.string().min(16).default(DEFAULT_SECRET),
    JWT_REFRESH_SECRET: z.string().min(16).default(`${DEFAULT_SECRET}-refresh`),
    ACCESS_TOKEN_TTL: z.string().default('15m'),
    REFRESH_TOKEN_TTL: z.string().default('7d'),
    ADMIN_EMAIL: z.string().email().default('admin@atende.local'),
    /** Unset in production: the seed generates a random password and prints it once. */
    ADMIN_PASSWORD: z.string().min(5).optional(),
    SMTP_URL: z.string().url().optional(),
    MAIL_FROM: z.string().default('Atende <no-reply@atende.local>'),
    SIMULATOR: bool.optional(),
    WEB_DIR: z.string().optional(),
    CORS_ORIGIN: z.string().optional(),
    LOG_LEVEL: z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
      .default('info'),
    LOGIN_RATE_LIMIT: z.coerce.number().int().positive().default(10),
    LOGIN_RATE_WINDOW_MS: z.coerce
      .number()
      .int()
      .positive()
      .default(15 * 60_000),
    /** External messages API: calls per connection token per minute (issue 18 item 3). */
    EXTERNAL_API_RATE_LIMIT: z.coerce.number().int().positive().default(60),
    /** Concurrent refreshes with one refresh token all succeed within this window. */
    REFRESH_GRACE_MS: z.coerce.number().int().min(0).default(30_000),
    SIGNUP_RATE_LIMIT: z.coerce.number().int().positive().default(5),
    SIGNUP_GLOBAL_LIMIT: z.coerce.number().int().positive().default(60),
    SIGNUP_RATE_WINDOW_MS: z.coerce
      .number()
      .int()
      .positive()
      .default(60 * 60_000),
    FORGOT_RATE_LIMIT: z.coerce.number().int().positive().default(5),
    FORGOT_RATE_WINDOW_MS: z.coerce
      .number()
      .int()
      .positive()
      .default(60 * 60_000),
    /** `GET /metrics` answers only with `Authorization: Bearer <METRICS_TOKEN>`; unset = off. */
    METRICS_TOKEN: z.string().min(16).optional(),
    JSON_LIMIT: z.string().default('1mb'),
    MAX_SESSIONS_PER_PROCESS: z.coerce.number().int().positive().default(200),
    /** A session's lease; a dead worker's sessions are taken over within this time. */
    SESSION_LEASE_MS: z.coerce.number().int().min(1000).default(15_000),
    /** Outbound pace per connection: a token bucket of OUTBOUND_BURST refilled per minute. */
    OUTBOUND_PER_MINUTE: z.coerce.number().positive().default(60),
    OUTBOUND_BURST: z.coerce.number().int().positive().default(10),
    UPLOAD_MAX_BYTES: z.coerce
      .number()
      .int()
      .positive()
      .default(64 * 1024 * 1024),
    MEDIA_QUOTA_MB: z.coerce.number().nonnegative().default(2048),
    /** The server's public base URL (https://atende.example.com) for absolute media links. */
    PUBLIC_URL: z
      .string()
      .url()
      .transform((u) => u.replace(/\/+$/, ''))
      .optional(),
    /** How long a signed media link (`/media/<file>?c=&exp=&sig=`) stays valid. */
    MEDIA_URL_TTL_SECONDS: z.coerce.number().int().min(60).default(7200),
    TICKET_AUTO_CLOSE_HOURS: z.coerce.number().nonnegative().default(24),
    /** A schedule whose time passed while no worker ran is still sent this long after; later it is PERDIDA. */
    SCHEDULE_GRACE_MINUTES: z.coerce.number().nonnegative().default(60),
    /** Dialogflow ES endpoints (queue integrations): unset is Google's; tests point them at stand-ins. */
    DIALOGFLOW_API_URL: z.string().url().optional(),
    DIALOGFLOW_TOKEN_URI: z.string().url().optional(),
    /** Key material for credentials encrypted at rest (src/lib/secret-box.ts); unset: derived from JWT_SECRET. */
    SECRETS_KEY: z.string().min(32).optional(),
    /** Former SECRETS_KEY values, comma-separated, still accepted for reading during a rotation. */
    SECRETS_KEY_PREVIOUS: z
      .string()
      .transform((v) =>
        v
          .split(',')
          .map((k) => k.trim())
          .filter(Boolean),
      )
      .pipe(z.array(z.string().min(32)))
      .optional(),
  })
  .superRefine((env, ctx) => {
    if (env.NODE_ENV === 'production' && env.JWT_SECRET.startsWith(DEFAULT_SECRET)) {
      ctx.addIssue({ code: 'custom', path: ['JWT_SECRET'], message: 'must be set in production' });
    }
    if (env.NODE_ENV === 'production' && env.JWT_REFRESH_SECRET.startsWith(DEFAULT_SECRET)) {
      ctx.addIssue({
        code: 'custom',
        path: ['JWT_REFRESH_SECRET'],
        message: 'must be set in production',
      });
    }
    if (env.NODE_ENV === 'production' && env.ADMIN_PASSWORD === DEV_ADMIN_PASSWORD) {
      ctx.addIssue({
        code: 'custom',
        path: ['ADMIN_PASSWORD'],
        message: 'must not be the development default in production (unset it to generate one)',
      });
    }
  })
  .transform((env) => ({
    ...env,
    SIMULATOR: env.SIMULATOR ?? env.NODE_ENV !== 'production',
    ADMIN_PASSWORD:
      env.ADMIN_PASSWORD ?? (env.NODE_ENV === 'production' ? undefined : DEV_ADMIN_PASSWORD),
  }));

export type Config = z.infer<typeof schema>;

export class ConfigError extends Error {}

/** Parses the environment; the error names every offending variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // An empty variable counts as unset (docker-compose and shells pass FOO= often).
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== ''));
  const parsed = schema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid environment: ${lines.join('; ')}`);
  }
  return parsed.data;
}
