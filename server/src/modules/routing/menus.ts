import type { QueueOption } from '../queue-options/index.js';
import type { RoutingQueue } from './context.js';

/** `*[ 1 ]* - Vendas`: how every numbered choice is shown. */
export const choiceLine = (key: string, label: string) => `*[ ${key} ]* - ${label}`;

export const BACK_LINE = choiceLine('0', 'Voltar');
export const MAIN_MENU_LINE = choiceLine('#', 'Menu inicial');

const join = (...parts: string[]) => parts.filter((p) => p.trim()).join('\n\n');

/** The connection's greeting followed by its queues, numbered from 1 in menu order. */
export const queueMenu = (greeting: string, queues: readonly RoutingQueue[]) =>
  join(greeting, queues.map((q, i) => choiceLine(String(i + 1), q.name)).join('\n'));

/** A level of the option tree under a heading (the queue's greeting or the parent's message). */
export function optionsMenu(
  heading: string,
  options: readonly Pick<QueueOption, 'option' | 'title'>[],
  navigation: { back: boolean; mainMenu: boolean },
): string {
  const nav = [navigation.back && BACK_LINE, navigation.mainMenu && MAIN_MENU_LINE].filter(
    (l): l is string => typeof l === 'string',
  );
  return join(
    heading,
    options.map((o) => choiceLine(o.option, o.title)).join('\n'),
    nav.join('\n'),
  );
}
