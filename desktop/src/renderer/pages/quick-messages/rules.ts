import type { Profile } from '@atende/shared';

export interface QuickMessage {
  id: number;
  userId: number | null;
  shortcode: string;
  message: string;
  geral: boolean;
  mediaPath: string | null;
  mediaName: string | null;
  mediaUrl?: string | null;
}

/** Secondary §6: admin and supervisor edit and delete any; a user only their non-general ones. */
export function canManage(profile: Profile, userId: number, row: QuickMessage): boolean {
  if (profile === 'admin' || profile === 'supervisor') return true;
  return !row.geral && row.userId === userId;
}

/** Only an admin sees and sets the general flag (secondary §5, §6). */
export const canSetGeneral = (profile: Profile) => profile === 'admin';
