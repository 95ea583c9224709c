import { endpoint } from './endpoint.js';
import { feedAnswer } from '../events/index.js';
import { syncQuery } from './tickets.js';

/** The change feed (decisions: change feed): what a client missed, in order. */
export const syncEndpoints = {
  changes: endpoint({
    method: 'get',
    path: '/sync/changes',
    summary: 'The changes after `after`, in order, or `resetRequired` with the feed head',
    tag: 'sync',
    query: syncQuery,
    response: feedAnswer,
  }),
} as const;
