import { EntitySchema } from 'typeorm';

export interface Setting {
  id: number;
  companyId: number;
  key: string;
  value: string;
  createdAt: Date;
  updatedAt: Date;
}

export const SettingEntity = new EntitySchema<Setting>({
  name: 'Setting',
  tableName: 'settings',
  columns: {
    id: { type: Number, primary: true, generated: true },
    companyId: { type: Number },
    key: { type: String },
    value: { type: String },
    createdAt: { type: 'timestamptz', createDate: true },
    updatedAt: { type: 'timestamptz', updateDate: true },
  },
});
