import type { CreateTableBuilder } from 'kysely';
import type { Dialect } from '../connect';

/** An auto-increment integer primary key named id, as each dialect spells it. */
export function idColumn<T extends string>(table: CreateTableBuilder<T, never>, dialect: Dialect) {
  return dialect === 'postgres'
    ? table.addColumn('id', 'serial', (c) => c.primaryKey())
    : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}
