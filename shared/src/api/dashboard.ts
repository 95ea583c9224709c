import { z } from 'zod';
import { endpoint } from './endpoint.js';
import { wireInt } from './common.js';
import { dashboardQuery, dashboardRangeQuery } from './tickets.js';

const minutes = z.number();

/** The dashboard (core §2, §7): counters, attendants and the two charts. */
export const dashboardEndpoints = {
  dashboard: endpoint({
    method: 'get',
    path: '/dashboard',
    summary: 'Ticket counters and attendants for the last N days or a date range',
    tag: 'dashboard',
    access: 'dashboard:view',
    query: dashboardQuery,
    response: z.object({
      counters: z.object({
        supportHappening: wireInt,
        supportPending: wireInt,
        supportFinished: wireInt,
        avgSupportTime: minutes,
        avgWaitTime: minutes,
        /** Super user only: connected sessions and companies of the platform. */
        totalWhatsappSessions: wireInt.optional(),
        totalCompanies: wireInt.optional(),
      }),
      attendants: z.array(
        z.object({
          id: wireInt,
          name: z.string(),
          online: z.boolean(),
          rating: z.number().nullable(),
          avgSupportTime: minutes,
          tickets: wireInt,
        }),
      ),
    }),
  }),
  ticketsUsers: endpoint({
    method: 'get',
    path: '/dashboard/ticketsUsers',
    summary: 'Tickets per attendant in a date range',
    tag: 'dashboard',
    access: 'dashboard:view',
    query: dashboardRangeQuery,
    response: z.object({
      data: z.array(z.object({ nome: z.string(), quantidade: wireInt })),
      count: wireInt,
    }),
  }),
  ticketsDay: endpoint({
    method: 'get',
    path: '/dashboard/ticketsDay',
    summary: 'Tickets per hour (one day: horario) or per day (a period: data)',
    tag: 'dashboard',
    access: 'dashboard:view',
    query: dashboardRangeQuery,
    response: z.object({
      data: z.array(
        z.object({ horario: z.string().optional(), data: z.string().optional(), total: wireInt }),
      ),
      count: wireInt,
    }),
  }),
} as const;
