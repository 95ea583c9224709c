import { z } from 'zod';
import { endpoint } from './endpoint.js';
import { idParams, pageQuery, wireDate } from './common.js';
import { tagInput, tagSync } from './tickets.js';

/** A tag as the routes answer it (admin §3). */
export const tagAnswer = z.object({
  id: z.number().int(),
  companyId: z.number().int(),
  name: z.string(),
  color: z.string(),
  kanban: z.number().int(),
  createdAt: wireDate,
  updatedAt: wireDate,
});
export type TagAnswer = z.infer<typeof tagAnswer>;

const tagWithCount = tagAnswer.extend({ ticketsCount: z.number().int() });

/** Tags (admin §7) and the tags of a ticket. */
export const tagEndpoints = {
  listTags: endpoint({
    method: 'get',
    path: '/tags',
    summary: 'A page of tags with how many tickets carry each',
    tag: 'tags',
    query: pageQuery,
    response: z.object({
      tags: z.array(tagWithCount),
      count: z.number().int(),
      hasMore: z.boolean(),
    }),
  }),
  tagList: endpoint({
    method: 'get',
    path: '/tags/list',
    summary: 'Every tag of the company, by name',
    tag: 'tags',
    query: z.object({}).passthrough(),
    response: z.array(tagAnswer),
  }),
  showTag: endpoint({
    method: 'get',
    path: '/tags/:id',
    summary: 'One tag',
    tag: 'tags',
    params: idParams,
    response: tagAnswer,
  }),
  createTag: endpoint({
    method: 'post',
    path: '/tags',
    summary: 'Creates a tag (the kanban switch is for admin or supervisor)',
    tag: 'tags',
    body: tagInput,
    status: 201,
    response: tagAnswer,
  }),
  updateTag: endpoint({
    method: 'put',
    path: '/tags/:id',
    summary: 'Changes a tag',
    tag: 'tags',
    params: idParams,
    body: tagInput.partial(),
    response: tagAnswer,
  }),
  deleteTag: endpoint({
    method: 'delete',
    path: '/tags/:id',
    summary: 'Deletes a tag (tickets lose it)',
    tag: 'tags',
    params: idParams,
    response: z.object({ message: z.string() }),
  }),
  syncTicketTags: endpoint({
    method: 'post',
    path: '/tags/sync',
    summary: "Sets a ticket's tags",
    tag: 'tags',
    body: tagSync,
    response: z.object({ tags: z.array(tagAnswer.partial().extend({ id: z.number().int() })) }),
  }),
} as const;
