// Creates pages.db with sample pages: node scripts/seed.mjs [COUNT]
import Database from 'better-sqlite3';

const file = process.env.PAGES_DB ?? 'pages.db';
const count = Number(process.argv[2] ?? 120);
const db = new Database(file);
db.exec('DROP TABLE IF EXISTS pages; CREATE TABLE pages (id INTEGER PRIMARY KEY, path TEXT NOT NULL, updated TEXT NOT NULL)');
const insert = db.prepare('INSERT INTO pages (path, updated) VALUES (?, ?)');
db.transaction(() => {
  insert.run('/', '2026-01-01');
  for (let i = 1; i < count; i++) insert.run(`/products/${i}`, `2026-01-${String((i % 28) + 1).padStart(2, '0')}`);
})();
db.close();
console.log(`${file}: ${count} pages`);
