CREATE TABLE score(player TEXT NOT NULL, points INTEGER NOT NULL);

-- score: 2 rows
INSERT INTO "score" ("player", "points") VALUES ('Ada', 10);
INSERT INTO "score" ("player", "points") VALUES ('Grace', 12);
