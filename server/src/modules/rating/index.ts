// Ratings after a ticket is finished (used by routing and tickets).
import { defineModule } from '../manifest.js';

export const ratingModule = defineModule({
  name: 'rating',
});

// What other modules use (they import this module only through this file).
export { afterRatingRule } from './after-rating.js';
export { ratingRule, startRating } from './rating.js';
