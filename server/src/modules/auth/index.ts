// The auth module: sign-in, refresh-session families, limits.
import { authRoutes } from './auth.routes.js';
import { defineModule } from '../manifest.js';

export const authModule = defineModule({
  name: 'auth',
  routers: [authRoutes],
});

// What other modules use (they import this module only through this file).
export { beforeSignUp } from './limits.js';
export { publishSessionsEnded, sessionsEnded, sessionsEndedChannel } from './sessions.js';
export { type AuthUser, verifyAccessToken } from './tokens.js';
