/** The permissions table of core §6: which profile holds which static permission. */
export const PROFILES = ['user', 'admin', 'supervisor'] as const;
export type Profile = (typeof PROFILES)[number];

export const PERMISSIONS = [
  'dashboard:view',
  'drawer-admin-items:view',
  'tickets-manager:showall',
  'user-modal:editProfile',
  'user-modal:editQueues',
  'ticket-options:deleteTicket',
  'contacts-page:deleteContact',
  'connections-page:actionButtons',
  'connections-page:addConnection',
  'connections-page:editOrDeleteConnection',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** A user has no static permissions; admin holds every one (core §6). */
export const PERMISSIONS_BY_PROFILE: Record<Profile, readonly Permission[]> = {
  user: [],
  supervisor: [],
  admin: PERMISSIONS,
};

export const can = (profile: Profile, permission: Permission): boolean =>
  PERMISSIONS_BY_PROFILE[profile].includes(permission);
