// (c) GET /tickets page 1 for an agent (non-admin, two of four queues) on a seeded data set.
import { call, pct } from './http.js';

export async function listLatency(
  base: string,
  agent: { email: string; password: string },
  requests: number,
): Promise<{ p50: number; p95: number; requests: number }> {
  const login = await call(base, 'POST', '/auth/login', undefined, agent);
  if (login.status !== 200) throw new Error(`agent login: ${JSON.stringify(login.body)}`);
  const token = login.body.token as string;
  const times: number[] = [];
  const warmup = 20;
  for (let i = 0; i < requests + warmup; i++) {
    const t0 = performance.now();
    const res = await call(base, 'GET', '/tickets?status=pending&pageNumber=1', token);
    if (res.status !== 200) throw new Error(JSON.stringify(res.body));
    if (i >= warmup) times.push(performance.now() - t0);
  }
  return { p50: pct(times, 50), p95: pct(times, 95), requests };
}
