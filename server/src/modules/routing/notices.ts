// Messages the server sends when agents act on a ticket (never the client): the transfer
// notice (setting sendMsgTransfTicket). The greeting on accept lives with the ticket service.
import type { AppContext } from '../../context.js';
import { sendBotMessage } from './bot-send.js';
import { settingOf } from './context.js';

export const transferNotice = (queueName: string) =>
  `*Mensagem Automática*:\nVocê foi transferido para o departamento *${queueName}*\naguarde, já vamos te atender!`;

/**
 * After a transfer to another queue: with sendMsgTransfTicket enabled the customer of a
 * non-group ticket is told the new department. Answers whether a notice was sent.
 */
export async function onTicketTransferred(
  app: AppContext,
  companyId: number,
  ticket: { id: number; isGroup: boolean; queueId: number | null },
): Promise<boolean> {
  if (ticket.isGroup || ticket.queueId == null) return false;
  if ((await settingOf(app, companyId)('sendMsgTransfTicket')) !== 'enabled') return false;
  const [queue] = (await app.ds.query(
    'SELECT name FROM queues WHERE id = $1 AND "companyId" = $2',
    [ticket.queueId, companyId],
  )) as { name: string }[];
  if (!queue) return false;
  await sendBotMessage(app, companyId, ticket.id, transferNotice(queue.name), { origin: 'notice' });
  return true;
}
