import { z } from 'zod';
import { endpoint } from './endpoint.js';
import { lineSchema, wireDate, wireInt } from './common.js';

/** Company settings of admin §3, with their defaults. Switches hold 'enabled' or 'disabled'. */
export const COMPANY_SETTING_DEFAULTS = {
  userRating: 'disabled',
  scheduleType: 'disabled',
  call: 'enabled',
  CheckMsgIsGroup: 'enabled',
  sendGreetingAccepted: 'disabled',
  sendMsgTransfTicket: 'disabled',
  sendGreetingMessageOneQueues: 'enabled',
  /** Opening a ticket sends read receipts (blue ticks) to the customer. */
  sendReadReceipts: 'enabled',
  chatBotType: 'text',
  campaignsEnabled: 'true',
  ipixc: '',
  tokenixc: '',
  ipmkauth: '',
  clientidmkauth: '',
  clientsecretmkauth: '',
  asaas: '',
} as const;

/** Platform-wide settings, kept on the platform company and changed only by the super user. */
export const GLOBAL_SETTING_DEFAULTS = {
  allowregister: 'enabled',
  viewregister: 'enabled',
  trial: '3',
} as const;

export type CompanySettingKey = keyof typeof COMPANY_SETTING_DEFAULTS;
export type GlobalSettingKey = keyof typeof GLOBAL_SETTING_DEFAULTS;

const onOff = z.enum(['enabled', 'disabled']);
const text = lineSchema(500);

/** The accepted value of each key. */
export const SETTING_VALUES: Record<CompanySettingKey | GlobalSettingKey, z.ZodType<string>> = {
  userRating: onOff,
  scheduleType: z.enum(['disabled', 'queue', 'company']),
  call: onOff,
  CheckMsgIsGroup: onOff,
  sendGreetingAccepted: onOff,
  sendMsgTransfTicket: onOff,
  sendGreetingMessageOneQueues: onOff,
  sendReadReceipts: onOff,
  chatBotType: z.enum(['text']),
  campaignsEnabled: z.enum(['true', 'false', 'enabled', 'disabled']),
  ipixc: text,
  tokenixc: text,
  ipmkauth: text,
  clientidmkauth: text,
  clientsecretmkauth: text,
  asaas: text,
  allowregister: onOff,
  viewregister: onOff,
  trial: z.enum(['1', '2', '3', '4', '5', '6', '7']),
};

export const isGlobalSetting = (key: string): key is GlobalSettingKey =>
  Object.hasOwn(GLOBAL_SETTING_DEFAULTS, key);
export const isSettingKey = (key: string): key is CompanySettingKey | GlobalSettingKey =>
  Object.hasOwn(SETTING_VALUES, key);

export const settingParams = z.object({ key: lineSchema(100).min(1) });
export const settingBody = z.object({
  value: z.union([lineSchema(500), z.number(), z.boolean()]).transform(String),
});

/**
 * Integration credentials: write-only. Admins and the super user read a masked value (the last 4
 * characters of a long one); other users never see them, and `/auth/me` never carries them.
 */
export const SECRET_SETTING_KEYS: readonly string[] = ['tokenixc', 'clientsecretmkauth', 'asaas'];
export const isSecretSetting = (key: string): boolean => SECRET_SETTING_KEYS.includes(key);
export const SECRET_MASK = '••••';

/** A setting row as the routes answer it. */
export const settingAnswer = z.object({
  id: wireInt,
  companyId: wireInt,
  key: z.string(),
  value: z.string(),
  createdAt: wireDate,
  updatedAt: wireDate,
});
export type SettingAnswer = z.infer<typeof settingAnswer>;

/** Company settings (administration §3, §7). */
export const settingEndpoints = {
  listSettings: endpoint({
    method: 'get',
    path: '/settings',
    summary: "The company's settings (secrets masked for admins, left out for others)",
    tag: 'settings',
    response: z.array(settingAnswer),
  }),
  showSetting: endpoint({
    method: 'get',
    path: '/settings/:key',
    summary: 'One setting (platform-wide keys from the platform company)',
    tag: 'settings',
    params: settingParams,
    response: z.object({ key: z.string(), value: z.string() }),
  }),
  updateSetting: endpoint({
    method: 'put',
    path: '/settings/:key',
    summary: 'Sets a setting (platform-wide keys: super user only)',
    tag: 'settings',
    access: 'admin',
    params: settingParams,
    body: settingBody,
    response: settingAnswer,
  }),
} as const;

/** Where an interface logo goes (admin §5): the six destinations of the Logo tab. */
export const LOGO_REFS = [
  'signup',
  'login',
  'interno',
  'favicon',
  'favicon-256x256',
  'apple-touch-icon',
] as const;
export type LogoRef = (typeof LOGO_REFS)[number];
export const isLogoRef = (value: unknown): value is LogoRef =>
  typeof value === 'string' && (LOGO_REFS as readonly string[]).includes(value);

/** The file types a logo may have (admin §5: PNG, ICO or SVG), by extension. */
export const LOGO_TYPES = {
  png: 'image/png',
  ico: 'image/x-icon',
  svg: 'image/svg+xml',
} as const;
/** Logos are small: 2 MB at most. */
export const LOGO_MAX_BYTES = 2 * 1024 * 1024;

/** Whether a picked file is one the Logo tab sends (its extension; the server sniffs the bytes). */
export const isLogoFileName = (name: string): boolean => /\.(png|ico|svg)$/i.test(name.trim());

/** Where each uploaded logo is (a public path with a version to refresh caches), or null. */
export const logosAnswer = z.object(
  Object.fromEntries(LOGO_REFS.map((ref) => [ref, z.string().nullable()])) as Record<
    LogoRef,
    z.ZodNullable<z.ZodString>
  >,
);
export type LogosAnswer = z.infer<typeof logosAnswer>;

/** Interface logos (admin §2 Logo tab, §7; core §7 "logos are served under /public/"). */
export const logoEndpoints = {
  uploadLogo: endpoint({
    method: 'post',
    path: '/settings/media-upload',
    summary: 'Uploads a logo (PNG, ICO or SVG) to a destination `ref` (super user)',
    tag: 'settings',
    access: 'super',
    query: z.object({ ref: lineSchema(50).optional() }),
    multipart: true,
    response: z.object({ mensagem: z.string(), ref: z.string(), url: z.string() }),
  }),
  listLogos: endpoint({
    method: 'get',
    path: '/public/logos',
    summary: 'Where each uploaded logo is (no sign-in: the login and sign-up pages, the favicon)',
    tag: 'settings',
    access: 'public',
    response: logosAnswer,
  }),
  showLogo: endpoint({
    method: 'get',
    path: '/public/logos/:ref',
    summary: 'An uploaded logo (SVG served sandboxed: it never runs script)',
    tag: 'settings',
    access: 'public',
    params: z.object({ ref: z.enum(LOGO_REFS) }),
    response: 'file',
  }),
} as const;
