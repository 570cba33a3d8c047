-- The shapes of a messenger's store (Signal's schema is the model; these tables are Slate's own):
-- quoted mixed-case names with prefixes, a key-value table with upper-case column names, keys to
-- a unique column that is not the primary key, a one-to-one key (`UNIQUE REFERENCES`), keys
-- written in another letter case than the table, cascading composite keys, a table without a
-- primary key and the keys to it, a self-reference, an external-content full-text index kept by
-- triggers.
CREATE TABLE store (
    KEY TEXT NOT NULL,
    collection TEXT NOT NULL,
    VALUE BLOB NOT NULL,
    PRIMARY KEY (KEY, collection)
);

CREATE TABLE IF NOT EXISTS "model_Conversation" (
    "id" INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    "recordType" INTEGER NOT NULL,
    "uniqueId" TEXT NOT NULL UNIQUE ON CONFLICT FAIL,
    "name" TEXT,
    "isArchived" BOOLEAN NOT NULL DEFAULT 0
);

CREATE TABLE IF NOT EXISTS "model_Message" (
    "id" INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    "uniqueId" TEXT NOT NULL UNIQUE ON CONFLICT FAIL,
    -- references the conversation's unique text id, not its primary key
    "uniqueConversationId" TEXT NOT NULL REFERENCES "model_Conversation" ("uniqueId") ON DELETE CASCADE,
    "timestamp" INTEGER NOT NULL,
    "body" TEXT,
    "read" INTEGER,
    "quotedMessageRowId" INTEGER REFERENCES model_message (id)  -- itself, in another letter case
);

-- One call per message at most (a unique key), and a second table it references.
CREATE TABLE IF NOT EXISTS "CallRecord" (
    "id" INTEGER PRIMARY KEY NOT NULL,
    "messageRowId" INTEGER NOT NULL UNIQUE REFERENCES "model_Message" ("id") ON DELETE CASCADE,
    "conversationRowId" INTEGER NOT NULL REFERENCES "model_Conversation" ("id") ON DELETE RESTRICT,
    "type" INTEGER NOT NULL,
    "status" INTEGER NOT NULL
);

CREATE TABLE IF NOT EXISTS "Reaction" (
    "id" INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    "emoji" TEXT NOT NULL,
    "message" TEXT,  -- a column named as the association to messages would be
    "messageId" INTEGER NOT NULL REFERENCES "model_Message" ("id")
);

CREATE TABLE IF NOT EXISTS "SendLog_Payload" (
    "payloadId" INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    "content" BLOB NOT NULL,
    "sentTimestamp" INTEGER NOT NULL,
    "sendComplete" BOOLEAN NOT NULL DEFAULT 0
);

CREATE TABLE IF NOT EXISTS "SendLog_Recipient" (
    "payloadId" INTEGER NOT NULL,
    "recipientId" TEXT NOT NULL,
    "deviceId" INTEGER NOT NULL,
    PRIMARY KEY ("payloadId", "recipientId", "deviceId"),
    FOREIGN KEY ("payloadId") REFERENCES "SendLog_Payload" ("payloadId") ON DELETE CASCADE ON UPDATE CASCADE
);

CREATE TABLE IF NOT EXISTS "SendLog_Message" (
    "payloadId" INTEGER NOT NULL,
    "uniqueId" TEXT NOT NULL,
    PRIMARY KEY ("payloadId", "uniqueId"),
    FOREIGN KEY ("payloadId") REFERENCES "SendLog_Payload" ("payloadId") ON DELETE CASCADE ON UPDATE CASCADE
);

CREATE TRIGGER SendLog_RecipientCleanup AFTER DELETE ON "SendLog_Recipient"
WHEN 0 = (SELECT count(*) FROM "SendLog_Recipient" WHERE "payloadId" = old."payloadId")
BEGIN
    DELETE FROM "SendLog_Payload" WHERE "payloadId" = old."payloadId" AND "sendComplete" = TRUE;
END;

-- No primary key.
CREATE TABLE IF NOT EXISTS "media_gallery_items" (
    "attachmentId" INTEGER NOT NULL UNIQUE,
    "albumMessageId" INTEGER NOT NULL,
    "originalAlbumOrder" INTEGER NOT NULL
);

-- Keys to the table without a primary key: one by its unique column, one naming no column (it
-- references a primary key the table does not have, so no association comes from it).
CREATE TABLE IF NOT EXISTS "media_caption" (
    "id" INTEGER PRIMARY KEY,
    "attachmentId" INTEGER REFERENCES "media_gallery_items" ("attachmentId"),
    "galleryItem" INTEGER REFERENCES "media_gallery_items",
    "caption" TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS "indexed_text" (
    "id" INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    "collection" TEXT NOT NULL,
    "uniqueId" TEXT NOT NULL,
    "content" TEXT NOT NULL
);

CREATE UNIQUE INDEX "index_indexed_text_on_collection_and_uniqueId" ON "indexed_text" ("collection", "uniqueId");

CREATE VIRTUAL TABLE "indexed_text_fts" USING fts5(
    content, tokenize = 'unicode61', content = 'indexed_text', content_rowid = 'id'
);

CREATE TRIGGER "__indexed_text_fts_ai" AFTER INSERT ON "indexed_text" BEGIN
    INSERT INTO "indexed_text_fts" ("rowid", "content") VALUES (new."id", new."content");
END;

CREATE TRIGGER "__indexed_text_fts_ad" AFTER DELETE ON "indexed_text" BEGIN
    INSERT INTO "indexed_text_fts" ("indexed_text_fts", "rowid", "content") VALUES ('delete', old."id", old."content");
END;
