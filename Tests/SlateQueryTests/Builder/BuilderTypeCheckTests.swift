import Foundation
import Slate
import SlateTestSupport
import Testing

// About fifty realistic queries, including six-condition predicates, written the way application
// code writes them. The file exists to be compiled: its type-checking time is measured with
// `-Xfrontend -warn-long-expression-type-checking=…` and `-debug-time-function-bodies` (see the
// TypedQueries article). The tests also run every query against Chinook, so they stay valid.

enum TypeCheckQueries {
    static let minimumLength: Int64 = 200_000
    static let country = "Brazil"

    // MARK: Six-condition predicates

    static func q01() -> Select<Person> {
        Person.where {
            $0.age > 5 && $0.name == "x" && $0.score <= 3.5 && $0.email != nil && $0.age < 90 || $0.name.hasPrefix("A")
        }
    }

    static func q02() -> Select<Track> {
        Track.where {
            $0.milliseconds > 200_000 && $0.genreId == 1 && $0.composer != nil && $0.unitPrice <= 0.99
                && $0.bytes > 1_000
                && $0.name.contains("Love")
        }
    }

    static func q03() -> Select<Customer> {
        Customer.where {
            $0.country == "USA" && $0.state != nil && $0.company == nil && $0.supportRepId == 3
                && $0.email.hasSuffix(".com")
                || $0.city == "Paris"
        }
    }

    static func q04() -> Select<Invoice> {
        Invoice.where {
            $0.total > 5 && $0.total < 20 && $0.billingCountry == country && $0.billingCity != "Rio"
                && $0.customerId >= 1
                && $0.billingPostalCode != nil
        }
    }

    static func q05() -> Select<Employee> {
        Employee.where {
            ($0.title == "Sales Support Agent" || $0.title == "IT Staff") && $0.reportsTo != nil && $0.city == "Calgary"
                && $0.country == "Canada" && $0.email.contains("@")
        }
    }

    static func q06() -> Select<Track> {
        Track.where {
            $0.milliseconds.between(100_000, and: 400_000) && $0.genreId.in([1, 2, 3]) && $0.albumId != nil
                && $0.mediaTypeId == 1 && $0.unitPrice == 0.99 && !$0.name.hasPrefix("The")
        }
    }

    static func q07() -> Select<Person> {
        Person.where {
            $0.age >= 18 && $0.age <= 65 && $0.score > 1.5 && $0.email != nil && $0.name != "root" && $0.id != nil
        }
    }

    static func q08() -> Select<Track> {
        Track.where {
            $0.milliseconds / 1000 > 300 && $0.bytes != nil && $0.composer.like("%Bach%") && $0.unitPrice * 2 < 3
                && $0.trackId > 10 && $0.name.lower() != "intro"
        }
    }

    // MARK: Filters

    static func q09() -> Select<Artist> { Artist.where { $0.name == "AC/DC" } }
    static func q10() -> Select<Artist> { Artist.where { $0.name.collate(.nocase) == "ac/dc" } }
    static func q11() -> Select<Album> { Album.where { $0.artistId == 1 }.order(by: \.title) }
    static func q12() -> Select<Track> { Track.where { $0.composer == nil }.limit(10) }
    static func q13() -> Select<Track> { Track.where { $0.name.hasPrefix("A") || $0.name.hasPrefix("B") } }
    static func q14() -> Select<Customer> { Customer.where { $0.fax != nil && $0.company != nil } }
    static func q15() -> Select<Invoice> { Invoice.where { $0.total >= 10 }.order { $0.total.descending() }.limit(5) }
    static func q16() -> Select<Track> { Track.where { $0.unitPrice > 0.99 }.where { $0.genreId != 1 } }
    static func q17() -> Select<Employee> { Employee.where { $0.reportsTo == nil } }
    static func q18() -> Select<Track> { Track.where { ($0.bytes ?? 0) > 10_000_000 } }
    static func q19() -> Select<Genre> { Genre.where { $0.name.in(["Rock", "Jazz", "Blues"]) } }
    static func q20() -> Select<Track> {
        Track.where { $0.milliseconds + 1_000 > minimumLength && -$0.milliseconds < 0 }
    }

    // MARK: Ordering and paging

    static func q21() -> Select<Track> { Track.order { ($0.composer.descending(nulls: .last), $0.name) } }
    static func q22() -> Select<Customer> { Customer.order(by: \.lastName, \.firstName).limit(20, offset: 40) }
    static func q23() -> Select<Album> { Album.all().order { $0.title.collate(.nocase).ascending() }.distinct() }

    // MARK: Selections and aggregates

    static func q24() -> Selection<Track.Columns, (Int64?, String)> {
        Track.where { $0.trackId < 5 }.select { ($0.trackId, $0.name) }
    }
    static func q25() -> Selection<Customer.Columns, String?> { Customer.select { $0.country }.distinct() }
    static func q26() -> Selection<Track.Columns, (Int64?, Int)> {
        Track.group(by: \.genreId).having { _ in count() > 100 }.select { ($0.genreId, count()) }
    }
    static func q27() -> Selection<Invoice.Columns, (Double?, Double?, Double)> {
        Invoice.select { ($0.total.sum(), $0.total.avg(), $0.total.total()) }
    }
    static func q28() -> Selection<Track.Columns, (Int64?, Int64?, Int)> {
        Track.group { $0.albumId }.select { ($0.albumId, $0.milliseconds.max(), $0.trackId.count()) }
    }
    static func q29() -> Selection<Customer.Columns, (String?, Int)> {
        Customer.group(by: \.country).having { $0.customerId.count() >= 5 }.order { $0.customerId.count().descending() }
            .select { ($0.country, $0.customerId.count()) }
    }
    static func q30() -> Selection<Genre.Columns, String?> { Genre.select { $0.name.groupConcat(separator: ", ") } }
    static func q31() -> Selection<Track.Columns, (String, Int64)> {
        Track.where { $0.trackId <= 3 }.select { ($0.name.upper(), $0.milliseconds / 1_000) }
    }
    static func q32() -> Selection<Customer.Columns, String> { Customer.select { $0.company ?? "(none)" } }
    static func q33() -> Selection<Employee.Columns, Int> { Employee.select { $0.email.count(distinct: true) } }

    // MARK: Subqueries

    static func q34() -> Select<Artist> { Artist.where { $0.artistId.in(Album.select { $0.artistId }) } }
    static func q35() -> Select<Artist> {
        Artist.where { artist in !exists(Album.where { $0.artistId == artist.artistId }) }
    }
    static func q36() -> Select<Invoice> { Invoice.where { $0.total > Invoice.select { $0.total.avg() } } }
    static func q37() -> Select<Track> {
        Track.where {
            $0.genreId.in(Genre.where { $0.name == "Rock" || $0.name == "Metal" }.select { $0.genreId })
                && $0.trackId < 100
        }
    }
    static func q38() -> Select<Customer> {
        Customer.where { customer in exists(Invoice.where { $0.customerId == customer.customerId && $0.total > 15 }) }
    }

    // MARK: Joins

    static func q39() -> Select2<Album, Artist> {
        Album.join(Artist.self, on: { album, artist in album.artistId == artist.artistId }).where { _, artist in
            artist.name == "Queen"
        }
    }
    static func q40() -> Select2<Artist, Album?> {
        Artist.leftJoin(Album.self, on: { $0.artistId == $1.artistId }).where { _, album in album.albumId == nil }
    }
    static func q41() -> Select3<Track, Album, Artist> {
        Track.all()
            .join(Album.self, on: { track, album in track.albumId == album.albumId })
            .join(Artist.self, on: { _, album, artist in album.artistId == artist.artistId })
            .where { track, album, artist in
                artist.name == "Queen" && track.milliseconds > 200_000 && album.title != "" && track.unitPrice < 1
                    && track.composer != nil && track.genreId == 1
            }
    }
    static func q42() -> Select2<Employee, Employee?> {
        Employee.all().leftJoin(TableAlias<Employee>("manager"), on: { $0.reportsTo == $1.employeeId })
    }
    static func q43() -> Selection<(Employee.Columns, Employee.Columns), (String, String)> {
        Employee.aliased("e").join(Employee.self, as: "m", on: { e, m in e.reportsTo == m.employeeId })
            .select { e, m in (e.lastName, m.lastName) }
    }
    static func q44() -> Select3<Customer, Employee?, Invoice> {
        Customer.leftJoin(Employee.self, on: { $0.supportRepId == $1.employeeId })
            .join(Invoice.self, on: { customer, _, invoice in invoice.customerId == customer.customerId })
            .where { customer, rep, invoice in customer.country == "France" && invoice.total > 10 && rep.title != nil }
            .order { _, _, invoice in invoice.invoiceDate.descending() }
    }
    static func q45() -> Select4<InvoiceLine, Invoice, Track, Genre?> {
        InvoiceLine.join(Invoice.self, on: { $0.invoiceId == $1.invoiceId })
            .join(Track.self, on: { line, _, track in line.trackId == track.trackId })
            .leftJoin(Genre.self, on: { _, _, track, genre in track.genreId == genre.genreId })
            .where { line, invoice, _, genre in line.quantity > 0 && invoice.total > 1 && genre.name != "Opera" }
    }
    static func q46() -> Selection<(PlaylistTrack.Columns, Track.Columns), (Int64, String)> {
        PlaylistTrack.join(Track.self, on: { $0.trackId == $1.trackId }).where { entry, _ in entry.playlistId == 1 }
            .group { entry, _ in entry.playlistId }
            .select { entry, track in (entry.playlistId, track.name.max() ?? "") }
    }

    // MARK: Writes

    static func q47() -> Update<Person> {
        Person.update {
            $0.name.set(to: "Bob")
            $0.age.set(to: $0.age + 1)
        }.where { $0.id == 3 }
    }
    static func q48() -> Delete<Person> { Person.delete().where { $0.age < 18 && $0.email == nil || $0.score < 0 } }
    static func q49() -> Insert<Person> {
        Person.insert(Person(name: "Arthur")).onConflict(\.email) { existing, excluded in
            existing.name.set(to: excluded.name)
            existing.score.set(to: existing.score + excluded.score)
        }
    }
    static func q50() -> Returning<Person, (Int64?, String)> {
        Person.update { $0.score.set(to: $0.score * 1.1) }.where { $0.score > 1 && $0.age > 30 }.returning {
            ($0.id, $0.name)
        }
    }
    static func q51() -> Select<Album> {
        Album.where { $0.albumId == 1 || $0.albumId == 2 || $0.albumId == 3 || $0.title.hasPrefix("X") }
    }
    static func q52() -> Select<Track> {
        Track.where {
            $0.trackId > 0 && $0.trackId < 10 && $0.trackId != 5 && $0.trackId >= 1 && $0.trackId <= 9
                && $0.trackId != 7
        }
    }
}

@Suite struct BuilderTypeCheckTests {
    @Test func everyChinookQueryRuns() throws {
        let db = try Database.chinook()
        #expect(try TypeCheckQueries.q02().fetchCount(db) >= 0)
        #expect(try TypeCheckQueries.q03().fetchCount(db) > 0)
        #expect(try TypeCheckQueries.q04().fetchCount(db) > 0)
        #expect(try TypeCheckQueries.q05().fetchCount(db) > 0)
        #expect(try TypeCheckQueries.q06().fetchCount(db) > 0)
        #expect(try TypeCheckQueries.q08().fetchCount(db) >= 0)
        let selects: [Int] = [
            try TypeCheckQueries.q09().fetchCount(db), try TypeCheckQueries.q10().fetchCount(db),
            try TypeCheckQueries.q11().fetchCount(db), try TypeCheckQueries.q12().fetchCount(db),
            try TypeCheckQueries.q13().fetchCount(db), try TypeCheckQueries.q14().fetchCount(db),
            try TypeCheckQueries.q15().fetchCount(db), try TypeCheckQueries.q16().fetchCount(db),
            try TypeCheckQueries.q17().fetchCount(db), try TypeCheckQueries.q18().fetchCount(db),
            try TypeCheckQueries.q19().fetchCount(db), try TypeCheckQueries.q20().fetchCount(db),
            try TypeCheckQueries.q21().fetchCount(db), try TypeCheckQueries.q22().fetchCount(db),
            try TypeCheckQueries.q23().fetchCount(db), try TypeCheckQueries.q34().fetchCount(db),
            try TypeCheckQueries.q35().fetchCount(db), try TypeCheckQueries.q36().fetchCount(db),
            try TypeCheckQueries.q37().fetchCount(db), try TypeCheckQueries.q38().fetchCount(db),
            try TypeCheckQueries.q39().fetchCount(db), try TypeCheckQueries.q40().fetchCount(db),
            try TypeCheckQueries.q41().fetchCount(db), try TypeCheckQueries.q42().fetchCount(db),
            try TypeCheckQueries.q44().fetchCount(db), try TypeCheckQueries.q45().fetchCount(db),
            try TypeCheckQueries.q51().fetchCount(db), try TypeCheckQueries.q52().fetchCount(db),
        ]
        #expect(selects.allSatisfy { $0 > 0 })
        #expect(try TypeCheckQueries.q24().fetchAll(db).count == 4)
        #expect(try TypeCheckQueries.q25().fetchAll(db).count == 24)
        #expect(try !TypeCheckQueries.q26().fetchAll(db).isEmpty)
        #expect(try TypeCheckQueries.q27().fetchOne(db) != nil)
        #expect(try !TypeCheckQueries.q28().fetchAll(db).isEmpty)
        #expect(try !TypeCheckQueries.q29().fetchAll(db).isEmpty)
        #expect(try TypeCheckQueries.q30().fetchOne(db) != nil)
        #expect(try TypeCheckQueries.q31().fetchAll(db).count == 3)
        #expect(try TypeCheckQueries.q32().fetchAll(db).contains("(none)"))
        #expect(try TypeCheckQueries.q33().fetchOne(db) == 8)
        #expect(try TypeCheckQueries.q43().fetchAll(db).count == 7)
        #expect(try TypeCheckQueries.q46().fetchAll(db).count == 1)
    }

    @Test func everyPersonQueryRuns() throws {
        let db = try Database.withTestTables()
        try db.insert(contentsOf: [
            Person(name: "Arthur", age: 42, email: "a@x.org", score: 2), Person(name: "Ford", age: 17, score: 1.5),
        ])
        #expect(try TypeCheckQueries.q01().fetchCount(db) == 1)
        #expect(try TypeCheckQueries.q07().fetchCount(db) == 1)
        #expect(try TypeCheckQueries.q47().execute(db) == 0)
        #expect(try TypeCheckQueries.q48().execute(db) == 1)
        #expect(try TypeCheckQueries.q49().execute(db).count == 1)
        #expect(try TypeCheckQueries.q50().fetchAll(db).map(\.1) == ["Arthur"])
    }
}
