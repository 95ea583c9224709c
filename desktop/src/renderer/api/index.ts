export { api, publicApi } from '../session/store';
export { ApiError, errorMessage } from './errors';
export type * from './types';
