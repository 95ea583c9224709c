import { Foundation1732233600000 } from './1732233600000-Foundation.js';
import { Whatsapps1732233700000 } from './1732233700000-Whatsapps.js';

/** Every migration, in order. Add new ones at the end. */
export const migrations = [Foundation1732233600000, Whatsapps1732233700000];
