import { randomUUID } from 'node:crypto';
import { jsonOf, startStandin, type Answer } from './server.js';

/**
 * A stand-in for a Typebot viewer's v1 chat API: `POST /api/v1/typebots/{publicId}/startChat`
 * and `POST /api/v1/sessions/{sessionId}/continueChat`, with a small flow engine. Bubbles are
 * answered in the format asked (`textBubbleContentFormat` markdown, rich text otherwise), a
 * wait is a `wait` client-side action after the bubble before it, a choice input accepts only
 * an item's exact content (as Typebot's engine compares it), and a session the test expired or
 * never existed answers Typebot's 404.
 */
export type Step =
  | { text: string }
  | { image: string }
  | { audio: string }
  | { embed: string }
  | { video: string; kind?: 'url' | 'youtube' }
  | { wait: number }
  | { choice: string[]; variable: string; multiple?: boolean }
  | { ask: string };

interface Session {
  cursor: number;
  vars: Record<string, string>;
  expired: boolean;
}

export async function startTypebotStandin(options: {
  publicId: string;
  flow: Step[];
  apiToken?: string;
}) {
  const sessions = new Map<string, Session>();
  const notFound = (message: string): Answer => ({
    status: 404,
    body: { message, code: 'NOT_FOUND' },
  });

  function fill(text: string, vars: Record<string, string>) {
    return text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => vars[name] ?? '');
  }

  function inputOf(step: Step, index: number) {
    if ('choice' in step) {
      return {
        id: `input${index}`,
        type: 'choice input',
        items: step.choice.map((content, i) => ({ id: `item${index}-${i}`, content })),
        options: { isMultipleChoice: step.multiple ?? false },
      };
    }
    if ('ask' in step)
      return {
        id: `input${index}`,
        type: 'text input',
        options: { labels: { placeholder: step.ask } },
      };
    return null;
  }

  /** Runs bubbles from the cursor until an input or the end. */
  function run(session: Session, markdown: boolean) {
    const messages: unknown[] = [];
    const clientSideActions: unknown[] = [];
    let lastBubble: string | undefined;
    while (session.cursor < options.flow.length) {
      const step = options.flow[session.cursor]!;
      const id = `bubble${session.cursor}`;
      const input = inputOf(step, session.cursor);
      if (input)
        return { messages, input, ...(clientSideActions.length ? { clientSideActions } : {}) };
      session.cursor += 1;
      if ('text' in step) {
        const text = fill(step.text, session.vars);
        messages.push({
          id,
          type: 'text',
          content: markdown
            ? { type: 'markdown', markdown: text }
            : {
                type: 'richText',
                richText: text
                  .split('\n')
                  .map((line) => ({ type: 'p', children: [{ text: line }] })),
              },
        });
      } else if ('image' in step)
        messages.push({ id, type: 'image', content: { url: step.image } });
      else if ('audio' in step)
        messages.push({ id, type: 'audio', content: { url: step.audio, isAutoplayEnabled: true } });
      else if ('embed' in step)
        messages.push({ id, type: 'embed', content: { url: step.embed, height: 400 } });
      else if ('video' in step)
        messages.push({
          id,
          type: 'video',
          content: { type: step.kind ?? 'url', url: step.video },
        });
      else if ('wait' in step) {
        clientSideActions.push({
          type: 'wait',
          wait: { secondsToWaitFor: step.wait },
          ...(lastBubble ? { lastBubbleBlockId: lastBubble } : {}),
        });
        continue;
      }
      lastBubble = id;
    }
    return { messages, ...(clientSideActions.length ? { clientSideActions } : {}) };
  }

  /** Applies the customer's answer to the input at the cursor; false when Typebot would refuse it. */
  function answer(session: Session, text: string): boolean {
    const step = options.flow[session.cursor];
    if (!step) return false;
    if ('choice' in step) {
      const parts = step.multiple ? text.split(', ') : [text];
      if (!parts.every((p) => step.choice.includes(p))) return false;
      session.vars[step.variable] = text;
    } else if ('ask' in step) {
      session.vars[step.ask] = text;
    }
    session.cursor += 1;
    return true;
  }

  const textOf = (message: unknown): string | undefined =>
    typeof message === 'string' ? message : (message as { text?: string } | undefined)?.text;

  const standin = await startStandin((request) => {
    if (options.apiToken && request.headers.authorization !== `Bearer ${options.apiToken}`) {
      return {
        status: 401,
        body: { message: 'You must be logged in to access this resource', code: 'UNAUTHORIZED' },
      };
    }
    const body = (request.body.length ? jsonOf(request) : {}) as {
      message?: unknown;
      textBubbleContentFormat?: string;
      prefilledVariables?: Record<string, string>;
    };
    const markdown = body.textBubbleContentFormat === 'markdown';
    const start = /^\/api\/v1\/typebots\/([^/]+)\/startChat$/.exec(request.path);
    if (request.method === 'POST' && start) {
      if (decodeURIComponent(start[1]!) !== options.publicId) return notFound('Typebot not found');
      const session: Session = { cursor: 0, vars: { ...body.prefilledVariables }, expired: false };
      const sessionId = randomUUID();
      sessions.set(sessionId, session);
      const text = textOf(body.message);
      if (text !== undefined && inputOf(options.flow[0]!, 0)) answer(session, text);
      return {
        status: 200,
        body: {
          sessionId,
          resultId: randomUUID(),
          typebot: { id: 'tb1', theme: {}, settings: {} },
          ...run(session, markdown),
        },
      };
    }
    const cont = /^\/api\/v1\/sessions\/([^/]+)\/continueChat$/.exec(request.path);
    if (request.method === 'POST' && cont) {
      const session = sessions.get(decodeURIComponent(cont[1]!));
      if (!session) return notFound('Session not found.');
      if (session.expired) return notFound('Session expired. You need to start a new session.');
      const text = textOf(body.message) ?? '';
      if (!answer(session, text)) {
        const retry = markdown
          ? { type: 'markdown', markdown: 'Invalid message. Please, try again.' }
          : {
              type: 'richText',
              richText: [
                { type: 'p', children: [{ text: 'Invalid message. Please, try again.' }] },
              ],
            };
        return {
          status: 200,
          body: {
            messages: [{ id: 'retry', type: 'text', content: retry }],
            input: inputOf(options.flow[session.cursor]!, session.cursor),
          },
        };
      }
      return { status: 200, body: run(session, markdown) };
    }
    return notFound('Not found');
  });

  return {
    ...standin,
    /** Makes every live session answer "Session expired" from now on. */
    expireAll() {
      for (const s of sessions.values()) s.expired = true;
    },
    /** Forgets every session (Typebot answers "Session not found"). */
    forgetAll() {
      sessions.clear();
    },
    sessions,
  };
}
