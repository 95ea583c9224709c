// File lists (issue 16): named sets of files with a message, which campaigns attach.
import { defineModule } from '../manifest.js';
import { filesRoutes } from './files.routes.js';

export const filesModule = defineModule({
  name: 'files',
  routers: [filesRoutes],
});

// What other modules may use (they import this module only through this file).
export { fileListOf, type FileListView } from './files.service.js';
