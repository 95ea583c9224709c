import type { DataSource, EntityManager } from 'typeorm';

/** Where the bot is with a ticket (table ticket_bot_state). */
export interface BotState {
  ticketId: number;
  companyId: number;
  stage: 'menu' | 'options' | 'rating' | 'done';
  queueOptionId: number | null;
  botUses: number;
  botStartedAt: Date;
  ratingAsks: number;
  ratingUserId: number | null;
}

type Db = DataSource | EntityManager;

export async function loadBotState(db: Db, ticketId: number): Promise<BotState | undefined> {
  const [row] = (await db.query('SELECT * FROM ticket_bot_state WHERE "ticketId" = $1', [
    ticketId,
  ])) as BotState[];
  return row;
}

/** Writes the state; `botStartedAt` is set when the row is first written. */
export async function saveBotState(
  db: Db,
  state: Omit<BotState, 'botStartedAt'> & { botStartedAt?: Date },
): Promise<void> {
  await db.query(
    `INSERT INTO ticket_bot_state ("ticketId", "companyId", stage, "queueOptionId", "botUses",
            "botStartedAt", "ratingAsks", "ratingUserId")
     VALUES ($1, $2, $3, $4, $5, COALESCE($6, now()), $7, $8)
     ON CONFLICT ("ticketId") DO UPDATE SET stage = EXCLUDED.stage,
            "queueOptionId" = EXCLUDED."queueOptionId", "botUses" = EXCLUDED."botUses",
            "botStartedAt" = COALESCE($6, ticket_bot_state."botStartedAt"),
            "ratingAsks" = EXCLUDED."ratingAsks", "ratingUserId" = EXCLUDED."ratingUserId",
            "updatedAt" = now()`,
    [
      state.ticketId,
      state.companyId,
      state.stage,
      state.queueOptionId,
      state.botUses,
      state.botStartedAt ?? null,
      state.ratingAsks,
      state.ratingUserId,
    ],
  );
}
