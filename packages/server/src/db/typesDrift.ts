import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import ts from 'typescript';
import type { DbHandle, Dialect } from './connect';

/**
 * Holds db/types.ts (Kysely's `Database`, written by hand) to the tables and columns the migrations
 * make: db/typesDrift.test.ts migrates an empty database of each kind and compares. Test tooling: it
 * reads the types with the TypeScript compiler, which only the tests have.
 */

/** A table and its column names: as `Database` declares it (with its interface) or as a database has it. */
export interface TableColumns {
  name: string;
  columns: string[];
  /** The interface that declares the table's row (declared tables only). */
  interface?: string;
  /** The columns that may hold null: typed `… | null`, or nullable in the database. */
  nullable?: string[];
}

/** The file that assembles `Database`. */
export const TYPES_FILE = fileURLToPath(new URL('./types.ts', import.meta.url));

/**
 * The tables a migrated database has that `Database` leaves out on purpose, each with its reason and
 * the kinds of database that have it. Nothing else may be missing from the types.
 */
export const UNTYPED_TABLES: Record<string, { why: string; dialects: Dialect[] }> = {
  kysely_migration: { why: 'the record of applied migrations (db/migrate.ts MIGRATION_TABLE), read with raw SQL', dialects: ['sqlite', 'postgres'] },
  member_fts: { why: "SQLite's full-text index of the member search (migration 0008), queried with raw SQL", dialects: ['sqlite'] },
  member_fts_config: { why: 'a shadow table SQLite keeps for member_fts', dialects: ['sqlite'] },
  member_fts_data: { why: 'a shadow table SQLite keeps for member_fts', dialects: ['sqlite'] },
  member_fts_docsize: { why: 'a shadow table SQLite keeps for member_fts', dialects: ['sqlite'] },
  member_fts_idx: { why: 'a shadow table SQLite keeps for member_fts', dialects: ['sqlite'] },
  sqlite_schema: { why: "SQLite's own catalogue", dialects: ['sqlite'] },
  sqlite_sequence: { why: "SQLite's counters of the AUTOINCREMENT keys", dialects: ['sqlite'] },
};

/**
 * Every table of `Database` in `file` with the property names of its row type, read with the
 * TypeScript compiler: the properties of `Database` (its own and those it extends) resolve to their
 * interfaces, whose properties (their own, extended, merged or behind a type alias) are the columns.
 * `planted` replaces the text of files by path (tests plant a column this way).
 */
export function declaredTables(file: string = TYPES_FILE, planted: Record<string, string> = {}): TableColumns[] {
  const root = path.resolve(file);
  const texts = new Map(Object.entries(planted).map(([f, text]) => [path.resolve(f), text]));
  // No lib, no @types and no packages (kysely's Generated stays unresolved): only the names of
  // properties are wanted, not the types of their values, and reading kysely took seconds.
  const options: ts.CompilerOptions = {
    noEmit: true,
    noLib: true,
    types: [],
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    allowImportingTsExtensions: true,
  };
  const host = ts.createCompilerHost(options, true);
  const { fileExists, readFile, getSourceFile } = host;
  host.fileExists = (f) => texts.has(path.resolve(f)) || fileExists.call(host, f);
  host.readFile = (f) => texts.get(path.resolve(f)) ?? readFile.call(host, f);
  host.getSourceFile = (f, language, ...rest) => {
    const text = texts.get(path.resolve(f));
    return text === undefined ? getSourceFile.call(host, f, language, ...rest) : ts.createSourceFile(f, text, language, true);
  };
  host.resolveModuleNameLiterals = (literals, containing) =>
    literals.map((l) => ({ resolvedModule: l.text.startsWith('.') ? ts.resolveModuleName(l.text, containing, options, host).resolvedModule : undefined }));
  const program = ts.createProgram([root], options, host);
  const syntax = program.getSyntacticDiagnostics();
  if (syntax.length) throw new Error(`cannot read the types: ${ts.flattenDiagnosticMessageText(syntax[0]!.messageText, '\n')} (${syntax[0]!.file?.fileName})`);
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(root);
  const module = source && checker.getSymbolAtLocation(source);
  const database = module && checker.getExportsOfModule(module).find((s) => s.name === 'Database');
  if (!database) throw new Error(`${root} exports no Database`);
  return checker.getPropertiesOfType(checker.getDeclaredTypeOfSymbol(database)).map((table) => {
    const row = checker.getTypeOfSymbol(table);
    const properties = checker.getPropertiesOfType(row);
    const columns = properties.map((c) => c.name);
    // Read from the declaration's text: the value types themselves are not resolved (no lib, no kysely).
    const nullable = properties.filter((c) => c.declarations?.some((d) => ts.isPropertySignature(d) && d.type && /\bnull\b/.test(d.type.getText()))).map((c) => c.name);
    if (!columns.length) throw new Error(`Database.${table.name}: its type ${checker.typeToString(row)} resolves to no columns`);
    // An interface or alias by its name; an inline object type by its text.
    const named = (row.aliasSymbol ?? row.getSymbol())?.name;
    return { name: table.name, columns, nullable, interface: named && named !== ts.InternalSymbolName.Type ? named : checker.typeToString(row) };
  });
}

/** Every table, view and virtual or shadow table of the handle's database (its own schema on PostgreSQL), with its columns. */
export async function databaseTables(handle: DbHandle): Promise<TableColumns[]> {
  const db = handle.db;
  if (handle.dialect === 'sqlite') {
    const tables = await sql<{ name: string }>`select name from pragma_table_list where schema = 'main' order by name`.execute(db);
    const out: TableColumns[] = [];
    for (const { name } of tables.rows) {
      const cols = await sql<{ name: string; notnull: number; pk: number }>`select name, "notnull", pk from pragma_table_info(${name})`.execute(db);
      out.push({ name, columns: cols.rows.map((c) => c.name), nullable: cols.rows.filter((c) => c.notnull === 0 && c.pk === 0).map((c) => c.name) });
    }
    return out;
  }
  const { rows } = await sql<{ table: string; column: string | null; nullable: string | null }>`
    select t.table_name as table, c.column_name as column, c.is_nullable as nullable
    from information_schema.tables t
    left join information_schema.columns c on c.table_schema = t.table_schema and c.table_name = t.table_name
    where t.table_schema = current_schema()
    order by t.table_name, c.ordinal_position`.execute(db);
  const byName = new Map<string, TableColumns>();
  for (const r of rows) {
    const t = byName.get(r.table) ?? { name: r.table, columns: [], nullable: [] };
    if (r.column !== null) t.columns.push(r.column);
    if (r.column !== null && r.nullable === 'YES') t.nullable!.push(r.column);
    byName.set(r.table, t);
  }
  return [...byName.values()];
}

/**
 * What differs between the declared tables and a database's, one line each, naming the table, the
 * column and the interface; empty when they match. The database's tables named in `untyped` are left
 * out (and may not be declared either).
 */
export function compareSchema(declared: TableColumns[], actual: TableColumns[], untyped: Iterable<string> = Object.keys(UNTYPED_TABLES)): string[] {
  const skip = new Set(untyped);
  const found = actual.filter((t) => !skip.has(t.name));
  const have = new Map(found.map((t) => [t.name, new Set(t.columns)]));
  const want = new Map(declared.map((t) => [t.name, t]));
  const out: string[] = [];
  for (const t of declared) {
    const iface = t.interface ?? t.name;
    const columns = have.get(t.name);
    if (skip.has(t.name)) out.push(`table ${t.name} is declared in Database (${iface}) but listed as untyped`);
    else if (!columns) out.push(`table ${t.name} is declared in Database (${iface}) but the database has no such table`);
    else for (const c of t.columns) if (!columns.has(c)) out.push(`column ${t.name}.${c} is declared in ${iface} but the database has no such column`);
  }
  for (const [name, columns] of have) {
    const t = want.get(name);
    if (!t) out.push(`table ${name} is in the database but not in Database`);
    else for (const c of columns) if (!t.columns.includes(c)) out.push(`column ${name}.${c} is in the database but not in ${t.interface ?? name}`);
  }
  // A column the database lets be null but the type says always holds a value: code would trust a value that may be missing.
  for (const t of found) {
    const d = want.get(t.name);
    for (const c of t.nullable ?? []) {
      if (d?.nullable && d.columns.includes(c) && !d.nullable.includes(c)) out.push(`column ${t.name}.${c} may be null in the database but ${d.interface ?? t.name} types it without null`);
    }
  }
  return out;
}
