-- The Northwind `Orders` table (Benchmarks/Sources/slate-bench/Resources/northwind.sqlite), for the
-- benchmark's public generated record: GoldenTests writes its code to
-- Benchmarks/Sources/slate-bench/PublicOrder+Slate.swift (`slate-generated-public`).
CREATE TABLE [Orders](
   [OrderID]INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
   [CustomerID]TEXT,
   [EmployeeID]INTEGER,
   [OrderDate]DATETIME,
   [RequiredDate]DATETIME,
   [ShippedDate]DATETIME,
   [ShipVia]INTEGER,
   [Freight]NUMERIC DEFAULT 0,
   [ShipName]TEXT,
   [ShipAddress]TEXT,
   [ShipCity]TEXT,
   [ShipRegion]TEXT,
   [ShipPostalCode]TEXT,
   [ShipCountry]TEXT
);
