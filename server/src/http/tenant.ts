import type {
  DataSource,
  EntityManager,
  EntitySchema,
  FindOptionsOrder,
  FindOptionsWhere,
  ObjectLiteral,
  SelectQueryBuilder,
} from 'typeorm';
import type { ErrorCode, Reference } from '@atende/shared';
import { AppError } from './errors.js';
import { assertReferencesOwned } from './references.js';

interface Owned extends ObjectLiteral {
  id: number;
  companyId: number;
}

/**
 * The tenant scope: the one place queries get their company. The company always comes from the
 * authenticated user, never from the request. A row of another company is simply not found.
 */
export class TenantScope {
  constructor(
    readonly companyId: number,
    private readonly db: DataSource | EntityManager,
  ) {}

  repo<T extends Owned>(entity: EntitySchema<T>, notFound: ErrorCode = 'ERR_NOT_FOUND') {
    return new ScopedRepository<T>(this.companyId, this.db, entity, notFound);
  }

  /** Every id a request names is a row of this company, or the kind's 404 (references.ts). */
  assertOwns(references: Reference[]): Promise<void> {
    return assertReferencesOwned(this.db, this.companyId, references);
  }

  /** The same scope inside a transaction. */
  with(manager: EntityManager): TenantScope {
    return new TenantScope(this.companyId, manager);
  }
}

type Where<T> = FindOptionsWhere<T>;

export class ScopedRepository<T extends Owned> {
  constructor(
    readonly companyId: number,
    private readonly db: DataSource | EntityManager,
    private readonly entity: EntitySchema<T>,
    private readonly notFound: ErrorCode,
  ) {}

  private get repository() {
    return this.db.getRepository<T>(this.entity);
  }

  private scoped(where: Where<T> | Where<T>[] = {}): Where<T>[] | Where<T> {
    const own = { companyId: this.companyId } as Where<T>;
    return Array.isArray(where) ? where.map((w) => ({ ...w, ...own })) : { ...where, ...own };
  }

  find(
    where?: Where<T> | Where<T>[],
    options: { order?: FindOptionsOrder<T>; skip?: number; take?: number } = {},
  ): Promise<T[]> {
    return this.repository.find({ where: this.scoped(where), ...options });
  }

  findOne(where: Where<T>): Promise<T | null> {
    return this.repository.findOne({ where: this.scoped(where) });
  }

  /** The row with this id in the caller's company, or the module's not-found error. */
  async get(id: number): Promise<T> {
    const row = await this.findOne({ id } as Where<T>);
    if (!row) throw new AppError(this.notFound);
    return row;
  }

  count(where?: Where<T> | Where<T>[]): Promise<number> {
    return this.repository.count({ where: this.scoped(where) });
  }

  async create(values: Partial<Omit<T, 'id' | 'companyId'>>): Promise<T> {
    const row = this.repository.create({ ...values, companyId: this.companyId } as T);
    return this.repository.save(row);
  }

  async update(id: number, values: Partial<Omit<T, 'id' | 'companyId'>>): Promise<T> {
    const row = await this.get(id);
    Object.assign(row, values, { id, companyId: this.companyId });
    return this.repository.save(row);
  }

  async delete(id: number): Promise<void> {
    const result = await this.repository.delete(this.scoped({ id } as Where<T>) as Where<T>);
    if (!result.affected) throw new AppError(this.notFound);
  }

  /** A query builder already restricted to the caller's company. */
  query(alias: string): SelectQueryBuilder<T> {
    return this.repository
      .createQueryBuilder(alias)
      .where(`${alias}."companyId" = :companyId`, { companyId: this.companyId });
  }
}
