/** The product name of a database engine id ('pg' -> 'PostgreSQL'); an unknown id as it is. */
const ENGINE_NAMES: Record<string, string> = { pg: 'PostgreSQL', mysql: 'MySQL / MariaDB', mssql: 'SQL Server', sqlite: 'SQLite' }; // i18n-ignore: product names

export const engineName = (client: string): string => ENGINE_NAMES[client] ?? client;
