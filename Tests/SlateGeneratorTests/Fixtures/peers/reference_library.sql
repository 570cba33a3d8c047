-- The shapes of a reference manager's library (Zotero's schema is the model; these tables are
-- Slate's own): camelCase names ending in `ID`, untyped columns, keys to tables that are not in
-- the schema, a key that is also the primary key, two keys from one table to another, a linking
-- table between a table and itself, a self-reference, linking tables with and without columns of
-- their own, columns named where an association would go, and tables without a foreign key.
CREATE TABLE schemaVersion (schema TEXT PRIMARY KEY, version INT NOT NULL);

CREATE TABLE preferences (scope TEXT, key TEXT, value, PRIMARY KEY (scope, key));

CREATE TABLE shelves (
    shelfID INTEGER PRIMARY KEY,
    shelfType TEXT NOT NULL,
    works INT NOT NULL DEFAULT 0  -- a cached count, named as the shelf's works would be
);

CREATE TABLE works (
    workID INTEGER PRIMARY KEY,
    workTypeID INT NOT NULL REFERENCES workTypes (workTypeID),  -- a table of another schema file
    shelfID INT REFERENCES shelves (shelfID),
    shelf TEXT,  -- a column named as the association to shelves would be
    key TEXT NOT NULL,
    dateAdded TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
    UNIQUE (shelfID, key)
);

CREATE TABLE fieldValues (valueID INTEGER PRIMARY KEY, value UNIQUE);

CREATE TABLE workFields (
    workID INT REFERENCES works (workID),
    fieldID INT REFERENCES fieldDefinitions (fieldID),
    valueID REFERENCES fieldValues (valueID),  -- untyped
    PRIMARY KEY (workID, fieldID)
);

-- Its primary key is also a key to `works`, and a second key references `works` too.
CREATE TABLE workNotes (
    workID INTEGER PRIMARY KEY REFERENCES works (workID),
    parentWorkID INT REFERENCES works (workID),
    note TEXT,
    title TEXT
);

CREATE TABLE labels (labelID INTEGER PRIMARY KEY, name TEXT NOT NULL COLLATE NOCASE, type INT NOT NULL);

-- A linking table and nothing else: works and labels reach each other through it.
CREATE TABLE workLabels (
    workID INT NOT NULL REFERENCES works (workID),
    labelID INT NOT NULL REFERENCES labels (labelID),
    PRIMARY KEY (workID, labelID)
);

-- Links works with works.
CREATE TABLE relatedWorks (
    workID INT NOT NULL REFERENCES works (workID),
    relatedWorkID INT NOT NULL REFERENCES works (workID),
    PRIMARY KEY (workID, relatedWorkID)
);

-- A tree.
CREATE TABLE folders (
    folderID INTEGER PRIMARY KEY,
    folderName TEXT NOT NULL,
    parentFolderID INT DEFAULT NULL REFERENCES folders (folderID)
);

-- A linking table with a column of its own: no association through it.
CREATE TABLE folderWorks (
    folderID INT NOT NULL REFERENCES folders (folderID),
    workID INT NOT NULL REFERENCES works (workID),
    orderIndex INT DEFAULT 0,
    PRIMARY KEY (folderID, workID)
);

CREATE TABLE members (memberID INTEGER PRIMARY KEY, memberName TEXT NOT NULL);

-- Two keys to `members`.
CREATE TABLE sharedWorks (
    workID INTEGER PRIMARY KEY REFERENCES works (workID),
    createdByMemberID INT NOT NULL REFERENCES members (memberID),
    modifiedByMemberID INT NOT NULL REFERENCES members (memberID)
);

-- A key to a table whose primary key is itself a foreign key; columns named like SQL words.
CREATE TABLE highlights (
    highlightID INTEGER PRIMARY KEY,
    workID INT REFERENCES workNotes (workID),
    offset INT,
    rows INT,
    text TEXT,
    collapsed BOOL
);

CREATE TABLE statements (
    shelfID INT NOT NULL,
    subject TEXT NOT NULL,
    predicate TEXT NOT NULL,
    object TEXT NOT NULL,
    PRIMARY KEY (subject, predicate, object)
);
