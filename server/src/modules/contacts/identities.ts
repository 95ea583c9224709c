import type { EntityManager } from 'typeorm';
import type { Change, ChangeList } from '../changes/index.js';
import { moveTicketsToContact, ticketGone } from '../tickets/index.js';
import { contactChange, loadContact } from './contacts.service.js';

export interface ContactIdentity {
  /** Phone digits, or a group's chat id for a group. */
  phone?: string;
  lid?: string;
  name?: string;
  isGroup?: boolean;
}

interface Row {
  id: number;
  name: string;
  number: string;
  lid: string | null;
}

const placeholderName = (row: Row) => !row.name || row.name === row.number || row.name === row.lid;

/**
 * Folds contact `from` into `into` (a LID contact learnt to be a known phone): its tickets,
 * messages and notes move over; where both have a non-closed ticket on a connection, the
 * messages move into the surviving ticket and the other ticket goes.
 */
async function mergeContacts(
  tx: EntityManager,
  companyId: number,
  from: Row,
  into: Row,
  changes: Change[],
): Promise<void> {
  const clashes = (await tx.query(
    `SELECT a.id AS "fromTicket", a."queueId", b.id AS "intoTicket"
       FROM tickets a JOIN tickets b ON b."contactId" = $2 AND b."whatsappId" = a."whatsappId"
        AND b.status <> 'closed'
      WHERE a."contactId" = $1 AND a.status <> 'closed'`,
    [from.id, into.id],
  )) as { fromTicket: number; queueId: number | null; intoTicket: number }[];
  for (const c of clashes) {
    await tx.query('UPDATE messages SET "ticketId" = $2 WHERE "ticketId" = $1', [
      c.fromTicket,
      c.intoTicket,
    ]);
    await tx.query('UPDATE ticket_notes SET "ticketId" = $2 WHERE "ticketId" = $1', [
      c.fromTicket,
      c.intoTicket,
    ]);
    await tx.query('DELETE FROM tickets WHERE id = $1', [c.fromTicket]);
    changes.push(ticketGone(c.fromTicket, c.queueId));
  }
  await moveTicketsToContact(tx, from.id, into.id);
  await tx.query('UPDATE messages SET "contactId" = $2 WHERE "contactId" = $1', [from.id, into.id]);
  await tx.query('UPDATE ticket_notes SET "contactId" = $2 WHERE "contactId" = $1', [
    from.id,
    into.id,
  ]);
  await tx.query('DELETE FROM contacts WHERE id = $1', [from.id]);
  changes.push({
    entity: 'contact',
    entityId: from.id,
    action: 'delete',
    payload: { action: 'delete', contactId: from.id, mergedInto: into.id },
  });
}

/**
 * The contact a WhatsApp identity belongs to, created when new. A LID learnt later for a known
 * phone (or the phone of a known LID) joins the same contact; two contacts found to be one merge.
 * With `create: false` an unknown identity is left alone (address-book syncs).
 */
export async function upsertContact(
  tx: EntityManager,
  companyId: number,
  identity: ContactIdentity,
  changes: ChangeList,
  options: { create?: boolean } = {},
): Promise<number | undefined> {
  const phone = identity.phone || undefined;
  const lid = identity.lid || undefined;
  if (!phone && !lid) return undefined;
  const rows = (await tx.query(
    `SELECT id, name, number, lid FROM contacts
      WHERE "companyId" = $1 AND (number = $2 OR lid = $3) ORDER BY id FOR UPDATE`,
    [companyId, phone ?? '', lid ?? null],
  )) as Row[];
  let byPhone = phone ? rows.find((r) => r.number === phone) : undefined;
  const byLid = lid ? rows.find((r) => r.lid === lid) : undefined;

  if (!byPhone && !byLid) {
    if (options.create === false) return undefined;
    const [created] = (await tx.query(
      `INSERT INTO contacts ("companyId", name, number, lid, "isGroup") VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT DO NOTHING RETURNING id`,
      [
        companyId,
        identity.name || phone || lid,
        phone ?? '',
        lid ?? null,
        identity.isGroup ?? false,
      ],
    )) as { id: number }[];
    // Another session inserted it meanwhile: the session retries the event and finds it.
    if (!created) throw new Error('contact inserted concurrently; retry');
    changes.push(contactChange(await loadContact(tx, companyId, created.id), 'create'));
    changes.events.push({ type: 'contact.created', payload: { contactId: created.id } });
    return created.id;
  }

  if (byPhone && byLid && byPhone.id !== byLid.id) {
    await tx.query('UPDATE contacts SET lid = NULL WHERE id = $1', [byLid.id]);
    await mergeContacts(tx, companyId, byLid, byPhone, changes);
    byPhone = { ...byPhone, lid: null };
  }
  const target = (byPhone ?? byLid)!;
  const sets: string[] = [];
  const params: unknown[] = [target.id];
  if (phone && !target.number) sets.push(`number = $${params.push(phone)}`);
  if (lid && target.lid !== lid) sets.push(`lid = $${params.push(lid)}`);
  if (identity.name && placeholderName(target) && identity.name !== target.name) {
    sets.push(`name = $${params.push(identity.name)}`);
  }
  if (sets.length) {
    await tx.query(
      `UPDATE contacts SET ${sets.join(', ')}, "updatedAt" = now() WHERE id = $1`,
      params,
    );
    changes.push(contactChange(await loadContact(tx, companyId, target.id)));
  }
  return target.id;
}
