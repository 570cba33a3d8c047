-- A public generated record, compiled and decoded by SlateMacroRuntimeTests
-- (PublicRecordDecodingTests): GoldenTests writes its code to
-- Tests/SlateMacroRuntimeTests/PublicShipments+Slate.swift.
CREATE TABLE shipment (
   id INTEGER PRIMARY KEY,
   label TEXT NOT NULL,
   carrier TEXT,
   weight REAL,
   parcels INTEGER,
   note TEXT,
   sent_at DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);
