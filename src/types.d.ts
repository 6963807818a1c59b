/** Text imports of SQL files (metadata migrations) embedded by Bun. */
declare module '*.sql' {
  const text: string;
  export default text;
}
