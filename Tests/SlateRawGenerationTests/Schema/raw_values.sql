-- Values at the edges of their Swift types (slate.json: "columnTypes").
CREATE TABLE raw_value (
    id INTEGER PRIMARY KEY,
    big INTEGER,    -- UInt64
    small INTEGER,  -- Int8
    count INTEGER,  -- Int64
    score REAL,     -- Double
    ratio REAL,     -- Float
    amount,         -- Decimal, no declared type: values are kept as they are given
    label TEXT,
    bytes BLOB,
    happened_at DATETIME,
    level INTEGER NOT NULL DEFAULT 0  -- UInt8
);

-- A foreign key whose two sides have different Swift types (a DATETIME referencing TEXT): each value
-- is bound by its own type, so the generated fetches compile and compare what is stored.
CREATE TABLE raw_label (name TEXT PRIMARY KEY NOT NULL);
CREATE TABLE raw_mark (id INTEGER PRIMARY KEY, label_at DATETIME REFERENCES raw_label (name));
