import { EntitySchema } from 'typeorm';
import type { ScheduleEntry } from '@atende/shared';

export interface Company {
  id: number;
  name: string;
  email: string | null;
  phone: string | null;
  planId: number | null;
  status: boolean;
  dueDate: string | null;
  recurrence: string;
  schedules: ScheduleEntry[];
  document: string | null;
  billingName: string | null;
  addressZipCode: string | null;
  addressStreet: string | null;
  addressState: string | null;
  addressCity: string | null;
  addressDistrict: string | null;
  createdAt: Date;
  updatedAt: Date;
}

const optionalText = { type: String, nullable: true } as const;

export const CompanyEntity = new EntitySchema<Company>({
  name: 'Company',
  tableName: 'companies',
  columns: {
    id: { type: Number, primary: true, generated: true },
    name: { type: String },
    email: optionalText,
    phone: optionalText,
    planId: { type: Number, nullable: true },
    status: { type: Boolean },
    dueDate: { type: 'date', nullable: true },
    recurrence: { type: String },
    schedules: { type: 'jsonb' },
    document: optionalText,
    billingName: optionalText,
    addressZipCode: optionalText,
    addressStreet: optionalText,
    addressState: optionalText,
    addressCity: optionalText,
    addressDistrict: optionalText,
    createdAt: { type: 'timestamptz', createDate: true },
    updatedAt: { type: 'timestamptz', updateDate: true },
  },
});
