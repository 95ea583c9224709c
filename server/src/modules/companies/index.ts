// Companies (tenants) and their signup.
import { companiesRoutes } from './companies.routes.js';
import { CompanyEntity } from './company.entity.js';
import { defineModule } from '../manifest.js';

export const companiesModule = defineModule({
  name: 'companies',
  entities: [CompanyEntity],
  routers: [companiesRoutes],
});

// What other modules use (they import this module only through this file).
export { addDays } from './companies.service.js';
export { CompanyEntity, type Company } from './company.entity.js';
