// Users of a company.
import { UserEntity } from './user.entity.js';
import { usersRoutes } from './users.routes.js';
import { defineModule } from '../manifest.js';

export const usersModule = defineModule({
  name: 'users',
  entities: [UserEntity],
  routers: [usersRoutes],
});

// What other modules use (they import this module only through this file).
export { UserEntity } from './user.entity.js';
export { hashPassword, sessionUser, verifyPassword } from './users.service.js';
