import Foundation
import Slate

/// Hundreds of builder queries over Chinook, generated from a seed, each with the same query
/// written by hand in SQL: the rows, their order where the query orders them, the raw values (a
/// builder value is converted back to what SQLite stores), and the tables after writes. The
/// builder side runs on a ``QueryEngine``: SQLite against the hand-written SQL
/// (`BuilderDifferentialTests`), or SQLite against PostgreSQL
/// (`BuilderDifferentialPostgreSQLTests`).
package enum BuilderCorpus {
    package static let seed: UInt64 = 0x5EED_0018
    package static let caseCount = 368
    package static let shapeCount = 23

    /// The hand-written query's rows.
    package static func sql(_ db: Database, _ text: String, _ arguments: [any SQLBindable] = []) throws -> [RawRow] {
        try db.fetchAll(SQL(sql: text, arguments: StatementArguments(arguments))) { row in row.values }
    }

    /// A table's contents in rowid order.
    package static func contents(_ db: Database, _ table: String) throws -> [RawRow] {
        try sql(db, "SELECT * FROM \(table.quotedIdentifier) ORDER BY rowid")
    }

    /// A total order on raw rows, for comparing unordered results.
    package static func precedes(_ lhs: RawRow, _ rhs: RawRow) -> Bool {
        lhs.map(\.sortKey).lexicographicallyPrecedes(rhs.map(\.sortKey))
    }

    // swiftlint:disable:next function_body_length cyclomatic_complexity
    package static func makeCase(
        shape: Int, db: Database, engine: some QueryEngine, random: inout SeededGenerator, invoiceDates: [Date],
        states: [String], countries: [String], composers: [String]
    ) async throws -> DifferentialCase {
        switch shape {
        case 0:
            // Records, a conjunction, an ordering, a limit and an offset.
            let minimum = random.int64(100_000...400_000)
            let genre = random.int64(1...25)
            let limit = random.int(1...20)
            let offset = random.int(0...5)
            let rows = try await engine.all(
                Track.where { $0.milliseconds > minimum && $0.genreId == genre }
                    .order { ($0.name, $0.trackId) }.limit(limit, offset: offset))
            return DifferentialCase(
                label: "tracks genre \(genre) > \(minimum) limit \(limit) offset \(offset)",
                builder: try rows.map(raw(record:)),
                handWritten: try sql(
                    db,
                    "SELECT * FROM Track WHERE Milliseconds > ? AND GenreId = ? ORDER BY Name, TrackId LIMIT ? OFFSET ?",
                    [minimum, genre, limit, offset]),
                isOrdered: true)
        case 1:
            // Date equality against dates SQLite stored, and a date the table does not hold.
            let date =
                random.bool()
                ? random.element(invoiceDates)
                : random.element(invoiceDates).addingTimeInterval(Double(random.int(1...86_399)))
            let rows = try await engine.all(
                Invoice.where { $0.invoiceDate == date }.order(by: \.invoiceId).select {
                    ($0.invoiceId, $0.invoiceDate)
                })
            return DifferentialCase(
                label: "invoices on \(date)", builder: try rows.map { try raw($0.0, $0.1) },
                handWritten: try sql(
                    db,
                    "SELECT InvoiceId, InvoiceDate FROM Invoice WHERE InvoiceDate = datetime(?, 'unixepoch') ORDER BY InvoiceId",
                    [Int64(date.timeIntervalSince1970)]),
                isOrdered: true)
        case 2:
            // Dates in a list.
            let dates = (0..<random.int(1...5)).map { _ in random.element(invoiceDates) }
            let count = try await engine.count(Invoice.where { $0.invoiceDate.in(dates) })
            let list = dates.map { _ in "datetime(?, 'unixepoch')" }.joined(separator: ", ")
            return DifferentialCase(
                label: "invoices in \(dates.count) dates", builder: [try raw(count)],
                handWritten: try sql(
                    db, "SELECT count(*) FROM Invoice WHERE InvoiceDate IN (\(list))",
                    dates.map { Int64($0.timeIntervalSince1970) }),
                isOrdered: true)
        case 3:
            // Date ranges, bounds equal to stored instants.
            let lower = random.element(invoiceDates)
            let upper = lower.addingTimeInterval(Double(random.int(0...30)) * 86_400)
            let between = try await engine.all(
                Invoice.where { $0.invoiceDate.between(lower, and: upper) }.select { $0.invoiceId }
            )
            let below = try await engine.all(
                Invoice.where { $0.invoiceDate < upper && $0.invoiceDate >= lower }.select { $0.invoiceId }
            )
            let arguments: [any SQLBindable] = [Int64(lower.timeIntervalSince1970), Int64(upper.timeIntervalSince1970)]
            return DifferentialCase(
                label: "invoices between \(lower) and \(upper)",
                builder: try between.map { try raw($0) } + [[.text("<")]] + below.map { try raw($0) },
                handWritten: try sql(
                    db,
                    "SELECT InvoiceId FROM Invoice WHERE InvoiceDate BETWEEN datetime(?1, 'unixepoch') AND datetime(?2, 'unixepoch')",
                    arguments) + [[.text("<")]]
                    + sql(
                        db,
                        "SELECT InvoiceId FROM Invoice WHERE InvoiceDate < datetime(?2, 'unixepoch') AND InvoiceDate >= datetime(?1, 'unixepoch')",
                        arguments),
                isOrdered: false)
        case 4:
            // A nullable column in a list, and compared with nil.
            let chosen = (0..<random.int(1...4)).map { _ in random.element(states) }
            let withNil = random.bool()
            let rows = try await engine.all(
                Customer.where { $0.state.in(chosen) || (withNil ? $0.state == nil : $0.state == "none") }
                    .order(by: \.customerId).select { ($0.customerId, $0.state) })
            let list = chosen.map { _ in "?" }.joined(separator: ", ")
            return DifferentialCase(
                label: "customers in states \(chosen) nil \(withNil)", builder: try rows.map { try raw($0.0, $0.1) },
                handWritten: try sql(
                    db,
                    "SELECT CustomerId, State FROM Customer WHERE State IN (\(list)) OR "
                        + (withNil ? "State IS NULL" : "State = 'none'")
                        + " ORDER BY CustomerId", chosen),
                isOrdered: true)
        case 5:
            // A correlated EXISTS over the same table.
            let hiredAfter = random.element(invoiceDates).addingTimeInterval(-Double(random.int(0...6000)) * 86_400)
            let negate = random.bool()
            let query = Employee.where { e in
                let reports = exists(Employee.where { $0.reportsTo == e.employeeId && $0.hireDate > hiredAfter })
                return negate ? !reports : reports
            }.order(by: \.employeeId).select { $0.employeeId }
            return DifferentialCase(
                label: "employees \(negate ? "without" : "with") reports hired after \(hiredAfter)",
                builder: try await engine.all(query).map { try raw($0) },
                handWritten: try sql(
                    db,
                    "SELECT EmployeeId FROM Employee e WHERE \(negate ? "NOT " : "")EXISTS (SELECT 1 FROM Employee r WHERE r.ReportsTo = e.EmployeeId"
                        + " AND r.HireDate > datetime(?, 'unixepoch')) ORDER BY EmployeeId",
                    [Int64(hiredAfter.timeIntervalSince1970)]),
                isOrdered: true)
        case 6:
            // Two scalar subqueries in one tuple, one of them finding no row for some artists.
            let lower = random.int64(1...250)
            let upper = lower + random.int64(0...30)
            let rows = try await engine.all(
                Artist.where { $0.artistId.between(lower, and: upper) }.order(by: \.artistId).select {
                    artist in
                    (
                        artist.artistId,
                        Album.where { $0.artistId == artist.artistId }.select { _ in count() },
                        Album.where { $0.artistId == artist.artistId }.select { $0.title.min() }
                    )
                })
            return DifferentialCase(
                label: "artists \(lower)...\(upper) with album counts",
                builder: try rows.map { try raw($0.0, $0.1, $0.2) },
                handWritten: try sql(
                    db,
                    "SELECT a.ArtistId, (SELECT count(*) FROM Album b WHERE b.ArtistId = a.ArtistId), (SELECT min(b.Title) FROM Album b"
                        + " WHERE b.ArtistId = a.ArtistId) FROM Artist a WHERE a.ArtistId BETWEEN ? AND ? ORDER BY a.ArtistId",
                    [lower, upper]),
                isOrdered: true)
        case 7:
            // A left join selected into a tuple: the right side is NULL for artists without albums.
            let lower = random.int64(1...270)
            let upper = lower + random.int64(0...10)
            let rows = try await engine.all(
                Artist.leftJoin(Album.self, on: { $0.artistId == $1.artistId })
                    .where { artist, _ in artist.artistId.between(lower, and: upper) }
                    .order { artist, album in (artist.artistId, album.albumId) }
                    .select { artist, album in (artist.name, album.title, album.albumId) })
            return DifferentialCase(
                label: "artists \(lower)...\(upper) left join albums",
                builder: try rows.map { try raw($0.0, $0.1, $0.2) },
                handWritten: try sql(
                    db,
                    "SELECT a.Name, b.Title, b.AlbumId FROM Artist a LEFT JOIN Album b ON a.ArtistId = b.ArtistId WHERE a.ArtistId BETWEEN ? AND ?"
                        + " ORDER BY a.ArtistId, b.AlbumId", [lower, upper]),
                isOrdered: true)
        case 8:
            // A left join filtered on the optional side being NULL.
            let upper = random.int64(10...275)
            let count = try await engine.count(
                Artist.leftJoin(Album.self, on: { $0.artistId == $1.artistId })
                    .where { artist, album in album.albumId == nil && artist.artistId <= upper })
            return DifferentialCase(
                label: "artists up to \(upper) without albums", builder: [try raw(count)],
                handWritten: try sql(
                    db,
                    "SELECT count(*) FROM Artist a LEFT JOIN Album b ON a.ArtistId = b.ArtistId WHERE b.AlbumId IS NULL AND a.ArtistId <= ?",
                    [upper]),
                isOrdered: true)
        case 9:
            // Grouping, aggregates and HAVING.
            let minimum = random.int(1...200)
            let rows = try await engine.all(
                Track.group(by: \.genreId).having { _ in count() >= minimum }.order(by: \.genreId)
                    .select { ($0.genreId, count(), $0.milliseconds.sum(), $0.milliseconds.max(), $0.composer.count()) }
            )
            return DifferentialCase(
                label: "genres with at least \(minimum) tracks",
                builder: try rows.map { try raw($0.0, $0.1, $0.2, $0.3, $0.4) },
                handWritten: try sql(
                    db,
                    "SELECT GenreId, count(*), sum(Milliseconds), max(Milliseconds), count(Composer) FROM Track GROUP BY GenreId"
                        + " HAVING count(*) >= ? ORDER BY GenreId", [minimum]),
                isOrdered: true)
        case 10:
            // IN a subquery.
            let artist = random.int64(1...60)
            let rows = try await engine.all(
                Track.where { $0.albumId.in(Album.where { $0.artistId == artist }.select { $0.albumId }) }
                    .select { ($0.trackId, $0.name) })
            return DifferentialCase(
                label: "tracks of artist \(artist)", builder: try rows.map { try raw($0.0, $0.1) },
                handWritten: try sql(
                    db,
                    "SELECT TrackId, Name FROM Track WHERE AlbumId IN (SELECT AlbumId FROM Album WHERE ArtistId = ?)",
                    [artist]),
                isOrdered: false)
        case 11:
            // Text prefixes, case-sensitive.
            let prefix = String(random.element(composers).prefix(random.int(1...4)))
            let rows = try await engine.all(
                Track.where { $0.composer.hasPrefix(prefix) }.order(by: \.trackId).select { $0.trackId }
            )
            return DifferentialCase(
                label: "composers starting with \(prefix)", builder: try rows.map { try raw($0) },
                handWritten: try sql(
                    db, "SELECT TrackId FROM Track WHERE substr(Composer, 1, length(?1)) = ?1 ORDER BY TrackId",
                    [prefix]),
                isOrdered: true)
        case 12:
            // Ordering with NULLs placed, descending.
            let limit = random.int(1...40)
            let offset = random.int(0...200)
            let rows = try await engine.all(
                Track.order { ($0.composer.descending(nulls: .last), $0.trackId) }.limit(
                    limit, offset: offset
                )
                .select { ($0.trackId, $0.composer) })
            return DifferentialCase(
                label: "tracks by composer desc limit \(limit) offset \(offset)",
                builder: try rows.map { try raw($0.0, $0.1) },
                handWritten: try sql(
                    db,
                    "SELECT TrackId, Composer FROM Track ORDER BY Composer IS NULL, Composer DESC, TrackId LIMIT ? OFFSET ?",
                    [limit, offset]),
                isOrdered: true)
        case 13:
            // A three-table join with a scalar subquery compared with a literal.
            let country = random.element(countries)
            let lines = random.int(1...14)
            let rows = try await engine.all(
                Invoice.join(Customer.self, on: { $0.customerId == $1.customerId })
                    .where { invoice, customer in
                        customer.country == country
                            && InvoiceLine.where { $0.invoiceId == invoice.invoiceId }.select { _ in count() } >= lines
                    }
                    .order { invoice, _ in invoice.invoiceId }
                    .select { invoice, customer in (invoice.invoiceId, customer.lastName, invoice.total) })
            return DifferentialCase(
                label: "invoices from \(country) with \(lines)+ lines",
                builder: try rows.map { try raw($0.0, $0.1, $0.2) },
                handWritten: try sql(
                    db,
                    "SELECT i.InvoiceId, c.LastName, i.Total FROM Invoice i JOIN Customer c ON i.CustomerId = c.CustomerId WHERE c.Country = ?"
                        + " AND (SELECT count(*) FROM InvoiceLine l WHERE l.InvoiceId = i.InvoiceId) >= ? ORDER BY i.InvoiceId",
                    [country, lines]),
                isOrdered: true)
        case 14:
            // A correlated scalar subquery on the same table, selected.
            let minimum = random.int64(1...8)
            let rows = try await engine.all(
                Employee.where { $0.employeeId >= minimum }.order(by: \.employeeId).select { e in
                    (e.lastName, Employee.where { $0.employeeId == e.reportsTo }.select { $0.lastName })
                })
            return DifferentialCase(
                label: "employees from \(minimum) with managers", builder: try rows.map { try raw($0.0, $0.1) },
                handWritten: try sql(
                    db,
                    "SELECT e.LastName, (SELECT m.LastName FROM Employee m WHERE m.EmployeeId = e.ReportsTo) FROM Employee e"
                        + " WHERE e.EmployeeId >= ? ORDER BY e.EmployeeId", [minimum]),
                isOrdered: true)
        case 15:
            // DISTINCT values and a count over them.
            let genre = random.int64(1...25)
            let distinct = try await engine.all(Track.where { $0.genreId == genre }.select { $0.albumId }.distinct())
            let count = try await engine.count(Track.where { $0.genreId == genre }.select { $0.albumId }.distinct())
            return DifferentialCase(
                label: "albums of genre \(genre)", builder: try distinct.map { try raw($0) } + [try raw(count)],
                handWritten: try sql(db, "SELECT DISTINCT AlbumId FROM Track WHERE GenreId = ?", [genre])
                    + sql(db, "SELECT count(*) FROM (SELECT DISTINCT AlbumId FROM Track WHERE GenreId = ?)", [genre]),
                isOrdered: false)
        case 16:
            // An update of dates: the table afterwards, against the same update in SQL.
            let date = random.element(invoiceDates).addingTimeInterval(Double(random.int(0...86_399)))
            let upper = random.int64(1...412)
            let update = Invoice.update { $0.invoiceDate.set(to: date) }.where {
                $0.invoiceId <= upper && $0.billingState == nil
            }
            let built = try await engine.onChinookCopy { copy in
                try await copy.execute(update)
                return try await copy.contents(Invoice.self)
            }
            let written = try Database.chinookCopy()
            try written.execute(
                SQL(
                    sql:
                        "UPDATE Invoice SET InvoiceDate = datetime(?, 'unixepoch') WHERE InvoiceId <= ? AND BillingState IS NULL",
                    arguments: [Int64(date.timeIntervalSince1970), upper]))
            return DifferentialCase(
                label: "update invoice dates to \(date) up to \(upper)", builder: built,
                handWritten: try contents(written, "Invoice"), isOrdered: true)
        case 17:
            // A delete with a correlated subquery over the same table.
            let quantity = random.int64(1...2)
            let delete = InvoiceLine.delete().where { line in
                line.quantity >= quantity
                    && exists(
                        InvoiceLine.where {
                            $0.invoiceId == line.invoiceId && $0.invoiceLineId != line.invoiceLineId
                                && $0.unitPrice > line.unitPrice
                        })
            }
            let built = try await engine.onChinookCopy { copy in
                try await copy.execute(delete)
                return try await copy.contents(InvoiceLine.self)
            }
            let written = try Database.chinookCopy()
            try written.execute(
                SQL(
                    sql:
                        "DELETE FROM InvoiceLine WHERE Quantity >= ? AND EXISTS (SELECT 1 FROM InvoiceLine o WHERE o.InvoiceId = InvoiceLine.InvoiceId"
                        + " AND o.InvoiceLineId <> InvoiceLine.InvoiceLineId AND o.UnitPrice > InvoiceLine.UnitPrice)",
                    arguments: [quantity]))
            return DifferentialCase(
                label: "delete invoice lines with quantity >= \(quantity)", builder: built,
                handWritten: try contents(written, "InvoiceLine"), isOrdered: true)
        case 18:
            // Inserts of records, with keys chosen by SQLite.
            let suffix = random.int(0...999)
            let names = (0..<random.int(1...4)).map { "Artist \($0) \(suffix)" }
            let built = try await engine.onChinookCopy { copy in
                try await copy.execute(Artist.insert(names.map { Artist(name: $0) }))
                return try await copy.contents(Artist.self)
            }
            let written = try Database.chinookCopy()
            for name in names {
                try written.execute(SQL(sql: "INSERT INTO Artist (Name) VALUES (?)", arguments: [name]))
            }
            return DifferentialCase(
                label: "insert \(names.count) artists", builder: built,
                handWritten: try contents(written, "Artist"),
                isOrdered: true)
        case 20:
            // CASE, with and without ELSE, selected and in a predicate.
            let long = random.int64(150_000...400_000)
            let short = random.int64(30_000...150_000)
            let genre = random.int64(1...25)
            let rows = try await engine.all(
                Track.where { Case.when($0.milliseconds > long, then: true).else($0.genreId == genre) }
                    .order(by: \.trackId).limit(50)
                    .select { track in
                        (
                            track.trackId,
                            Case.when(track.milliseconds > long, then: "long").when(
                                track.milliseconds < short, then: "short"
                            ).else("medium"),
                            Case.when(track.composer == nil, then: track.milliseconds)
                        )
                    })
            return DifferentialCase(
                label: "tracks by CASE \(short)...\(long) genre \(genre)",
                builder: try rows.map { try raw($0.0, $0.1, $0.2) },
                handWritten: try sql(
                    db,
                    "SELECT TrackId, CASE WHEN Milliseconds > ?1 THEN 'long' WHEN Milliseconds < ?2 THEN 'short' ELSE 'medium' END,"
                        + " CASE WHEN Composer IS NULL THEN Milliseconds END FROM Track"
                        + " WHERE CASE WHEN Milliseconds > ?1 THEN 1 ELSE GenreId = ?3 END ORDER BY TrackId LIMIT 50",
                    [long, short, genre]),
                isOrdered: true)
        case 21:
            // A compound select, ordered and limited as a whole.
            let op = random.element(CompoundOperator.allCases)
            let genre = random.int64(1...25)
            let minimum = random.int64(200_000...600_000)
            let limit = random.int(1...40)
            let left = Track.where { $0.genreId == genre }.select { $0.albumId }
            let right = Track.where { $0.milliseconds > minimum }.select { $0.albumId }
            let compound: CompoundSelect<Track.Columns, Int64?>
            switch op {
            case .union: compound = left.union(right)
            case .unionAll: compound = left.unionAll(right)
            case .intersect: compound = left.intersect(right)
            case .except: compound = left.except(right)
            }
            let rows = try await engine.all(compound.order { $0.albumId.descending() }.limit(limit))
            return DifferentialCase(
                label: "genre \(genre) \(op.rawValue) longer than \(minimum) limit \(limit)",
                builder: try rows.map { try raw($0) },
                handWritten: try sql(
                    db,
                    "SELECT AlbumId FROM Track WHERE GenreId = ? \(op.rawValue) SELECT AlbumId FROM Track WHERE Milliseconds > ?"
                        + " ORDER BY 1 DESC LIMIT ?", [genre, minimum, limit]),
                isOrdered: true)
        case 22:
            // A recursive common table expression, filtered and joined back.
            let depth = random.int64(0...2)
            let rows = try await engine.all(
                Employee.join(Level.self, on: { $0.employeeId == $1.employeeId })
                    .with(Level.self, recursive: true, as: Level.levels)
                    .where { _, level in level.depth >= depth }
                    .order { employee, level in (level.depth, employee.employeeId) }
                    .select { employee, level in (employee.lastName, level.depth) })
            return DifferentialCase(
                label: "reporting tree from depth \(depth)", builder: try rows.map { try raw($0.0, $0.1) },
                handWritten: try sql(
                    db,
                    Level.handWrittenLevels
                        + " SELECT e.LastName, level.depth FROM Employee e JOIN level ON e.EmployeeId = level.employeeId"
                        + " WHERE level.depth >= ? ORDER BY level.depth, e.EmployeeId", [depth]),
                isOrdered: true)
        default:
            // Arithmetic and a coalesced nullable column.
            let factor = random.int64(2...5)
            let minimum = random.int64(0...10_000_000)
            let rows = try await engine.all(
                Track.where { $0.bytes > minimum }.order(by: \.trackId).limit(30)
                    .select { ($0.trackId, $0.milliseconds * factor, $0.composer ?? "unknown") })
            return DifferentialCase(
                label: "tracks over \(minimum) bytes times \(factor)",
                builder: try rows.map { try raw($0.0, $0.1, $0.2) },
                handWritten: try sql(
                    db,
                    "SELECT TrackId, Milliseconds * ?, coalesce(Composer, 'unknown') FROM Track WHERE Bytes > ? ORDER BY TrackId LIMIT 30",
                    [factor, minimum]),
                isOrdered: true)
        }
    }
}
