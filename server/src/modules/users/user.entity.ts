import { EntitySchema } from 'typeorm';
import type { Profile } from '@atende/shared';

export interface User {
  id: number;
  companyId: number;
  name: string;
  email: string;
  passwordHash: string;
  profile: Profile;
  super: boolean;
  whatsappId: number | null;
  allTicket: 'enabled' | 'desabled';
  tokenVersion: number;
  online: boolean;
  lastSeenAt: Date | null;
  resetTokenHash: string | null;
  resetTokenExpiresAt: Date | null;
  resetAttempts: number;
  createdAt: Date;
  updatedAt: Date;
}

export const UserEntity = new EntitySchema<User>({
  name: 'User',
  tableName: 'users',
  columns: {
    id: { type: Number, primary: true, generated: true },
    companyId: { type: Number },
    name: { type: String },
    email: { type: String },
    passwordHash: { type: String, select: false },
    profile: { type: String },
    super: { type: Boolean },
    whatsappId: { type: Number, nullable: true },
    allTicket: { type: String },
    tokenVersion: { type: Number },
    online: { type: Boolean },
    lastSeenAt: { type: 'timestamptz', nullable: true },
    resetTokenHash: { type: String, nullable: true, select: false },
    resetTokenExpiresAt: { type: 'timestamptz', nullable: true, select: false },
    resetAttempts: { type: Number, select: false },
    createdAt: { type: 'timestamptz', createDate: true },
    updatedAt: { type: 'timestamptz', updateDate: true },
  },
});
