/** Socket event names (core §7). Each company's events are `company-{id}-{name}`. */
export const EVENTS_VERSION = 1;

export const companyEvent = (companyId: number, name: CompanyEventName): string =>
  `company-${companyId}-${name}`;

export type CompanyEventName =
  | 'auth'
  | 'user'
  | 'settings'
  | 'company'
  | 'whatsapp'
  | 'whatsappSession'
  | 'queue'
  | 'ticket'
  | 'appMessage'
  | 'contact'
  | 'tag'
  | 'chat'
  | 'quickmessage'
  | 'payment';

export const roomOfCompany = (companyId: number): string => `company-${companyId}`;
export const roomOfCompanyAdmins = (companyId: number): string => `company-${companyId}-admins`;
export const roomOfUser = (userId: number): string => `user-${userId}`;
