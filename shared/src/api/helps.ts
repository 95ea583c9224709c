import { z } from 'zod';
import { endpoint } from './endpoint.js';
import {
  idParams,
  lineSchema,
  messageAnswer,
  pageQuery,
  textSchema,
  wireDate,
  wireInt,
} from './common.js';

/** A YouTube video id: 11 characters of [A-Za-z0-9_-]. */
export const YOUTUBE_ID = /^[A-Za-z0-9_-]{11}$/;

/** The message a bad video code gets (the Help form shows it, translated). */
export const INVALID_VIDEO_MESSAGE = 'Invalid YouTube video code';

/**
 * The id out of what a super user may paste: the id itself, or a watch, short, embed, shorts or
 * youtube-nocookie link. Anything else is answered as it came (and refused by `YOUTUBE_ID`).
 */
export function youtubeIdOf(input: string): string {
  const text = input.trim();
  if (YOUTUBE_ID.test(text)) return text;
  const link =
    /^https?:\/\/(?:www\.|m\.)?(youtu\.be|youtube\.com|youtube-nocookie\.com)(\/[^?#]*)?(\?[^#]*)?/i.exec(
      text,
    );
  if (!link) return text;
  const [, host, path = '', search = ''] = link;
  if (host!.toLowerCase() === 'youtu.be') return path.slice(1);
  const v = /[?&]v=([^&]+)/.exec(search)?.[1];
  if (path === '/watch' && v) return v;
  return /^\/(?:embed|shorts|live|v)\/([^/]+)/.exec(path)?.[1] ?? text;
}

/** A video code as stored: a YouTube id (links are reduced to it). */
export const videoCode = lineSchema(200)
  .transform(youtubeIdOf)
  .pipe(z.string().regex(YOUTUBE_ID, INVALID_VIDEO_MESSAGE));

export const helpInput = z.object({
  title: lineSchema(100).trim().min(1, 'Required'),
  description: textSchema(1000)
    .optional()
    .nullable()
    .transform((v) => v ?? ''),
  video: videoCode,
});
export type HelpInput = z.infer<typeof helpInput>;
export const helpUpdate = z.object({
  title: helpInput.shape.title.optional(),
  description: helpInput.shape.description,
  video: videoCode.optional(),
});

/** A help video (administration §3): platform-wide, written by the super user. */
export const helpAnswer = z.object({
  id: wireInt,
  title: z.string(),
  description: z.string(),
  video: z.string(),
  createdAt: wireDate,
  updatedAt: wireDate,
});
export type HelpAnswer = z.infer<typeof helpAnswer>;

/** The thumbnail and the privacy-enhanced player of a video id (the /helps page). */
export const youtubeThumbnail = (id: string) => `https://img.youtube.com/vi/${id}/hqdefault.jpg`;
export const youtubeEmbed = (id: string) =>
  `https://www.youtube-nocookie.com/embed/${id}?autoplay=1&rel=0`;

/** Help videos (administration §7): every user reads them, the super user writes them. */
export const helpEndpoints = {
  listHelps: endpoint({
    method: 'get',
    path: '/helps',
    summary: 'A page of help videos (searchParam on the title)',
    tag: 'helps',
    query: pageQuery,
    response: z.object({ records: z.array(helpAnswer), count: wireInt, hasMore: z.boolean() }),
  }),
  helpList: endpoint({
    method: 'get',
    path: '/helps/list',
    summary: 'Every help video (the /helps page)',
    tag: 'helps',
    response: z.array(helpAnswer),
  }),
  showHelp: endpoint({
    method: 'get',
    path: '/helps/:id',
    summary: 'One help video',
    tag: 'helps',
    params: idParams,
    response: helpAnswer,
  }),
  createHelp: endpoint({
    method: 'post',
    path: '/helps',
    summary: 'Adds a help video (super user)',
    tag: 'helps',
    access: 'super',
    body: helpInput,
    status: 201,
    response: helpAnswer,
  }),
  updateHelp: endpoint({
    method: 'put',
    path: '/helps/:id',
    summary: 'Changes a help video (super user)',
    tag: 'helps',
    access: 'super',
    params: idParams,
    body: helpUpdate,
    response: helpAnswer,
  }),
  deleteHelp: endpoint({
    method: 'delete',
    path: '/helps/:id',
    summary: 'Deletes a help video (super user)',
    tag: 'helps',
    access: 'super',
    params: idParams,
    response: messageAnswer,
  }),
} as const;
