-- Named queries next to their schema: each becomes a function on the database type (and a free
-- function over the C API in the raw style). The tables are part of the hard-case schema.
CREATE TABLE nq_author (id INTEGER PRIMARY KEY, name TEXT NOT NULL, born DATE, token UUID);
CREATE TABLE nq_book (
  id INTEGER PRIMARY KEY,
  author_id INTEGER NOT NULL REFERENCES nq_author (id),
  title TEXT NOT NULL,
  pages INTEGER,
  price REAL
);

-- name: booksByAuthor
-- The books of one author, by title.
SELECT b.id, b.title, b.pages, a.name AS author
FROM nq_book b JOIN nq_author a ON a.id = b.author_id
WHERE a.id = :authorId
ORDER BY b.title;

-- name: authorsBornAfter
SELECT id, name, born FROM nq_author WHERE born > :date ORDER BY id;

-- name: authorNameByToken
SELECT name FROM nq_author WHERE token = :token;

-- name: bookStatistics
SELECT count(*) AS books, sum(pages) AS pages, max(price) AS "highest!" FROM nq_book;

-- name: addBook
INSERT INTO nq_book (author_id, title, pages) VALUES (:authorId, :title, :pages) RETURNING id;

-- name: retitleBook
UPDATE nq_book SET title = :title WHERE id = :id;

-- name: birthDate
SELECT born FROM nq_author WHERE id = :id;
