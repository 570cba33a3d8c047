-- 50 tables for the schema-check-50 scenario: the build plugin generates their record types
-- (slate.json), the scenario creates them in a file and checks it against those types.
-- Each has a rowid key, NOT NULL and nullable columns, defaults, a UNIQUE column, a foreign key
-- to the previous table and an index.
CREATE TABLE checked_01 (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  code TEXT UNIQUE,
  parent_id INTEGER,
  amount REAL NOT NULL DEFAULT 0,
  quantity INTEGER NOT NULL DEFAULT 1,
  note TEXT,
  created_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,
  flag INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX checked_01_by_name ON checked_01 (name, quantity);
CREATE TABLE checked_02 (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  code TEXT UNIQUE,
  parent_id INTEGER REFERENCES checked_01 (id) ON DELETE SET NULL,
  amount REAL NOT NULL DEFAULT 0,
  quantity INTEGER NOT NULL DEFAULT 1,
  note TEXT,
  created_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,
  flag INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX checked_02_by_name ON checked_02 (name, quantity);
CREATE TABLE checked_03 (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  code TEXT UNIQUE,
  parent_id INTEGER REFERENCES checked_02 (id) ON DELETE SET NULL,
  amount REAL NOT NULL DEFAULT 0,
  quantity INTEGER NOT NULL DEFAULT 1,
  note TEXT,
  created_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,
  flag INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX checked_03_by_name ON checked_03 (name, quantity);
CREATE TABLE checked_04 (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  code TEXT UNIQUE,
  parent_id INTEGER REFERENCES checked_03 (id) ON DELETE SET NULL,
  amount REAL NOT NULL DEFAULT 0,
  quantity INTEGER NOT NULL DEFAULT 1,
  note TEXT,
  created_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,
  flag INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX checked_04_by_name ON checked_04 (name, quantity);
CREATE TABLE checked_05 (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  code TEXT UNIQUE,
  parent_id INTEGER REFERENCES checked_04 (id) ON DELETE SET NULL,
  amount REAL NOT NULL DEFAULT 0,
  quantity INTEGER NOT NULL DEFAULT 1,
  note TEXT,
  created_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,
  flag INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX checked_05_by_name ON checked_05 (name, quantity);
CREATE TABLE checked_06 (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  code TEXT UNIQUE,
  parent_id INTEGER REFERENCES checked_05 (id) ON DELETE SET NULL,
  amount REAL NOT NULL DEFAULT 0,
  quantity INTEGER NOT NULL DEFAULT 1,
  note TEXT,
  created_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,
  flag INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX checked_06_by_name ON checked_06 (name, quantity);
CREATE TABLE checked_07 (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  code TEXT UNIQUE,
  parent_id INTEGER REFERENCES checked_06 (id) ON DELETE SET NULL,
  amount REAL NOT NULL DEFAULT 0,
  quantity INTEGER NOT NULL DEFAULT 1,
  note TEXT,
  created_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,
  flag INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX checked_07_by_name ON checked_07 (name, quantity);
CREATE TABLE checked_08 (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  code TEXT UNIQUE,
  parent_id INTEGER REFERENCES checked_07 (id) ON DELETE SET NULL,
  amount REAL NOT NULL DEFAULT 0,
  quantity INTEGER NOT NULL DEFAULT 1,
  note TEXT,
  created_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,
  flag INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX checked_08_by_name ON checked_08 (name, quantity);
CREATE TABLE checked_09 (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  code TEXT UNIQUE,
  parent_id INTEGER REFERENCES checked_08 (id) ON DELETE SET NULL,
  amount REAL NOT NULL DEFAULT 0,
  quantity INTEGER NOT NULL DEFAULT 1,
  note TEXT,
  created_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,
  flag INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX checked_09_by_name ON checked_09 (name, quantity);
CREATE TABLE checked_10 (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  code TEXT UNIQUE,
  parent_id INTEGER REFERENCES checked_09 (id) ON DELETE SET NULL,
  amount REAL NOT NULL DEFAULT 0,
  quantity INTEGER NOT NULL DEFAULT 1,
  note TEXT,
  created_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,
  flag INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX checked_10_by_name ON checked_10 (name, quantity);
CREATE TABLE checked_11 (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  code TEXT UNIQUE,
  parent_id INTEGER REFERENCES checked_10 (id) ON DELETE SET NULL,
  amount REAL NOT NULL DEFAULT 0,
  quantity INTEGER NOT NULL DEFAULT 1,
  note TEXT,
  created_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,
  flag INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX checked_11_by_name ON checked_11 (name, quantity);
CREATE TABLE checked_12 (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  code TEXT UNIQUE,
  parent_id INTEGER REFERENCES checked_11 (id) ON DELETE SET NULL,
  amount REAL NOT NULL DEFAULT 0,
  quantity INTEGER NOT NULL DEFAULT 1,
  note TEXT,
  created_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,
  flag INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX checked_12_by_name ON checked_12 (name, quantity);
CREATE TABLE checked_13 (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  code TEXT UNIQUE,
  parent_id INTEGER REFERENCES checked_12 (id) ON DELETE SET NULL,
  amount REAL NOT NULL DEFAULT 0,
  quantity INTEGER NOT NULL DEFAULT 1,
  note TEXT,
  created_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,
  flag INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX checked_13_by_name ON checked_13 (name, quantity);
CREATE TABLE checked_14 (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  code TEXT UNIQUE,
  parent_id INTEGER REFERENCES checked_13 (id) ON DELETE SET NULL,
  amount REAL NOT NULL DEFAULT 0,
  quantity INTEGER NOT NULL DEFAULT 1,
  note TEXT,
  created_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,
  flag INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX checked_14_by_name ON checked_14 (name, quantity);
CREATE TABLE checked_15 (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  code TEXT UNIQUE,
  parent_id INTEGER REFERENCES checked_14 (id) ON DELETE SET NULL,
  amount REAL NOT NULL DEFAULT 0,
  quantity INTEGER NOT NULL DEFAULT 1,
  note TEXT,
  created_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,
  flag INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX checked_15_by_name ON checked_15 (name, quantity);
CREATE TABLE checked_16 (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  code TEXT UNIQUE,
  parent_id INTEGER REFERENCES checked_15 (id) ON DELETE SET NULL,
  amount REAL NOT NULL DEFAULT 0,
  quantity INTEGER NOT NULL DEFAULT 1,
  note TEXT,
  created_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,
  flag INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX checked_16_by_name ON checked_16 (name, quantity);
CREATE TABLE checked_17 (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  code TEXT UNIQUE,
  parent_id INTEGER REFERENCES checked_16 (id) ON DELETE SET NULL,
  amount REAL NOT NULL DEFAULT 0,
  quantity INTEGER NOT NULL DEFAULT 1,
  note TEXT,
  created_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,
  flag INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX checked_17_by_name ON checked_17 (name, quantity);
CREATE TABLE checked_18 (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  code TEXT UNIQUE,
  parent_id INTEGER REFERENCES checked_17 (id) ON DELETE SET NULL,
  amount REAL NOT NULL DEFAULT 0,
  quantity INTEGER NOT NULL DEFAULT 1,
  note TEXT,
  created_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,
  flag INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX checked_18_by_name ON checked_18 (name, quantity);
CREATE TABLE checked_19 (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  code TEXT UNIQUE,
  parent_id INTEGER REFERENCES checked_18 (id) ON DELETE SET NULL,
  amount REAL NOT NULL DEFAULT 0,
  quantity INTEGER NOT NULL DEFAULT 1,
  note TEXT,
  created_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,
  flag INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX checked_19_by_name ON checked_19 (name, quantity);
CREATE TABLE checked_20 (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  code TEXT UNIQUE,
  parent_id INTEGER REFERENCES checked_19 (id) ON DELETE SET NULL,
  amount REAL NOT NULL DEFAULT 0,
  quantity INTEGER NOT NULL DEFAULT 1,
  note TEXT,
  created_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,
  flag INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX checked_20_by_name ON checked_20 (name, quantity);
CREATE TABLE checked_21 (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  code TEXT UNIQUE,
  parent_id INTEGER REFERENCES checked_20 (id) ON DELETE SET NULL,
  amount REAL NOT NULL DEFAULT 0,
  quantity INTEGER NOT NULL DEFAULT 1,
  note TEXT,
  created_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,
  flag INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX checked_21_by_name ON checked_21 (name, quantity);
CREATE TABLE checked_22 (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  code TEXT UNIQUE,
  parent_id INTEGER REFERENCES checked_21 (id) ON DELETE SET NULL,
  amount REAL NOT NULL DEFAULT 0,
  quantity INTEGER NOT NULL DEFAULT 1,
  note TEXT,
  created_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,
  flag INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX checked_22_by_name ON checked_22 (name, quantity);
CREATE TABLE checked_23 (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  code TEXT UNIQUE,
  parent_id INTEGER REFERENCES checked_22 (id) ON DELETE SET NULL,
  amount REAL NOT NULL DEFAULT 0,
  quantity INTEGER NOT NULL DEFAULT 1,
  note TEXT,
  created_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,
  flag INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX checked_23_by_name ON checked_23 (name, quantity);
CREATE TABLE checked_24 (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  code TEXT UNIQUE,
  parent_id INTEGER REFERENCES checked_23 (id) ON DELETE SET NULL,
  amount REAL NOT NULL DEFAULT 0,
  quantity INTEGER NOT NULL DEFAULT 1,
  note TEXT,
  created_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,
  flag INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX checked_24_by_name ON checked_24 (name, quantity);
CREATE TABLE checked_25 (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  code TEXT UNIQUE,
  parent_id INTEGER REFERENCES checked_24 (id) ON DELETE SET NULL,
  amount REAL NOT NULL DEFAULT 0,
  quantity INTEGER NOT NULL DEFAULT 1,
  note TEXT,
  created_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,
  flag INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX checked_25_by_name ON checked_25 (name, quantity);
CREATE TABLE checked_26 (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  code TEXT UNIQUE,
  parent_id INTEGER REFERENCES checked_25 (id) ON DELETE SET NULL,
  amount REAL NOT NULL DEFAULT 0,
  quantity INTEGER NOT NULL DEFAULT 1,
  note TEXT,
  created_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,
  flag INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX checked_26_by_name ON checked_26 (name, quantity);
CREATE TABLE checked_27 (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  code TEXT UNIQUE,
  parent_id INTEGER REFERENCES checked_26 (id) ON DELETE SET NULL,
  amount REAL NOT NULL DEFAULT 0,
  quantity INTEGER NOT NULL DEFAULT 1,
  note TEXT,
  created_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,
  flag INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX checked_27_by_name ON checked_27 (name, quantity);
CREATE TABLE checked_28 (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  code TEXT UNIQUE,
  parent_id INTEGER REFERENCES checked_27 (id) ON DELETE SET NULL,
  amount REAL NOT NULL DEFAULT 0,
  quantity INTEGER NOT NULL DEFAULT 1,
  note TEXT,
  created_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,
  flag INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX checked_28_by_name ON checked_28 (name, quantity);
CREATE TABLE checked_29 (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  code TEXT UNIQUE,
  parent_id INTEGER REFERENCES checked_28 (id) ON DELETE SET NULL,
  amount REAL NOT NULL DEFAULT 0,
  quantity INTEGER NOT NULL DEFAULT 1,
  note TEXT,
  created_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,
  flag INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX checked_29_by_name ON checked_29 (name, quantity);
CREATE TABLE checked_30 (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  code TEXT UNIQUE,
  parent_id INTEGER REFERENCES checked_29 (id) ON DELETE SET NULL,
  amount REAL NOT NULL DEFAULT 0,
  quantity INTEGER NOT NULL DEFAULT 1,
  note TEXT,
  created_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,
  flag INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX checked_30_by_name ON checked_30 (name, quantity);
CREATE TABLE checked_31 (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  code TEXT UNIQUE,
  parent_id INTEGER REFERENCES checked_30 (id) ON DELETE SET NULL,
  amount REAL NOT NULL DEFAULT 0,
  quantity INTEGER NOT NULL DEFAULT 1,
  note TEXT,
  created_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,
  flag INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX checked_31_by_name ON checked_31 (name, quantity);
CREATE TABLE checked_32 (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  code TEXT UNIQUE,
  parent_id INTEGER REFERENCES checked_31 (id) ON DELETE SET NULL,
  amount REAL NOT NULL DEFAULT 0,
  quantity INTEGER NOT NULL DEFAULT 1,
  note TEXT,
  created_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,
  flag INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX checked_32_by_name ON checked_32 (name, quantity);
CREATE TABLE checked_33 (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  code TEXT UNIQUE,
  parent_id INTEGER REFERENCES checked_32 (id) ON DELETE SET NULL,
  amount REAL NOT NULL DEFAULT 0,
  quantity INTEGER NOT NULL DEFAULT 1,
  note TEXT,
  created_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,
  flag INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX checked_33_by_name ON checked_33 (name, quantity);
CREATE TABLE checked_34 (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  code TEXT UNIQUE,
  parent_id INTEGER REFERENCES checked_33 (id) ON DELETE SET NULL,
  amount REAL NOT NULL DEFAULT 0,
  quantity INTEGER NOT NULL DEFAULT 1,
  note TEXT,
  created_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,
  flag INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX checked_34_by_name ON checked_34 (name, quantity);
CREATE TABLE checked_35 (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  code TEXT UNIQUE,
  parent_id INTEGER REFERENCES checked_34 (id) ON DELETE SET NULL,
  amount REAL NOT NULL DEFAULT 0,
  quantity INTEGER NOT NULL DEFAULT 1,
  note TEXT,
  created_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,
  flag INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX checked_35_by_name ON checked_35 (name, quantity);
CREATE TABLE checked_36 (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  code TEXT UNIQUE,
  parent_id INTEGER REFERENCES checked_35 (id) ON DELETE SET NULL,
  amount REAL NOT NULL DEFAULT 0,
  quantity INTEGER NOT NULL DEFAULT 1,
  note TEXT,
  created_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,
  flag INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX checked_36_by_name ON checked_36 (name, quantity);
CREATE TABLE checked_37 (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  code TEXT UNIQUE,
  parent_id INTEGER REFERENCES checked_36 (id) ON DELETE SET NULL,
  amount REAL NOT NULL DEFAULT 0,
  quantity INTEGER NOT NULL DEFAULT 1,
  note TEXT,
  created_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,
  flag INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX checked_37_by_name ON checked_37 (name, quantity);
CREATE TABLE checked_38 (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  code TEXT UNIQUE,
  parent_id INTEGER REFERENCES checked_37 (id) ON DELETE SET NULL,
  amount REAL NOT NULL DEFAULT 0,
  quantity INTEGER NOT NULL DEFAULT 1,
  note TEXT,
  created_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,
  flag INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX checked_38_by_name ON checked_38 (name, quantity);
CREATE TABLE checked_39 (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  code TEXT UNIQUE,
  parent_id INTEGER REFERENCES checked_38 (id) ON DELETE SET NULL,
  amount REAL NOT NULL DEFAULT 0,
  quantity INTEGER NOT NULL DEFAULT 1,
  note TEXT,
  created_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,
  flag INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX checked_39_by_name ON checked_39 (name, quantity);
CREATE TABLE checked_40 (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  code TEXT UNIQUE,
  parent_id INTEGER REFERENCES checked_39 (id) ON DELETE SET NULL,
  amount REAL NOT NULL DEFAULT 0,
  quantity INTEGER NOT NULL DEFAULT 1,
  note TEXT,
  created_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,
  flag INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX checked_40_by_name ON checked_40 (name, quantity);
CREATE TABLE checked_41 (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  code TEXT UNIQUE,
  parent_id INTEGER REFERENCES checked_40 (id) ON DELETE SET NULL,
  amount REAL NOT NULL DEFAULT 0,
  quantity INTEGER NOT NULL DEFAULT 1,
  note TEXT,
  created_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,
  flag INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX checked_41_by_name ON checked_41 (name, quantity);
CREATE TABLE checked_42 (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  code TEXT UNIQUE,
  parent_id INTEGER REFERENCES checked_41 (id) ON DELETE SET NULL,
  amount REAL NOT NULL DEFAULT 0,
  quantity INTEGER NOT NULL DEFAULT 1,
  note TEXT,
  created_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,
  flag INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX checked_42_by_name ON checked_42 (name, quantity);
CREATE TABLE checked_43 (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  code TEXT UNIQUE,
  parent_id INTEGER REFERENCES checked_42 (id) ON DELETE SET NULL,
  amount REAL NOT NULL DEFAULT 0,
  quantity INTEGER NOT NULL DEFAULT 1,
  note TEXT,
  created_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,
  flag INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX checked_43_by_name ON checked_43 (name, quantity);
CREATE TABLE checked_44 (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  code TEXT UNIQUE,
  parent_id INTEGER REFERENCES checked_43 (id) ON DELETE SET NULL,
  amount REAL NOT NULL DEFAULT 0,
  quantity INTEGER NOT NULL DEFAULT 1,
  note TEXT,
  created_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,
  flag INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX checked_44_by_name ON checked_44 (name, quantity);
CREATE TABLE checked_45 (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  code TEXT UNIQUE,
  parent_id INTEGER REFERENCES checked_44 (id) ON DELETE SET NULL,
  amount REAL NOT NULL DEFAULT 0,
  quantity INTEGER NOT NULL DEFAULT 1,
  note TEXT,
  created_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,
  flag INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX checked_45_by_name ON checked_45 (name, quantity);
CREATE TABLE checked_46 (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  code TEXT UNIQUE,
  parent_id INTEGER REFERENCES checked_45 (id) ON DELETE SET NULL,
  amount REAL NOT NULL DEFAULT 0,
  quantity INTEGER NOT NULL DEFAULT 1,
  note TEXT,
  created_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,
  flag INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX checked_46_by_name ON checked_46 (name, quantity);
CREATE TABLE checked_47 (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  code TEXT UNIQUE,
  parent_id INTEGER REFERENCES checked_46 (id) ON DELETE SET NULL,
  amount REAL NOT NULL DEFAULT 0,
  quantity INTEGER NOT NULL DEFAULT 1,
  note TEXT,
  created_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,
  flag INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX checked_47_by_name ON checked_47 (name, quantity);
CREATE TABLE checked_48 (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  code TEXT UNIQUE,
  parent_id INTEGER REFERENCES checked_47 (id) ON DELETE SET NULL,
  amount REAL NOT NULL DEFAULT 0,
  quantity INTEGER NOT NULL DEFAULT 1,
  note TEXT,
  created_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,
  flag INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX checked_48_by_name ON checked_48 (name, quantity);
CREATE TABLE checked_49 (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  code TEXT UNIQUE,
  parent_id INTEGER REFERENCES checked_48 (id) ON DELETE SET NULL,
  amount REAL NOT NULL DEFAULT 0,
  quantity INTEGER NOT NULL DEFAULT 1,
  note TEXT,
  created_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,
  flag INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX checked_49_by_name ON checked_49 (name, quantity);
CREATE TABLE checked_50 (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  code TEXT UNIQUE,
  parent_id INTEGER REFERENCES checked_49 (id) ON DELETE SET NULL,
  amount REAL NOT NULL DEFAULT 0,
  quantity INTEGER NOT NULL DEFAULT 1,
  note TEXT,
  created_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,
  flag INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX checked_50_by_name ON checked_50 (name, quantity);
