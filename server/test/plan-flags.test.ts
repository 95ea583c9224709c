import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import {
  allEndpoints,
  endpoint,
  FEATURE_PLAN_FLAGS,
  PLAN_FLAGS,
  type PlanFlag,
} from '@atende/shared';
import express, { Router } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { errorMiddleware } from '../src/http/errors.js';
import { serve } from '../src/http/route.js';
import { changedTables, fingerprint } from './db-snapshot.js';
import { createCompanyWithAdmin } from './fixtures.js';
import { ADMIN, startTestServer, type Session, type TestServer } from './harness.js';

/** The flags the issue names (issue 12 item 2); `useInternal` gates nothing yet. */
const GATED: readonly PlanFlag[] = FEATURE_PLAN_FLAGS;

/**
 * One endpoint per flag, declared here only: it writes a tag of the caller's company, so a
 * refusal that still wrote would show. Served by the real serve() against the real app.
 */
const probeOf = (flag: PlanFlag) =>
  endpoint({
    method: 'post',
    path: `/plan-probe/${flag}`,
    summary: `Writes a tag when the plan has ${flag}`,
    tag: 'test',
    plan: flag,
    body: z.object({ name: z.string().min(3) }),
    status: 201,
    response: z.object({ id: z.number().int() }),
  });

let server: TestServer;
let probeServer: Server;
let probeUrl: string;
let root: Session;
let admin: Session;
let companyId: number;
let planId: number;

beforeAll(async () => {
  server = await startTestServer();
  root = await server.login(ADMIN.email, ADMIN.password);
  const plan = await server.request('POST', '/plans', {
    token: root.token,
    body: { name: `Plano flags ${Date.now()}`, users: 5, connections: 5, queues: 5, value: 10 },
  });
  planId = plan.body.id;
  ({ companyId, admin } = await createCompanyWithAdmin(server, { planId }));
  // That signed the super user in again, which ended the first session.
  root = await server.login(ADMIN.email, ADMIN.password);

  const router = Router();
  for (const flag of GATED) {
    serve(router, server.app, probeOf(flag), async ({ scope, body }) => {
      const [row] = (await server.app.ds.query(
        `INSERT INTO tags ("companyId", name, color, kanban) VALUES ($1, $2, '#000000', 0)
         RETURNING id`,
        [scope.companyId, body.name],
      )) as { id: number }[];
      return { id: row!.id };
    });
  }
  const probeApp = express().use(express.json()).use(router).use(errorMiddleware);
  probeServer = probeApp.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => probeServer.once('listening', resolve));
  probeUrl = `http://127.0.0.1:${(probeServer.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => probeServer?.close(resolve));
  await server?.close();
});

/** Sets the plan's flags: every one on except those in `off`. */
async function setFlags(id: number, off: PlanFlag[]) {
  const body = Object.fromEntries(PLAN_FLAGS.map((f) => [f, !off.includes(f)]));
  const res = await server.request('PUT', `/plans/${id}`, { token: root.token, body });
  expect(res.status).toBe(200);
}

const probe = async (flag: PlanFlag, name: string) => {
  const res = await fetch(`${probeUrl}/plan-probe/${flag}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name }),
  });
  return { status: res.status, body: (await res.json()) as any };
};
const tagsNamed = async (name: string) =>
  (
    (await server.app.ds.query('SELECT id FROM tags WHERE "companyId" = $1 AND name = $2', [
      companyId,
      name,
    ])) as unknown[]
  ).length;

describe('plan flags gate their routes on the server (issue 12 item 2)', () => {
  it.each(GATED)(
    'a plan without %s gets 403 ERR_PLAN_FEATURE_DISABLED and nothing is written',
    async (flag) => {
      await setFlags(planId, [flag]);
      const name = `sem ${flag}`;
      const before = await fingerprint(server.app.ds);
      const refused = await probe(flag, name);
      expect(refused.status).toBe(403);
      expect(refused.body.error).toBe('ERR_PLAN_FEATURE_DISABLED');
      expect(changedTables(before, await fingerprint(server.app.ds))).toEqual([]);
      expect(await tagsNamed(name)).toBe(0);

      // Only that flag is checked: another gated probe still passes on the same plan.
      const other = GATED.find((f) => f !== flag)!;
      expect((await probe(other, `com ${other} ${flag}`)).status).toBe(201);

      // The same plan with the flag passes the check and the handler runs.
      await setFlags(planId, []);
      const allowed = await probe(flag, name);
      expect(allowed.status).toBe(201);
      expect(await tagsNamed(name)).toBe(1);
    },
  );

  it('a company without a plan has no flag', async () => {
    await server.app.ds.query('UPDATE companies SET "planId" = NULL WHERE id = $1', [companyId]);
    try {
      const refused = await probe('useKanban', 'sem plano');
      expect(refused.status).toBe(403);
      expect(refused.body.error).toBe('ERR_PLAN_FEATURE_DISABLED');
      expect(await tagsNamed('sem plano')).toBe(0);
    } finally {
      await server.app.ds.query('UPDATE companies SET "planId" = $2 WHERE id = $1', [
        companyId,
        planId,
      ]);
    }
  });

  it('every endpoint of the route table with a plan flag refuses a plan without it', async () => {
    const gated = allEndpoints().filter(({ endpoint: e }) => e.plan);
    // Features add their endpoints here by declaring `plan`; each is checked the same way.
    for (const { name, endpoint: e } of gated) {
      // A public endpoint authenticates by other means (the external API's connection token):
      // its refusal is tested with that token (test/external-api.test.ts).
      if (e.access === 'public') continue;
      const flag = e.plan!;
      const session = e.access === 'super' ? root : admin;
      const sessionPlan = (session.user as { company: { planId: number } }).company.planId;
      const path = e.path.replace(/:(\w+)/g, '1');
      await setFlags(sessionPlan, [flag]);
      try {
        const before = await fingerprint(server.app.ds);
        const refused = await server.request(e.method.toUpperCase(), path, {
          token: session.token,
          ...(e.body && { body: {} }),
        });
        expect(refused.status, name).toBe(403);
        expect(refused.body.error, name).toBe('ERR_PLAN_FEATURE_DISABLED');
        expect(changedTables(before, await fingerprint(server.app.ds)), name).toEqual([]);
      } finally {
        await setFlags(sessionPlan, []);
      }
      const passed = await server.request(e.method.toUpperCase(), path, {
        token: session.token,
        ...(e.body && { body: {} }),
      });
      expect(passed.body?.error, name).not.toBe('ERR_PLAN_FEATURE_DISABLED');
    }
  });
});
