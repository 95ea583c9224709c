import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Refresh-token families: one row per sign-in. The refresh token names its family and generation;
 * `rotatedAt` is when the current generation was issued (the previous one stays good for a short
 * grace window, so concurrent refreshes all succeed). A family ends by logout, reuse or expiry;
 * all of a user's families end when `users.tokenVersion` moves past theirs (a new sign-in).
 */
export class AuthSessions1732240200000 implements MigrationInterface {
  name = 'AuthSessions1732240200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE auth_sessions (
        id uuid PRIMARY KEY,
        "userId" integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        "tokenVersion" integer NOT NULL,
        generation integer NOT NULL DEFAULT 1,
        "rotatedAt" timestamptz NOT NULL DEFAULT now(),
        "expiresAt" timestamptz NOT NULL,
        "revokedAt" timestamptz,
        "revokedReason" text,
        ip text,
        "userAgent" text,
        "createdAt" timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX auth_sessions_user ON auth_sessions ("userId");
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE auth_sessions');
  }
}
