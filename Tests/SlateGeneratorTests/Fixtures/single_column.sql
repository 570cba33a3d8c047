-- Single-column tables and views: no one-element tuples anywhere.
CREATE TABLE tag (name TEXT NOT NULL);
CREATE TABLE fun (intCol INTEGER, doubleCol REAL);
CREATE VIEW fun_sum AS SELECT SUM(intCol) + SUM(doubleCol) AS lol FROM fun;
