import type { ScheduleEntry } from '@atende/shared';

export interface Queue {
  id: number;
  name: string;
  color: string;
  greetingMessage: string;
  outOfHoursMessage: string;
  orderQueue: number | null;
  schedules: ScheduleEntry[];
  mediaPath: string | null;
  mediaName: string | null;
  mediaUrl?: string | null;
  promptId: number | null;
  integrationId: number | null;
}

/** A node of the option tree as `/queue-options` answers it. */
export interface QueueOptionNode {
  id: number;
  queueId: number;
  parentId: number | null;
  title: string;
  message: string;
  option: string;
  mediaName: string | null;
  mediaUrl?: string | null;
  children: QueueOptionNode[];
}
