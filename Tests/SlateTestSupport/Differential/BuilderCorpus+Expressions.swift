import Foundation
import Slate

/// The corpus's shapes for issue 18's expressions: conditions over nullable columns selected as
/// `Bool?`, arithmetic mixing optional and non-optional columns, `%`, `CAST`, `IS`, text and date
/// functions, `DISTINCT` aggregates, window functions with frames, `OFFSET` without `LIMIT`, and a
/// grouped select joined as a table source. Generated from their own seed.
extension BuilderCorpus {
    package static let expressionSeed: UInt64 = 0x5EED_1800
    package static let expressionShapeCount = 11
    package static let expressionCaseCount = 220

    // swiftlint:disable:next function_body_length cyclomatic_complexity
    package static func makeExpressionCase(
        shape: Int, db: Database, engine: some QueryEngine, random: inout SeededGenerator, states: [String],
        months: [String]
    ) async throws -> DifferentialCase {
        switch shape {
        case 0:
            // Conditions over nullable columns, selected: three-valued.
            let chosen = (0..<random.int(1...3)).map { _ in random.element(states) }
            let state = random.element(states)
            let rows = try await engine.all(
                Customer.order(by: \.customerId).select {
                    ($0.customerId, $0.state.in(chosen), $0.state != state, $0.company.like("%a%"))
                }
            )
            let list = chosen.map { _ in "?" }.joined(separator: ", ")
            return DifferentialCase(
                label: "customers: state in \(chosen), <> \(state)",
                builder: try rows.map { try raw($0.0, $0.1, $0.2, $0.3) },
                handWritten: try sql(
                    db,
                    "SELECT CustomerId, State IN (\(list)), State <> ?, Company LIKE '%a%' FROM Customer ORDER BY CustomerId",
                    chosen + [state]),
                isOrdered: true)
        case 1:
            // Arithmetic mixing optional and non-optional columns, and `%`.
            let lower = random.int64(1...3400)
            let factor = random.int64(1...9)
            let modulus = random.int64(2...13)
            let rows = try await engine.all(
                Track.where { $0.trackId.between(lower, and: lower + 40) }.order(by: \.trackId)
                    .select {
                        (
                            $0.trackId, $0.bytes + $0.milliseconds * factor, $0.bytes % modulus,
                            $0.milliseconds % modulus - $0.albumId
                        )
                    })
            return DifferentialCase(
                label: "tracks from \(lower): arithmetic by \(factor) mod \(modulus)",
                builder: try rows.map { try raw($0.0, $0.1, $0.2, $0.3) },
                handWritten: try sql(
                    db,
                    "SELECT TrackId, Bytes + Milliseconds * ?2, Bytes % ?3, Milliseconds % ?3 - AlbumId FROM Track WHERE TrackId BETWEEN ?1 AND ?1 + 40 ORDER BY TrackId",
                    [lower, factor, modulus]),
                isOrdered: true)
        case 2:
            // IS / IS NOT with a value or NULL, and CAST.
            let state: String? = random.bool() ? random.element(states) : nil
            let negate = random.bool()
            let rows = try await engine.all(
                Customer.where { negate ? $0.state.isNot(state) : $0.state.is(state) }
                    .select { ($0.customerId, $0.postalCode.cast(as: Int.self), $0.supportRepId.cast(as: String.self)) }
            )
            return DifferentialCase(
                label: "customers state \(negate ? "IS NOT" : "IS") \(state ?? "NULL")",
                builder: try rows.map { try raw($0.0, $0.1, $0.2) },
                handWritten: try sql(
                    db,
                    "SELECT CustomerId, CAST(PostalCode AS INTEGER), CAST(SupportRepId AS TEXT) FROM Customer WHERE State \(negate ? "IS NOT" : "IS") ?",
                    [state]),
                isOrdered: false)
        case 3:
            // Text functions.
            let start = random.int(-4...5)
            let length = random.int(0...6)
            let needle = random.element(["a", "e", "o", "an", "er", "@"])
            let rows = try await engine.all(
                Customer.where { $0.lastName.instr(needle) > 0 || $0.company.instr(needle) > 1 }.order(
                    by: \.customerId
                )
                .select {
                    (
                        $0.lastName.substr(start, length), $0.company.substr(start), $0.email.instr(needle),
                        $0.company.nullif("JetBrains s.r.o.")
                    )
                })
            return DifferentialCase(
                label: "customers: substr \(start), \(length), instr \(needle)",
                builder: try rows.map { try raw($0.0, $0.1, $0.2, $0.3) },
                handWritten: try sql(
                    db,
                    "SELECT substr(LastName, ?1, ?2), substr(Company, ?1), instr(Email, ?3), nullif(Company, 'JetBrains s.r.o.') FROM Customer"
                        + " WHERE instr(LastName, ?3) > 0 OR instr(Company, ?3) > 1 ORDER BY CustomerId",
                    [start, length, needle]),
                isOrdered: true)
        case 4:
            // Date functions with modifiers.
            let month = random.element(months)
            let days = random.int(-40...40)
            let rows = try await engine.all(
                Invoice.where { $0.invoiceDate.strftime("%Y-%m") == month }.order(by: \.invoiceId)
                    .select {
                        (
                            $0.invoiceId, $0.invoiceDate.date(.days(days)), $0.invoiceDate.datetime(.startOfMonth),
                            $0.invoiceDate.julianDay(), $0.invoiceDate.unixEpoch()
                        )
                    }
            )
            return DifferentialCase(
                label: "invoices of \(month), \(days) days",
                builder: try rows.map { try raw($0.0, $0.1, $0.2, $0.3, $0.4) },
                handWritten: try sql(
                    db,
                    "SELECT InvoiceId, date(InvoiceDate, ?2), datetime(InvoiceDate, 'start of month'), julianday(InvoiceDate), unixepoch(InvoiceDate)"
                        + " FROM Invoice WHERE strftime('%Y-%m', InvoiceDate) = ?1 ORDER BY InvoiceId",
                    [month, (days < 0 ? "\(days)" : "+\(days)") + " days"]),
                isOrdered: true)
        case 5:
            // DISTINCT aggregates per group.
            let genre = random.int64(1...25)
            let rows = try await engine.all(
                Track.where { $0.genreId == genre }.group(by: \.albumId).order(by: \.albumId)
                    .select {
                        (
                            $0.albumId, $0.unitPrice.sum(distinct: true), $0.mediaTypeId.count(distinct: true),
                            $0.milliseconds.avg(distinct: true), $0.composer.groupConcat(distinct: true)
                        )
                    }
            )
            return DifferentialCase(
                label: "albums of genre \(genre): distinct aggregates",
                builder: try rows.map { try raw($0.0, $0.1, $0.2, $0.3, $0.4) },
                handWritten: try sql(
                    db,
                    "SELECT AlbumId, sum(DISTINCT UnitPrice), count(DISTINCT MediaTypeId), avg(DISTINCT Milliseconds), group_concat(DISTINCT Composer)"
                        + " FROM Track WHERE GenreId = ? GROUP BY AlbumId ORDER BY AlbumId", [genre]),
                isOrdered: true, unorderedTextColumns: [4])
        case 6:
            // Ranking functions partitioned by genre.
            let descending = random.bool()
            let limit = random.int(5...60)
            let offset = random.int(0...300)
            let rows = try await engine.all(
                Track.order(by: \.trackId).limit(limit, offset: offset).select { track in
                    let window = Window.partition(by: track.genreId).order(
                        by: descending ? track.milliseconds.descending() : track.milliseconds.ascending(), track.trackId
                    )
                    return (
                        track.trackId, rowNumber().over(window),
                        rank().over(.partition(by: track.genreId).order(by: track.unitPrice)), ntile(4).over(window)
                    )
                })
            let direction = descending ? "DESC" : "ASC"
            return DifferentialCase(
                label: "ranking \(direction) limit \(limit) offset \(offset)",
                builder: try rows.map { try raw($0.0, $0.1, $0.2, $0.3) },
                handWritten: try sql(
                    db,
                    "SELECT TrackId, row_number() OVER (PARTITION BY GenreId ORDER BY Milliseconds \(direction), TrackId),"
                        + " rank() OVER (PARTITION BY GenreId ORDER BY UnitPrice), ntile(4) OVER (PARTITION BY GenreId ORDER BY Milliseconds \(direction), TrackId)"
                        + " FROM Track ORDER BY TrackId LIMIT ? OFFSET ?", [limit, offset]),
                isOrdered: true)
        case 7:
            // An aggregate over a random frame.
            let customer = random.int64(1...59)
            let before = random.int(0...3)
            let after = random.int(0...3)
            let unit = random.element(["ROWS", "GROUPS", "RANGE"])
            let rows = try await engine.all(
                Invoice.where { $0.customerId <= customer }.order(by: \.invoiceId).select { invoice in
                    // RANGE with offsets takes one numeric ordering term; ROWS needs one without ties.
                    let partition = Window.partition(by: invoice.customerId)
                    let window: Window
                    switch unit {
                    case "ROWS":
                        window = partition.order(by: invoice.total, invoice.invoiceId).rows(
                            .preceding(before), .following(after))
                    case "GROUPS":
                        window = partition.order(by: invoice.total).groups(.preceding(before), .following(after))
                    default:
                        window = partition.order(by: invoice.invoiceId).range(.preceding(before), .following(after))
                    }
                    return (
                        invoice.invoiceId, invoice.total.sum().over(window), count().over(window),
                        invoice.total.min().over(window)
                    )
                })
            let order = ["ROWS": "Total, InvoiceId", "GROUPS": "Total"][unit] ?? "InvoiceId"
            return DifferentialCase(
                label: "\(unit) \(before) preceding \(after) following up to customer \(customer)",
                builder: try rows.map { try raw($0.0, $0.1, $0.2, $0.3) },
                handWritten: try sql(
                    db,
                    "SELECT InvoiceId, sum(Total) OVER w, count(*) OVER w, min(Total) OVER w FROM Invoice WHERE CustomerId <= ?"
                        + " WINDOW w AS (PARTITION BY CustomerId ORDER BY \(order) \(unit) BETWEEN \(before) PRECEDING AND \(after) FOLLOWING) ORDER BY InvoiceId",
                    [customer]),
                isOrdered: true)
        case 8:
            // lag, lead, first, last and nth values.
            let customer = random.int64(1...59)
            let offset = random.int(1...4)
            let fallback = Double(random.int(0...9))
            let nth = random.int(1...5)
            let rows = try await engine.all(
                Invoice.where { $0.customerId == customer }.order(by: \.invoiceId).select { invoice in
                    let window = Window.order(by: invoice.invoiceDate, invoice.invoiceId)
                    return (
                        invoice.total.lag(offset: offset).over(window),
                        invoice.total.lead(offset: offset, default: fallback).over(window),
                        invoice.billingState.firstValue().over(window), invoice.total.lastValue().over(window),
                        invoice.total.nthValue(nth).over(window)
                    )
                })
            return DifferentialCase(
                label: "customer \(customer) lag/lead \(offset) nth \(nth)",
                builder: try rows.map { try raw($0.0, $0.1, $0.2, $0.3, $0.4) },
                handWritten: try sql(
                    db,
                    "SELECT lag(Total, ?2) OVER w, lead(Total, ?2, ?3) OVER w, first_value(BillingState) OVER w, last_value(Total) OVER w, nth_value(Total, ?4) OVER w"
                        + " FROM Invoice WHERE CustomerId = ?1 WINDOW w AS (ORDER BY InvoiceDate, InvoiceId) ORDER BY InvoiceId",
                    [customer, offset, fallback, nth]),
                isOrdered: true)
        case 10:
            // A grouped select as a table source, joined and filtered.
            let minimum = Double(random.int(30...48))
            let year = random.element(["2021", "2022", "2023", "2024", "2025"])
            let spending = Invoice.where { $0.invoiceDate.strftime("%Y") >= year }.group(by: \.customerId).select {
                ($0.customerId, $0.total.sum())
            }
            let rows = try await engine.all(
                Customer.join(Spending.self, from: spending, on: { $0.customerId == $1.customerId })
                    .where { _, spending in spending.spent >= minimum }.order { customer, _ in customer.customerId }
                    .select { customer, spending in (customer.customerId, spending.spent) })
            return DifferentialCase(
                label: "customers spending \(minimum) since \(year)", builder: try rows.map { try raw($0.0, $0.1) },
                handWritten: try sql(
                    db,
                    "SELECT c.CustomerId, s.spent FROM Customer c JOIN (SELECT CustomerId, sum(Total) AS spent FROM Invoice"
                        + " WHERE strftime('%Y', InvoiceDate) >= ? GROUP BY CustomerId) s ON c.CustomerId = s.CustomerId WHERE s.spent >= ? ORDER BY c.CustomerId",
                    [year, minimum]),
                isOrdered: true)
        default:
            // OFFSET without LIMIT.
            let offset = random.int(3400...3510)
            let rows = try await engine.all(
                Track.order(by: \.trackId).offset(offset).select {
                    ($0.trackId, $0.name.lower(), $0.composer.upper())
                })
            return DifferentialCase(
                label: "tracks after \(offset)", builder: try rows.map { try raw($0.0, $0.1, $0.2) },
                handWritten: try sql(
                    db, "SELECT TrackId, lower(Name), upper(Composer) FROM Track ORDER BY TrackId LIMIT -1 OFFSET ?",
                    [offset]),
                isOrdered: true)
        }
    }
}
