import type { Session, TestServer } from './harness.js';
import { ADMIN } from './harness.js';

let counter = 0;

/** A new company (through the super user) with its admin signed in. */
export async function createCompanyWithAdmin(
  server: TestServer,
  options: { planId?: number; dueDate?: string; users?: number } = {},
): Promise<{ companyId: number; admin: Session; email: string; password: string }> {
  const root = await server.login(ADMIN.email, ADMIN.password);
  let planId = options.planId;
  if (!planId) {
    const plan = await server.request('POST', '/plans', {
      token: root.token,
      body: {
        name: `Plano t${++counter}-${Date.now()}`,
        users: options.users ?? 10,
        connections: 5,
        queues: 5,
        value: 99,
      },
    });
    planId = plan.body.id;
  }
  const email = `admin${++counter}-${Date.now()}@empresa.test`;
  const password = 'Senha123';
  const res = await server.request('POST', '/companies', {
    token: root.token,
    body: {
      name: `Empresa ${counter}-${Date.now()}`,
      email,
      planId,
      password,
      dueDate: options.dueDate ?? '2099-12-31',
    },
  });
  if (res.status !== 201) throw new Error(`company: ${JSON.stringify(res.body)}`);
  const admin = await server.login(email, password);
  return { companyId: res.body.id, admin, email, password };
}
