-- Named queries over Chinook: SlateBuildPlugin turns each into a function on ChinookDatabase
-- (slate.json lists this file next to chinook.sqlite). CorpusTests runs every one of them.

-- name: tracksOfAlbum
-- The tracks of one album, in track order.
SELECT TrackId, Name, Composer, Milliseconds, UnitPrice
FROM Track
WHERE AlbumId = :albumId
ORDER BY TrackId;

-- name: albumsWithArtists
-- Albums and the names of their artists (an album whose artist is gone keeps its row).
SELECT al.AlbumId, al.Title, ar.Name AS artistName
FROM Album al LEFT JOIN Artist ar ON ar.ArtistId = al.ArtistId
ORDER BY al.AlbumId
LIMIT :limit;

-- name: artistsWithoutAlbums
SELECT ar.ArtistId, ar.Name, al.Title AS albumTitle
FROM Artist ar LEFT JOIN Album al ON al.ArtistId = ar.ArtistId
WHERE al.AlbumId IS NULL
ORDER BY ar.ArtistId;

-- name: artistCount
SELECT count(*) FROM Artist;

-- name: longestTrackOfGenre
-- NULL when the genre has no track.
SELECT max(Milliseconds) FROM Track WHERE GenreId = :genreId;

-- name: invoiceTotalsByCountry
SELECT BillingCountry, count(*) AS invoices, sum(Total) AS total, avg(Total) AS average, min(InvoiceDate) AS firstInvoice
FROM Invoice
GROUP BY BillingCountry
HAVING count(*) >= :minInvoices AS INTEGER
ORDER BY total DESC, BillingCountry;

-- name: customerContacts
SELECT CustomerId, FirstName || ' ' || LastName AS fullName, coalesce(Company, 'private') AS company,
       coalesce(Phone, Fax) AS phone, Email
FROM Customer
ORDER BY CustomerId;

-- name: trackPriceBands
SELECT TrackId,
       CASE WHEN UnitPrice >= 1.99 THEN 'premium' WHEN UnitPrice >= 0.99 THEN 'standard' END AS band,
       CASE WHEN Composer IS NULL THEN 'unknown' ELSE 'known' END AS composerKnown
FROM Track
WHERE AlbumId = :albumId
ORDER BY TrackId;

-- name: employeesAndManagers
SELECT e.EmployeeId, e.FirstName, e.LastName, m.FirstName AS managerFirstName, m.LastName AS managerLastName
FROM Employee e LEFT JOIN Employee m ON m.EmployeeId = e.ReportsTo
ORDER BY e.EmployeeId;

-- name: topSellingTracks
WITH sales AS (
  SELECT TrackId, sum(Quantity) AS sold, sum(UnitPrice * Quantity) AS revenue
  FROM InvoiceLine
  GROUP BY TrackId
)
SELECT t.TrackId, t.Name, s.sold, s.revenue
FROM sales s JOIN Track t ON t.TrackId = s.TrackId
ORDER BY s.sold DESC, t.TrackId
LIMIT :limit;

-- name: genreTrackCounts
SELECT g.GenreId, g.Name, count(t.TrackId) AS tracks, max(t.Milliseconds) AS longest
FROM Genre g LEFT JOIN Track t ON t.GenreId = g.GenreId
GROUP BY g.GenreId
ORDER BY g.GenreId;

-- name: albumSummary
SELECT Title,
       (SELECT count(*) FROM Track WHERE Track.AlbumId = Album.AlbumId) AS trackCount,
       (SELECT max(Name) FROM Track WHERE Track.AlbumId = Album.AlbumId AND Milliseconds > :minMilliseconds) AS longestName
FROM Album
WHERE AlbumId = :albumId;

-- name: customersOfRep
SELECT c.CustomerId, c.FirstName, c.LastName, c.Email, c.Company
FROM Customer c
WHERE c.SupportRepId = :employeeId
ORDER BY c.LastName, c.CustomerId;

-- name: playlistTracks
SELECT p.Name AS playlist, t.TrackId, t.Name
FROM PlaylistTrack pt
JOIN Playlist p ON p.PlaylistId = pt.PlaylistId
JOIN Track t ON t.TrackId = pt.TrackId
WHERE pt.PlaylistId = :playlistId
ORDER BY t.TrackId;

-- name: playlistsWithTrackCounts
SELECT p.PlaylistId, p.Name, count(pt.TrackId) AS tracks
FROM Playlist p LEFT JOIN PlaylistTrack pt ON pt.PlaylistId = p.PlaylistId
GROUP BY p.PlaylistId
ORDER BY p.PlaylistId;

-- name: tracksByRowid
SELECT rowid AS rowNumber, Name FROM Track WHERE rowid BETWEEN :first AND :last ORDER BY rowid;

-- name: invoicesBetween
SELECT InvoiceId, InvoiceDate, Total
FROM Invoice
WHERE InvoiceDate >= :from AND InvoiceDate < :to
ORDER BY InvoiceDate, InvoiceId;

-- name: artistAndAlbumNames
SELECT Name FROM Artist UNION SELECT Title FROM Album ORDER BY 1 LIMIT :limit;

-- name: peopleFirstNames
SELECT FirstName AS name FROM Employee UNION ALL SELECT FirstName FROM Customer ORDER BY 1;

-- name: tracksInAlbumRanked
SELECT TrackId, Name,
       row_number() OVER (ORDER BY Milliseconds DESC, TrackId) AS lengthRank,
       lag(Name) OVER (ORDER BY TrackId) AS previousName
FROM Track
WHERE AlbumId = :albumId
ORDER BY TrackId;

-- name: customerInvoiceSummary
-- One row even when the customer has no invoice: then total and latest are NULL.
SELECT count(*) AS invoices, sum(Total) AS total, max(InvoiceDate) AS latest
FROM Invoice
WHERE CustomerId = :customerId;

-- name: searchTracks
SELECT TrackId, Name FROM Track WHERE Name LIKE :pattern ORDER BY TrackId LIMIT 10;

-- name: customersInCountries
SELECT CustomerId, Country FROM Customer WHERE Country IN (:first, :second) ORDER BY CustomerId;

-- name: insertArtist
INSERT INTO Artist (Name) VALUES (:name) RETURNING ArtistId, Name;

-- name: renameArtist
UPDATE Artist SET Name = :name WHERE ArtistId = :artistId;

-- name: deletePlaylist
DELETE FROM Playlist WHERE PlaylistId = :playlistId RETURNING Name;

-- name: longestTrackName
-- The override says what the rules cannot prove: every album has a track.
SELECT (SELECT Name FROM Track WHERE Track.AlbumId = Album.AlbumId ORDER BY Milliseconds DESC LIMIT 1) AS "longest!"
FROM Album
WHERE AlbumId = :albumId;

-- name: albumsOfArtistSqlcStyle :many
-- Written for sqlc: positional parameters, named after the column each is compared with.
SELECT AlbumId, Title FROM Album WHERE ArtistId = ? ORDER BY AlbumId LIMIT ?;

-- name: tracksLongOrEvery
-- `CAST(:everyTrack AS BOOLEAN)` is SQL, not an annotation: it gives the parameter its type.
SELECT TrackId FROM Track
WHERE AlbumId = :albumId AND (CAST(:everyTrack AS BOOLEAN) OR Milliseconds > 300000)
ORDER BY TrackId;
