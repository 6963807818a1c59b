/** The benchmark data set in MariaDB (127.0.0.1:3306, root, database tablo_bench), the same rows as dataset.ts. */
import mysql from 'mysql2/promise';

export const MY = { host: '127.0.0.1', port: 3306, user: 'root', password: '', database: 'tablo_bench' };
const BOOKS = 1_000_000;
const PURCHASES = 1_000_000;

export async function loadMariadb(): Promise<typeof MY> {
  const admin = await mysql.createConnection({ ...MY, database: undefined });
  await admin.query('CREATE DATABASE IF NOT EXISTS tablo_bench');
  await admin.end();
  const db = await mysql.createConnection({ ...MY, multipleStatements: true });
  const count = async (table: string) => {
    const [t] = (await db.query('SELECT count(*) AS n FROM information_schema.tables WHERE table_schema = ? AND table_name = ?', ['tablo_bench', table])) as any;
    if (Number(t[0].n) === 0) return -1;
    const [r] = (await db.query(`SELECT count(*) AS n FROM ${table}`)) as any;
    return Number(r[0].n);
  };
  if ((await count('book')) !== BOOKS) {
    console.log('loading MariaDB (1,000,000 books, 1,000,000 reviews)…');
    await db.query(`
      DROP TABLE IF EXISTS review, book, author;
      CREATE TABLE author (id int PRIMARY KEY, name varchar(100) NOT NULL);
      CREATE TABLE book (id int PRIMARY KEY, author_id int NOT NULL, title varchar(100) NOT NULL, score int NOT NULL, created_at datetime NOT NULL, CONSTRAINT book_author_fk FOREIGN KEY (author_id) REFERENCES author (id));
      CREATE TABLE review (id int PRIMARY KEY, book_id int NOT NULL, body varchar(100) NOT NULL, CONSTRAINT review_book_fk FOREIGN KEY (book_id) REFERENCES book (id));
      INSERT INTO author SELECT seq, CONCAT('Author ', seq) FROM seq_1_to_10000;
      INSERT INTO book SELECT seq, 1 + (seq % 10000), CONCAT('Book ', seq), seq % 100, TIMESTAMP '2020-01-01 00:00:00' + INTERVAL seq MINUTE FROM seq_1_to_${BOOKS};
      INSERT INTO review SELECT seq, 1 + ((seq * 7) % ${BOOKS}), CONCAT('Review ', seq) FROM seq_1_to_${BOOKS};
      CREATE INDEX book_score ON book (score);
      ANALYZE TABLE author, book, review;
    `);
  }
  if ((await count('purchase')) !== PURCHASES) {
    console.log('loading MariaDB (1,000,000 purchases)…');
    await db.query(`
      DROP TABLE IF EXISTS purchase;
      CREATE TABLE purchase (id int PRIMARY KEY, customer_id int NOT NULL, status varchar(16) NOT NULL, amount int NOT NULL, created_at datetime NOT NULL);
      INSERT INTO purchase SELECT seq, 1 + (seq % 50000), ELT(1 + seq % 5, 'new', 'paid', 'shipped', 'delivered', 'cancelled'), seq % 1000,
        TIMESTAMP '2020-01-01 00:00:00' + INTERVAL ((seq * 7919) % ${PURCHASES}) MINUTE FROM seq_1_to_${PURCHASES};
      CREATE INDEX purchase_status_created ON purchase (status, created_at);
      ANALYZE TABLE purchase;
    `);
  }
  await db.query('CREATE TABLE IF NOT EXISTS entry (id int AUTO_INCREMENT PRIMARY KEY, title varchar(100) NOT NULL, score int NOT NULL, created_at datetime NOT NULL DEFAULT CURRENT_TIMESTAMP)');
  await db.end();
  return MY;
}
