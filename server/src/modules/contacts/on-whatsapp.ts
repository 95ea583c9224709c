import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { numberOnWhatsApp } from '../../whatsapp/number-check.js';

/**
 * Before the first message to a contact an agent typed in: a number WhatsApp does not know
 * answers ERR_WAPP_INVALID_CONTACT instead of a message that can never arrive. A contact who
 * has written to us, a group, or a check nobody can answer now (connection down) goes on.
 */
export async function assertTicketContactOnWhatsApp(
  app: AppContext,
  companyId: number,
  ticketId: number,
): Promise<void> {
  const [row] = (await app.ds.query(
    `SELECT c.number, c."isGroup", t."whatsappId",
            EXISTS (SELECT 1 FROM messages m WHERE m."contactId" = c.id AND NOT m."fromMe") AS wrote
       FROM tickets t JOIN contacts c ON c.id = t."contactId"
      WHERE t.id = $1 AND t."companyId" = $2`,
    [ticketId, companyId],
  )) as { number: string; isGroup: boolean; whatsappId: number | null; wrote: boolean }[];
  if (!row || row.isGroup || row.wrote || row.whatsappId == null || !row.number) return;
  const known = await numberOnWhatsApp(app, companyId, row.whatsappId, row.number);
  if (known === 'missing') throw new AppError('ERR_WAPP_INVALID_CONTACT');
}
