// Baileys auth state over a small key-value store, one row per (key type, key id), so a
// session's keys never live in files or one blob that concurrent writes could tear.
import { BufferJSON, initAuthCreds, proto } from 'baileys';
import type {
  AuthenticationCreds,
  AuthenticationState,
  SignalDataSet,
  SignalDataTypeMap,
  SignalKeyStore,
} from 'baileys';

/** Every key type Baileys 7 stores; the check below fails to compile if Baileys adds one. */
export const AUTH_KEY_TYPES = [
  'pre-key',
  'session',
  'sender-key',
  'sender-key-memory',
  'app-state-sync-key',
  'app-state-sync-version',
  'lid-mapping',
  'device-list',
  'tctoken',
  'identity-key',
] as const;

export type AuthKeyType = (typeof AUTH_KEY_TYPES)[number];

type MissingKeyTypes = Exclude<keyof SignalDataTypeMap, AuthKeyType>;
const allKeyTypesCovered: MissingKeyTypes extends never ? true : never = true;
void allKeyTypesCovered;

/** One key row; `value` is BufferJSON text, null deletes the row. */
export interface AuthKeyRow {
  type: AuthKeyType;
  id: string;
  value: string | null;
}

/**
 * Storage for one connection's auth state. Values are opaque text (BufferJSON-encoded JSON);
 * a Postgres implementation keeps them in rows keyed by (connection, type, id).
 */
export interface AuthStore {
  /** The credentials text, or null for a connection that never linked. */
  readCreds(): Promise<string | null>;
  writeCreds(value: string): Promise<void>;
  /** Rows that exist among `ids`; missing ids are simply absent from the map. */
  readKeys(type: AuthKeyType, ids: readonly string[]): Promise<Map<string, string>>;
  /** Upserts and deletes (value null), all or nothing: in one transaction. */
  writeKeys(rows: readonly AuthKeyRow[]): Promise<void>;
  /** Remove the credentials and every key (logout, 401). */
  wipe(): Promise<void>;
}

export const encodeAuthValue = (value: unknown): string =>
  JSON.stringify(value, BufferJSON.replacer);

export const decodeAuthValue = <T>(text: string): T => JSON.parse(text, BufferJSON.reviver) as T;

export interface StoredAuthState {
  /** Raw store-backed state; wrap `keys` in makeCacheableSignalKeyStore before giving it to a socket. */
  state: AuthenticationState;
  /** Persist `state.creds`; call on every `creds.update`. */
  saveCreds(): Promise<void>;
}

/** Load (or create, for a new connection) the auth state kept in `store`. */
export async function loadAuthState(store: AuthStore): Promise<StoredAuthState> {
  const text = await store.readCreds();
  const creds = text ? decodeAuthValue<AuthenticationCreds>(text) : initAuthCreds();
  return {
    state: { creds, keys: makeStoreKeys(store) },
    saveCreds: () => store.writeCreds(encodeAuthValue(creds)),
  };
}

export function makeStoreKeys(store: AuthStore): SignalKeyStore {
  return {
    async get<T extends keyof SignalDataTypeMap>(type: T, ids: string[]) {
      const rows = await store.readKeys(type, ids);
      const result: { [id: string]: SignalDataTypeMap[T] } = {};
      for (const [id, text] of rows) {
        const value = decodeAuthValue<SignalDataTypeMap[T]>(text);
        // Baileys expects the protobuf class here, not the plain object JSON gives back.
        result[id] =
          type === 'app-state-sync-key'
            ? (proto.Message.AppStateSyncKeyData.fromObject(
                value as object,
              ) as unknown as typeof value)
            : value;
      }
      return result;
    },
    async set(data: SignalDataSet) {
      const rows: AuthKeyRow[] = [];
      for (const type of AUTH_KEY_TYPES) {
        const entries = data[type];
        if (!entries) continue;
        for (const [id, value] of Object.entries(entries)) {
          rows.push({ type, id, value: value == null ? null : encodeAuthValue(value) });
        }
      }
      if (rows.length > 0) await store.writeKeys(rows);
    },
    clear: () => store.wipe(),
  };
}

/** An AuthStore in memory, for tests and the simulator. `writeKeys` applies all rows or none. */
export class MemoryAuthStore implements AuthStore {
  private creds: string | null = null;
  private readonly keys = new Map<string, string>();
  /** Set to make the next writeKeys fail, to test that nothing is half-written. */
  failNextWrite = false;

  async readCreds(): Promise<string | null> {
    return this.creds;
  }

  async writeCreds(value: string): Promise<void> {
    this.creds = value;
  }

  async readKeys(type: AuthKeyType, ids: readonly string[]): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    for (const id of ids) {
      const value = this.keys.get(rowKey(type, id));
      if (value !== undefined) found.set(id, value);
    }
    return found;
  }

  async writeKeys(rows: readonly AuthKeyRow[]): Promise<void> {
    if (this.failNextWrite) {
      this.failNextWrite = false;
      throw new Error('MemoryAuthStore: injected write failure');
    }
    for (const row of rows) {
      if (row.value === null) this.keys.delete(rowKey(row.type, row.id));
      else this.keys.set(rowKey(row.type, row.id), row.value);
    }
  }

  async wipe(): Promise<void> {
    this.creds = null;
    this.keys.clear();
  }

  /** Number of key rows of a type (or all), for tests. */
  count(type?: AuthKeyType): number {
    if (!type) return this.keys.size;
    return [...this.keys.keys()].filter((key) => key.startsWith(`${type}\u0000`)).length;
  }

  /** A deep copy, as if the rows were read back from a database in another process. */
  clone(): MemoryAuthStore {
    const copy = new MemoryAuthStore();
    copy.creds = this.creds;
    for (const [key, value] of this.keys) copy.keys.set(key, value);
    return copy;
  }
}

const rowKey = (type: AuthKeyType, id: string) => `${type}\u0000${id}`;
