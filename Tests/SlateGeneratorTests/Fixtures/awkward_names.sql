-- Names with spaces, slashes, leading digits, quotes, Swift keywords, case clashes, and plurals.
CREATE TABLE "Order Details" ("Order ID" INTEGER NOT NULL, "Unit/Price" NUMERIC, "2fa" INTEGER, PRIMARY KEY ("Order ID"));
CREATE TABLE "default" ("class" TEXT, "self" INTEGER, "Type" TEXT, "protocol" TEXT, "Name" TEXT, "name_" TEXT, "primaryKey" TEXT, "let" INTEGER);
CREATE TABLE Talents (name TEXT NOT NULL);
CREATE TABLE Talent (name TEXT NOT NULL);
CREATE TABLE people (id INTEGER PRIMARY KEY, "first name" TEXT NOT NULL);
CREATE TABLE "Column" (id INTEGER PRIMARY KEY, "where" TEXT);
CREATE TABLE "select" ("from" TEXT, "in" INTEGER, "default" TEXT);
CREATE TABLE "with ""quotes""" ("a""b" TEXT DEFAULT 'it''s', "back\slash" TEXT);
CREATE TABLE note (
  id INTEGER PRIMARY KEY,
  body TEXT NOT NULL DEFAULT (
    'line one'
    || ' and two'
  ),
  n INTEGER CHECK (n > 0
    AND n < 10)
);
