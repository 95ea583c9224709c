import type { ContactInput, ContactUpdate } from '@atende/shared';
import type { DataSource, EntityManager } from 'typeorm';
import { AppError } from '../../http/errors.js';
import type { Change, ChangeList, ChangeOf } from '../changes/index.js';

type Db = DataSource | EntityManager;

export interface ExtraInfo {
  id: number;
  name: string;
  value: string;
}

export interface ContactView {
  id: number;
  name: string;
  number: string;
  lid: string | null;
  email: string;
  profilePicUrl: string;
  urlPicture: string;
  isGroup: boolean;
  extraInfo: ExtraInfo[];
  createdAt: string;
  updatedAt: string;
}

const CONTACT_SQL = `
  SELECT c.id, c.name, c.number, c.lid, c.email, c."profilePicUrl", c."profilePicUrl" AS "urlPicture",
         c."isGroup", c."createdAt", c."updatedAt",
         COALESCE((SELECT json_agg(json_build_object('id', f.id, 'name', f.name, 'value', f.value)
                     ORDER BY f.id)
                     FROM contact_custom_fields f WHERE f."contactId" = c.id), '[]') AS "extraInfo"
    FROM contacts c`;

export async function loadContacts(
  db: Db,
  companyId: number,
  ids: number[],
): Promise<ContactView[]> {
  if (!ids.length) return [];
  const rows = (await db.query(
    `${CONTACT_SQL} WHERE c."companyId" = $1 AND c.id = ANY($2::int[])`,
    [companyId, ids],
  )) as ContactView[];
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

export async function loadContact(db: Db, companyId: number, id: number): Promise<ContactView> {
  const [contact] = await loadContacts(db, companyId, [id]);
  if (!contact) throw new AppError('ERR_NO_CONTACT_FOUND');
  return contact;
}

export const contactChange = (
  contact: ContactView,
  action: 'create' | 'update' = 'update',
): ChangeOf<'contact'> => ({
  entity: 'contact',
  entityId: contact.id,
  action,
  payload: { action, contact },
});

async function replaceExtraInfo(db: Db, contactId: number, extra: ContactInput['extraInfo']) {
  if (!extra) return;
  await db.query('DELETE FROM contact_custom_fields WHERE "contactId" = $1', [contactId]);
  if (extra.length === 0) return;
  await db.query(
    `INSERT INTO contact_custom_fields ("contactId", name, value)
     SELECT $1, x.name, x.value FROM jsonb_to_recordset($2::jsonb) AS x(name text, value text)`,
    [contactId, JSON.stringify(extra.map((e) => ({ name: e.name, value: e.value })))],
  );
}

export async function findContactByNumber(db: Db, companyId: number, number: string) {
  const [row] = (await db.query('SELECT id FROM contacts WHERE "companyId" = $1 AND number = $2', [
    companyId,
    number,
  ])) as { id: number }[];
  return row ? loadContact(db, companyId, row.id) : null;
}

/** Inserts a contact; answers null when the number is already taken (by a concurrent insert too). */
export async function insertContact(
  db: EntityManager,
  companyId: number,
  input: ContactInput,
  changes: ChangeList,
): Promise<ContactView | null> {
  const [row] = (await db.query(
    `INSERT INTO contacts ("companyId", name, number, email) VALUES ($1, $2, $3, $4)
     ON CONFLICT ("companyId", number) WHERE number <> '' DO NOTHING RETURNING id`,
    [companyId, input.name, input.number, input.email ?? ''],
  )) as { id: number }[];
  if (!row) return null;
  await replaceExtraInfo(db, row.id, input.extraInfo);
  const contact = await loadContact(db, companyId, row.id);
  changes.push(contactChange(contact, 'create'));
  changes.events.push({ type: 'contact.created', payload: { contactId: row.id } });
  return contact;
}

export async function updateContact(
  db: EntityManager,
  companyId: number,
  id: number,
  input: ContactUpdate,
  changes: Change[],
): Promise<ContactView> {
  await loadContact(db, companyId, id);
  if (input.number) {
    const [other] = (await db.query(
      'SELECT id FROM contacts WHERE "companyId" = $1 AND number = $2 AND id <> $3',
      [companyId, input.number, id],
    )) as { id: number }[];
    if (other) throw new AppError('ERR_DUPLICATED_CONTACT');
  }
  await db.query(
    `UPDATE contacts SET name = COALESCE($3, name), number = COALESCE($4, number),
            email = COALESCE($5, email), "profilePicUrl" = COALESCE($6, "profilePicUrl"),
            "updatedAt" = now()
      WHERE id = $1 AND "companyId" = $2`,
    [
      id,
      companyId,
      input.name ?? null,
      input.number ?? null,
      input.email ?? null,
      input.profilePicUrl ?? null,
    ],
  );
  await replaceExtraInfo(db, id, input.extraInfo);
  const contact = await loadContact(db, companyId, id);
  changes.push(contactChange(contact));
  return contact;
}
