import type { User } from '../src/renderer/api/types';

const DAY = 86_400_000;

export const makeUser = (overrides: Partial<User> = {}): User => ({
  id: 9,
  name: 'Ana',
  email: 'ana@empresa.com',
  profile: 'user',
  super: false,
  companyId: 4,
  whatsappId: null,
  allTicket: 'desabled',
  queues: [{ id: 3, name: 'Vendas', color: '#00ff00' }],
  company: {
    id: 4,
    name: 'Empresa',
    dueDate: new Date(Date.now() + 30 * DAY).toISOString(),
    settings: [],
  },
  ...overrides,
});

export const allPlanFlags = {
  useCampaigns: true,
  useSchedules: true,
  useInternalChat: true,
  useExternalApi: true,
  useKanban: true,
  useOpenAi: true,
  useIntegrations: true,
};
