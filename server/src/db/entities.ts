import { modules } from '../modules/index.js';
import { entitiesOf } from '../modules/manifest.js';

/** Every entity the data source knows: each module's `entities`, in module order. */
export const entities = () => entitiesOf(modules);
