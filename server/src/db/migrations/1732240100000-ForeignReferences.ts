import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Before route() checked references (issue 11 item 1), an admin could point a row of their
 * company at another company's row: a user's or ticket's connection (sending through another
 * company's number), queues, a transfer queue, tags, a quoted message. This clears every such
 * pointer the API could write: nullable columns become NULL, link rows are deleted. Rows that
 * point within their own company are untouched. Nothing to undo.
 */
export const CLEAR_FOREIGN_REFERENCES = `
  UPDATE users u SET "whatsappId" = NULL FROM whatsapps w
   WHERE w.id = u."whatsappId" AND w."companyId" <> u."companyId";
  DELETE FROM user_queues l USING users u, queues q
   WHERE u.id = l."userId" AND q.id = l."queueId" AND q."companyId" <> u."companyId";
  UPDATE whatsapps w SET "transferQueueId" = NULL FROM queues q
   WHERE q.id = w."transferQueueId" AND q."companyId" <> w."companyId";
  DELETE FROM whatsapp_queues l USING whatsapps w, queues q
   WHERE w.id = l."whatsappId" AND q.id = l."queueId" AND q."companyId" <> w."companyId";
  UPDATE tickets t SET "whatsappId" = NULL FROM whatsapps w
   WHERE w.id = t."whatsappId" AND w."companyId" <> t."companyId";
  UPDATE tickets t SET "queueId" = NULL FROM queues q
   WHERE q.id = t."queueId" AND q."companyId" <> t."companyId";
  UPDATE tickets t SET "userId" = NULL FROM users u
   WHERE u.id = t."userId" AND u."companyId" <> t."companyId";
  DELETE FROM ticket_tags l USING tickets t, tags g
   WHERE t.id = l."ticketId" AND g.id = l."tagId" AND g."companyId" <> t."companyId";
  UPDATE messages m SET "quotedMsgId" = NULL FROM messages q
   WHERE m."quotedMsgId" IS NOT NULL AND q.id = m."quotedMsgId" AND q."companyId" <> m."companyId";
`;

export class ForeignReferences1732240100000 implements MigrationInterface {
  name = 'ForeignReferences1732240100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(CLEAR_FOREIGN_REFERENCES);
  }

  async down(): Promise<void> {
    // The cleared pointers were the vulnerability; they are not restored.
  }
}
