// The Pix BR Code (the "copia e cola" text a QR code carries): EMV QRCPS merchant-presented mode,
// as the Banco Central's BR Code manual profiles it. Each field is ID (2 digits), length (2
// digits) and value; the last field is the CRC16/CCITT-FALSE of everything before it, including
// its own "6304".
//
//   00 payload format "01"          01 point of initiation: "12" (one payment) or "11" (reusable)
//   26 merchant account: 00 GUI "br.gov.bcb.pix", then 01 the key (static) or 25 the location URL
//      without scheme (dynamic)
//   52 category "0000"   53 currency "986" (BRL)   54 amount (optional, "99.90")
//   58 country "BR"      59 name (≤ 25)             60 city (≤ 15)
//   62 additional data: 05 txid ("***" when none)  63 CRC
import { z } from 'zod';

export const PIX_GUI = 'br.gov.bcb.pix';
export const MERCHANT_NAME_MAX = 25;
export const MERCHANT_CITY_MAX = 15;
/** A static Pix txid: up to 25 letters and digits (BR Code manual). */
export const STATIC_TXID_MAX = 25;
const FIELD_MAX = 99;

/** CRC16/CCITT-FALSE: polynomial 0x1021, initial 0xFFFF, no reflection, no final XOR. */
export function crc16(text: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(text, 'utf8')) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) {
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    }
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

/** One EMV field: id, two-digit length, value. */
export function field(id: string, value: string): string {
  const length = Buffer.byteLength(value, 'utf8');
  if (!/^\d{2}$/.test(id)) throw new Error(`bad EMV id ${id}`);
  if (length === 0 || length > FIELD_MAX) throw new Error(`EMV field ${id}: length ${length}`);
  return `${id}${String(length).padStart(2, '0')}${value}`;
}

/**
 * Name and city as the BR Code wants them: accents folded (São → Sao), anything outside printable
 * ASCII dropped, spaces collapsed, cut to `max`.
 */
export function foldAscii(text: string, max: number): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, max)
    .trim();
}

export type PixKeyKind = 'cpf' | 'cnpj' | 'email' | 'phone' | 'evp';

/** Which kind of Pix key a text is, or null (the DICT key formats). */
export function pixKeyKind(key: string): PixKeyKind | null {
  if (/^\d{11}$/.test(key)) return 'cpf';
  if (/^\d{14}$/.test(key)) return 'cnpj';
  if (/^\+[1-9]\d{10,13}$/.test(key)) return 'phone';
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(key)) return 'evp';
  if (key.length <= 77 && /^[a-z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-z0-9-]+(\.[a-z0-9-]+)+$/i.test(key)) {
    return 'email';
  }
  return null;
}

/** An amount as the BR Code writes it: a decimal string with two places, over zero. */
export const pixAmount = z
  .string()
  .regex(/^\d{1,10}\.\d{2}$/, 'amount must look like 123.45')
  .refine((v) => Number(v) > 0, 'amount must be over zero');

export const brCodeInput = z
  .object({
    /** The receiver's Pix key (static) … */
    key: z
      .string()
      .refine((k) => pixKeyKind(k) !== null, 'not a Pix key')
      .optional(),
    /** … or the PSP's location URL, without "https://" (dynamic). */
    location: z
      .string()
      .regex(/^[^\s/:]+(\/[\x21-\x7e]*)?$/, 'a location is a host and path, no scheme')
      .max(77)
      .optional(),
    amount: pixAmount.optional(),
    merchantName: z.string(),
    merchantCity: z.string(),
    /** Our reference for reconciliation; static only (a dynamic code carries "***"). */
    txid: z
      .string()
      .regex(/^[A-Za-z0-9]{1,25}$/, 'txid: 1 to 25 letters and digits')
      .optional(),
    /** "12": the code is meant for one payment; "11": reusable. */
    oneTime: z.boolean().default(true),
  })
  .refine((v) => (v.key ? !v.location : !!v.location), 'either a key or a location')
  .refine((v) => !(v.location && v.txid), 'a dynamic code carries its txid at the location');

export type BrCodeInput = z.input<typeof brCodeInput>;

/** The BR Code text for a Pix payment; throws on input the format cannot carry. */
export function brCode(input: BrCodeInput): string {
  const v = brCodeInput.parse(input);
  const name = foldAscii(v.merchantName, MERCHANT_NAME_MAX);
  const city = foldAscii(v.merchantCity, MERCHANT_CITY_MAX);
  if (!name) throw new Error('merchant name is empty once folded to ASCII');
  if (!city) throw new Error('merchant city is empty once folded to ASCII');
  const account = field('00', PIX_GUI) + (v.key ? field('01', v.key) : field('25', v.location!));
  const payload =
    field('00', '01') +
    field('01', v.oneTime ? '12' : '11') +
    field('26', account) +
    field('52', '0000') +
    field('53', '986') +
    (v.amount ? field('54', v.amount) : '') +
    field('58', 'BR') +
    field('59', name) +
    field('60', city) +
    field('62', field('05', v.txid ?? '***')) +
    '6304';
  return payload + crc16(payload);
}

/** The top-level fields of a BR Code (values as text; templates left unparsed). */
export function emvFields(code: string): Map<string, string> {
  const fields = new Map<string, string>();
  let at = 0;
  while (at < code.length) {
    const id = code.slice(at, at + 2);
    const length = Number(code.slice(at + 2, at + 4));
    if (!/^\d{2}$/.test(id) || !Number.isInteger(length) || at + 4 + length > code.length) {
      throw new Error(`malformed EMV at ${at}`);
    }
    fields.set(id, code.slice(at + 4, at + 4 + length));
    at += 4 + length;
  }
  return fields;
}

/** Whether the code's last field is the right CRC of the rest. */
export const crcHolds = (code: string): boolean =>
  code.length > 8 &&
  code.slice(-8, -4) === '6304' &&
  crc16(code.slice(0, -4)) === code.slice(-4).toUpperCase();
