// Baileys auth state in Postgres: one row per (connection, key type, key id) in
// whatsapp_auth_keys; the credentials are the row of type 'creds'. Every write batch is one
// transaction, so a crash never leaves half a key set behind (the "Bad MAC" of torn writes).
import type { DataSource } from 'typeorm';
import type { AuthKeyRow, AuthKeyType, AuthStore } from './auth-state.js';

const CREDS = 'creds';

export class PgAuthStore implements AuthStore {
  constructor(
    private readonly ds: DataSource,
    private readonly whatsappId: number,
  ) {}

  async readCreds(): Promise<string | null> {
    const rows: { value: string }[] = await this.ds.query(
      `SELECT value FROM whatsapp_auth_keys WHERE "whatsappId" = $1 AND type = $2 AND "keyId" = ''`,
      [this.whatsappId, CREDS],
    );
    return rows[0]?.value ?? null;
  }

  async writeCreds(value: string): Promise<void> {
    await this.ds.query(
      `INSERT INTO whatsapp_auth_keys ("whatsappId", type, "keyId", value) VALUES ($1, $2, '', $3)
       ON CONFLICT ("whatsappId", type, "keyId") DO UPDATE SET value = EXCLUDED.value`,
      [this.whatsappId, CREDS, value],
    );
  }

  async readKeys(type: AuthKeyType, ids: readonly string[]): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    if (ids.length === 0) return found;
    const rows: { keyId: string; value: string }[] = await this.ds.query(
      `SELECT "keyId", value FROM whatsapp_auth_keys
        WHERE "whatsappId" = $1 AND type = $2 AND "keyId" = ANY($3)`,
      [this.whatsappId, type, [...ids]],
    );
    for (const row of rows) found.set(row.keyId, row.value);
    return found;
  }

  async writeKeys(rows: readonly AuthKeyRow[]): Promise<void> {
    if (rows.length === 0) return;
    const upserts = rows.filter((r) => r.value !== null);
    const deletes = rows.filter((r) => r.value === null);
    await this.ds.transaction(async (manager) => {
      if (upserts.length) {
        // The last write of a key within one batch wins, as in Baileys' in-memory semantics.
        const latest = new Map(upserts.map((r) => [`${r.type}\u0000${r.id}`, r]));
        const batch = [...latest.values()];
        await manager.query(
          `INSERT INTO whatsapp_auth_keys ("whatsappId", type, "keyId", value)
           SELECT $1, t, k, v FROM unnest($2::text[], $3::text[], $4::text[]) AS u(t, k, v)
           ON CONFLICT ("whatsappId", type, "keyId") DO UPDATE SET value = EXCLUDED.value`,
          [
            this.whatsappId,
            batch.map((r) => r.type),
            batch.map((r) => r.id),
            batch.map((r) => r.value),
          ],
        );
      }
      if (deletes.length) {
        await manager.query(
          `DELETE FROM whatsapp_auth_keys WHERE "whatsappId" = $1
             AND (type, "keyId") IN (SELECT * FROM unnest($2::text[], $3::text[]))`,
          [this.whatsappId, deletes.map((r) => r.type), deletes.map((r) => r.id)],
        );
      }
    });
  }

  async wipe(): Promise<void> {
    await this.ds.query(`DELETE FROM whatsapp_auth_keys WHERE "whatsappId" = $1`, [
      this.whatsappId,
    ]);
  }
}
