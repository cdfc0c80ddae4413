// Every statement a handle sends, told to a listener: the order path's statement count
// (tests/db/order-statements_test.ts) and the order-life replay of the order-placement bench read
// it. Kysely sends a transaction's BEGIN and COMMIT through its driver (PGlite opens its own
// transaction for them), so the driver's three transaction calls are told here as the statements
// they stand for, alike on both backends; a savepoint is not used by the app.
import type { CompiledQuery, DatabaseConnection, Dialect, Driver } from "kysely";

/**
 * Told each statement before it is sent: its SQL and parameters. What it returns, if anything, is
 * told the rows the statement answered (the order-life replay follows the ids they hand out).
 */
export type StatementListener = (
  sql: string,
  parameters: readonly unknown[],
) => void | ((rows: readonly unknown[]) => void);

/** `dialect` telling `listener` each statement it sends. */
export function loggedDialect(dialect: Dialect, listener: StatementListener): Dialect {
  return {
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createAdapter: () => dialect.createAdapter(),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createDriver: () => loggedDriver(dialect.createDriver(), listener),
  };
}

function loggedDriver(driver: Driver, listener: StatementListener): Driver {
  const inner = new WeakMap<DatabaseConnection, DatabaseConnection>();
  const unwrap = (c: DatabaseConnection) => inner.get(c) ?? c;
  return {
    init: (options) => driver.init(options),
    async acquireConnection(options) {
      const connection = await driver.acquireConnection(options);
      const logged: DatabaseConnection = {
        async executeQuery<R>(query: CompiledQuery) {
          const answered = listener(query.sql, query.parameters);
          const result = await connection.executeQuery<R>(query);
          if (typeof answered === "function") answered(result.rows);
          return result;
        },
        streamQuery: (query, chunkSize) => connection.streamQuery(query, chunkSize),
      };
      inner.set(logged, connection);
      return logged;
    },
    beginTransaction(connection, settings) {
      listener("BEGIN", []);
      return driver.beginTransaction(unwrap(connection), settings);
    },
    commitTransaction(connection) {
      listener("COMMIT", []);
      return driver.commitTransaction(unwrap(connection));
    },
    rollbackTransaction(connection) {
      listener("ROLLBACK", []);
      return driver.rollbackTransaction(unwrap(connection));
    },
    releaseConnection: (connection, options) =>
      driver.releaseConnection(unwrap(connection), options),
    destroy: (options) => driver.destroy(options),
  };
}
