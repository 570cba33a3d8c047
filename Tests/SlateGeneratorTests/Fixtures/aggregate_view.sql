-- Views keep useful types for expressions and aggregates.
CREATE TABLE sale (id INTEGER PRIMARY KEY, amount REAL NOT NULL, quantity INTEGER NOT NULL, region TEXT, sold_on DATE);
CREATE VIEW sale_summary AS
SELECT region,
       COUNT(*) AS sales,
       SUM(quantity) AS units,
       SUM(amount) AS revenue,
       TOTAL(amount) AS total_revenue,
       AVG(amount) AS average,
       MIN(sold_on) AS first_sale,
       MAX(quantity) AS largest,
       CAST(SUM(amount) AS INTEGER) AS rounded,
       region || ' region' AS label,
       42 AS answer,
       'x' AS letter,
       NULL AS no_value,
       count(DISTINCT region) > 1 AS several
FROM sale GROUP BY region;
CREATE VIEW sale_ids AS SELECT id FROM sale;
CREATE VIEW sale_totals (total_units, first_day) AS SELECT sum(s.quantity), min(s.sold_on) FROM sale AS s;
