// Seed generator for the list benchmark: companies, each with a connection, queues, an agent,
// contacts, tickets and messages, written with set-based INSERT ... SELECT (fast, in SQL).
import argon2 from 'argon2';
import pg from 'pg';

export interface SeedSize {
  companies: number;
  tickets: number;
  messages: number;
}

export async function seed(url: string, size: SeedSize) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  const hash = await argon2.hash('Senha123', { type: argon2.argon2id });
  const perCompany = Math.ceil(size.tickets / size.companies);
  const msgsPerTicket = Math.max(1, Math.round(size.messages / size.tickets));
  let agentEmail = '';
  for (let k = 0; k < size.companies; k++) {
    const {
      rows: [co],
    } = await c.query(
      `INSERT INTO companies (name, "dueDate", "planId") VALUES ($1, '2099-12-31', (SELECT id FROM plans LIMIT 1)) RETURNING id`,
      [`Seed ${k} ${Date.now()}`],
    );
    const companyId = co.id as number;
    const {
      rows: [w],
    } = await c.query(
      `INSERT INTO whatsapps ("companyId", name, token, provider) VALUES ($1, 'Seed', md5(random()::text), 'simulator') RETURNING id`,
      [companyId],
    );
    const { rows: queues } = await c.query(
      `INSERT INTO queues ("companyId", name, color) SELECT $1, 'Fila ' || g, '#' || lpad(g::text, 6, '0') FROM generate_series(1, 4) g RETURNING id`,
      [companyId],
    );
    const email = `agent${k}-${Date.now()}@seed.test`;
    const {
      rows: [u],
    } = await c.query(
      `INSERT INTO users ("companyId", name, email, "passwordHash", profile) VALUES ($1, 'Agente', $2, $3, 'user') RETURNING id`,
      [companyId, email, hash],
    );
    await c.query(`INSERT INTO user_queues ("userId", "queueId") VALUES ($1, $2), ($1, $3)`, [
      u.id,
      queues[0].id,
      queues[1].id,
    ]);
    if (k === 0) agentEmail = email;
    await c.query(
      `INSERT INTO contacts ("companyId", name, number)
       SELECT $1, 'Cliente ' || g, (5511900000000 + g)::text FROM generate_series(1, $2) g`,
      [companyId, perCompany],
    );
    await c.query(
      `INSERT INTO tickets ("companyId", "contactId", "whatsappId", "queueId", status, "lastMessage", "updatedAt", "createdAt")
       SELECT $1, ct.id, $2, (ARRAY[$3, $4, $5, $6]::int[])[1 + (ct.id % 4)],
              (ARRAY['pending','open','closed','closed']::varchar[])[1 + (ct.id % 4)], 'última', now() - (random() * interval '30 days'), now() - interval '31 days'
         FROM contacts ct WHERE ct."companyId" = $1`,
      [companyId, w.id, queues[0].id, queues[1].id, queues[2].id, queues[3].id],
    );
    await c.query(
      `INSERT INTO messages ("companyId", "whatsappId", "ticketId", "contactId", wid, "fromMe", body, "createdAt")
       SELECT $1, t."whatsappId", t.id, t."contactId", 'SEED' || t.id || '-' || g, g % 2 = 0,
              'mensagem de teste ' || g, t."createdAt" + g * interval '1 minute'
         FROM tickets t, generate_series(1, $2) g WHERE t."companyId" = $1`,
      [companyId, msgsPerTicket],
    );
  }
  await c.query('ANALYZE');
  const counts = await c.query(
    'SELECT (SELECT count(*) FROM tickets)::int AS t, (SELECT count(*) FROM messages)::int AS m',
  );
  await c.end();
  return {
    companies: size.companies,
    tickets: counts.rows[0].t,
    messages: counts.rows[0].m,
    agentEmail,
    agentPassword: 'Senha123',
  };
}
