-- Named queries over Northwind: SlateBuildPlugin turns each into a function on NorthwindDatabase
-- (slate.json lists this file next to northwind.sqlite). CorpusTests runs every one of them.

-- name: productsInCategory
SELECT ProductID, ProductName, UnitPrice, UnitsInStock
FROM Products
WHERE CategoryID = :categoryId
ORDER BY ProductName;

-- name: largestOrders
-- A view whose column is a sum over each order: never NULL.
SELECT OrderID, Subtotal FROM [Order Subtotals] ORDER BY Subtotal DESC, OrderID LIMIT :limit;

-- name: customersWithoutOrders
SELECT c.CustomerID, c.CompanyName, o.OrderID
FROM Customers c LEFT JOIN Orders o ON o.CustomerID = c.CustomerID
WHERE o.OrderID IS NULL
ORDER BY c.CustomerID;

-- name: ordersOfCustomer
SELECT OrderID, OrderDate, ShippedDate, Freight
FROM Orders
WHERE CustomerID = :customerId
ORDER BY OrderDate, OrderID;

-- name: unshippedOrders
SELECT OrderID, ShippedDate FROM Orders WHERE ShippedDate IS NULL ORDER BY OrderID;

-- name: salesByEmployee
SELECT e.EmployeeID, e.FirstName || ' ' || e.LastName AS name, count(o.OrderID) AS orders, sum(o.Freight) AS freight
FROM Employees e LEFT JOIN Orders o ON o.EmployeeID = e.EmployeeID
GROUP BY e.EmployeeID
ORDER BY orders DESC, e.EmployeeID;

-- name: productsAboveAverage
SELECT ProductName, UnitPrice
FROM Products
WHERE UnitPrice > (SELECT avg(UnitPrice) FROM Products)
ORDER BY UnitPrice DESC, ProductName;

-- name: categoryRevenue
-- The threshold is compared with an aggregate, not a column: its type is annotated.
WITH lines AS (
  SELECT p.CategoryID, od.UnitPrice * od.Quantity * (1 - od.Discount) AS amount
  FROM [Order Details] od JOIN Products p ON p.ProductID = od.ProductID
)
SELECT c.CategoryName, round(sum(l.amount), 2) AS revenue
FROM lines l JOIN Categories c ON c.CategoryID = l.CategoryID
GROUP BY c.CategoryID
HAVING sum(l.amount) > :minRevenue AS REAL
ORDER BY revenue DESC;

-- name: shippersAndSuppliers
SELECT CompanyName, Phone FROM Shippers
UNION ALL
SELECT CompanyName, Phone FROM Suppliers
ORDER BY CompanyName;

-- name: employeeHierarchy
WITH RECURSIVE chain(EmployeeID, name, depth) AS (
  SELECT EmployeeID, LastName, 0 FROM Employees WHERE ReportsTo IS NULL
  UNION ALL
  SELECT e.EmployeeID, e.LastName, chain.depth + 1 FROM Employees e JOIN chain ON e.ReportsTo = chain.EmployeeID
)
SELECT EmployeeID, name, depth FROM chain ORDER BY depth, EmployeeID;

-- name: orderLines
SELECT ProductName, UnitPrice, Quantity, Discount, ExtendedPrice
FROM [Order Details Extended]
WHERE OrderID = :orderId
ORDER BY ProductName;

-- name: discountedLines
SELECT OrderID, ProductID, Discount
FROM [Order Details]
WHERE Discount >= :minDiscount
ORDER BY OrderID, ProductID
LIMIT 20;

-- name: productCountsByDiscontinued
SELECT Discontinued, count(*) AS products, min(UnitPrice) AS cheapest
FROM Products
GROUP BY Discontinued
ORDER BY Discontinued;

-- name: insertShipper
INSERT INTO Shippers (CompanyName, Phone) VALUES (:companyName, :phone) RETURNING ShipperID, CompanyName, Phone;

-- name: deleteShipper
DELETE FROM Shippers WHERE ShipperID = :shipperId;
