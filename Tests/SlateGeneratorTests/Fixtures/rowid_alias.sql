-- Only INTEGER PRIMARY KEY is a rowid alias; INT, BIGINT and INTEGER … DESC are not.
CREATE TABLE alias_key (id INTEGER PRIMARY KEY, label TEXT);
CREATE TABLE int_key (id INT PRIMARY KEY, label TEXT);
CREATE TABLE bigint_key (id BIGINT PRIMARY KEY NOT NULL, label TEXT);
CREATE TABLE desc_key (id INTEGER PRIMARY KEY DESC, label TEXT);
CREATE TABLE auto_key (id INTEGER PRIMARY KEY AUTOINCREMENT, label TEXT NOT NULL DEFAULT 'none');
CREATE TABLE no_key (a TEXT, b BLOB, c);
CREATE TABLE strict_key (id INTEGER PRIMARY KEY, amount REAL NOT NULL DEFAULT 1.5, flag INTEGER NOT NULL DEFAULT TRUE) STRICT;
CREATE TABLE computed (a INTEGER NOT NULL, b INTEGER GENERATED ALWAYS AS (a * 2) STORED, c AS (a + 1));
-- A key not called id next to a column called id: no Identifiable (its `var id` would clash).
CREATE TABLE id_beside_key (key INTEGER PRIMARY KEY, id TEXT NOT NULL);
CREATE TABLE id_beside_text_key (code TEXT PRIMARY KEY NOT NULL, id INTEGER);
