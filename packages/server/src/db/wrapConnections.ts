import type { DatabaseConnection, Dialect, Driver } from 'kysely';

/**
 * The dialect with each connection its driver hands out passed through `wrap` (the audit's capture, the
 * SQLite lock wait): once per connection, since a driver hands the same connections out again and
 * again (SQLite's one connection for every query).
 */
export function wrapConnections(dialect: Dialect, wrap: (connection: DatabaseConnection) => DatabaseConnection): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createDriver: (): Driver => {
      const driver = dialect.createDriver();
      const acquire = driver.acquireConnection.bind(driver);
      const wrapped = new WeakMap<DatabaseConnection, DatabaseConnection>();
      driver.acquireConnection = async () => {
        const connection = await acquire();
        let outer = wrapped.get(connection);
        if (!outer) wrapped.set(connection, (outer = wrap(connection)));
        return outer;
      };
      return driver;
    },
  };
}
