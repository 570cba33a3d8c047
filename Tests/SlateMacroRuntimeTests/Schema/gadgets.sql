-- One schema, declared three ways (SQL here, for `slate generate`; a @Table struct; a hand-written
-- Table): OneTableModelTests checks that the three give byte-identical DDL.
CREATE TABLE "owner" ("id" INTEGER PRIMARY KEY, "name" TEXT NOT NULL);
CREATE TABLE "gadget" (
    "id" INTEGER PRIMARY KEY AUTOINCREMENT,
    "name" TEXT NOT NULL COLLATE "NOCASE",
    "price" REAL NOT NULL DEFAULT 0,
    "ownerId" INTEGER REFERENCES "owner" ("id") ON DELETE CASCADE,
    "code" TEXT UNIQUE,
    "note" TEXT
);
CREATE INDEX "gadget_ownerId" ON "gadget" ("ownerId");
