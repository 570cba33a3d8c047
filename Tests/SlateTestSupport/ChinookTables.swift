import Foundation
import Slate
import SlateTestingCore

// Hand-written `Table` conformances for the Chinook sample database.
//
// They follow the documented pattern exactly, and are the reference for what `slate generate` and
// the `@Table` macro emit: a `TableSchema`, a `Columns` struct of typed `Column`s, `init(row:)`
// decoding by position, `encode(to:)` handing out the values by position, `didInsert` for an
// INTEGER PRIMARY KEY, and the primary key.

package struct Artist: PrimaryKeyedTable, Hashable, Sendable {
    package var artistId: Int64?
    package var name: String?

    package static let schema = TableSchema(
        name: "Artist",
        columns: [
            .init(name: "ArtistId", type: "INTEGER", primaryKeyPosition: 1),
            .init(name: "Name", type: "NVARCHAR(120)"),
        ])

    package struct Columns: TableColumns {
        package let artistId: Column<Artist, Int64?>
        package let name: Column<Artist, String?>
        package init(qualifier: String) {
            artistId = Column(qualifier, "ArtistId")
            name = Column(qualifier, "Name")
        }
    }

    package init(artistId: Int64? = nil, name: String?) {
        self.artistId = artistId
        self.name = name
    }

    package init(row: borrowing Row) throws {
        artistId = try row.decode(at: 0)
        name = try row.decode(at: 1)
    }

    package func encode<Encoder: ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
        try encoder.encode(artistId)
        try encoder.encode(name)
    }

    package mutating func didInsert(rowID: Int64) { artistId = rowID }

    package var primaryKey: Int64? { artistId }
}

package struct Album: PrimaryKeyedTable, Hashable, Sendable {
    package var albumId: Int64?
    package var title: String
    package var artistId: Int64

    package static let schema = TableSchema(
        name: "Album",
        columns: [
            .init(name: "AlbumId", type: "INTEGER", primaryKeyPosition: 1),
            .init(name: "Title", type: "NVARCHAR(160)", isNotNull: true),
            .init(name: "ArtistId", type: "INTEGER", isNotNull: true),
        ],
        foreignKeys: [
            .init(columns: ["ArtistId"], referencedTable: "Artist", referencedColumns: ["ArtistId"])
        ],
        indexes: [
            .init(name: "IFK_AlbumArtistId", columns: ["ArtistId"])
        ])

    package struct Columns: TableColumns {
        package let albumId: Column<Album, Int64?>
        package let title: Column<Album, String>
        package let artistId: Column<Album, Int64>
        package init(qualifier: String) {
            albumId = Column(qualifier, "AlbumId")
            title = Column(qualifier, "Title")
            artistId = Column(qualifier, "ArtistId")
        }
    }

    package init(albumId: Int64? = nil, title: String, artistId: Int64) {
        self.albumId = albumId
        self.title = title
        self.artistId = artistId
    }

    package init(row: borrowing Row) throws {
        albumId = try row.decode(at: 0)
        title = try row.decode(at: 1)
        artistId = try row.decode(at: 2)
    }

    package func encode<Encoder: ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
        try encoder.encode(albumId)
        try encoder.encode(title)
        try encoder.encode(artistId)
    }

    package mutating func didInsert(rowID: Int64) { albumId = rowID }

    package var primaryKey: Int64? { albumId }
}

package struct Genre: PrimaryKeyedTable, Hashable, Sendable {
    package var genreId: Int64?
    package var name: String?

    package static let schema = TableSchema(
        name: "Genre",
        columns: [
            .init(name: "GenreId", type: "INTEGER", primaryKeyPosition: 1),
            .init(name: "Name", type: "NVARCHAR(120)"),
        ])

    package struct Columns: TableColumns {
        package let genreId: Column<Genre, Int64?>
        package let name: Column<Genre, String?>
        package init(qualifier: String) {
            genreId = Column(qualifier, "GenreId")
            name = Column(qualifier, "Name")
        }
    }

    package init(genreId: Int64? = nil, name: String?) {
        self.genreId = genreId
        self.name = name
    }

    package init(row: borrowing Row) throws {
        genreId = try row.decode(at: 0)
        name = try row.decode(at: 1)
    }

    package func encode<Encoder: ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
        try encoder.encode(genreId)
        try encoder.encode(name)
    }

    package mutating func didInsert(rowID: Int64) { genreId = rowID }

    package var primaryKey: Int64? { genreId }
}

package struct MediaType: PrimaryKeyedTable, Hashable, Sendable {
    package var mediaTypeId: Int64?
    package var name: String?

    package static let schema = TableSchema(
        name: "MediaType",
        columns: [
            .init(name: "MediaTypeId", type: "INTEGER", primaryKeyPosition: 1),
            .init(name: "Name", type: "NVARCHAR(120)"),
        ])

    package struct Columns: TableColumns {
        package let mediaTypeId: Column<MediaType, Int64?>
        package let name: Column<MediaType, String?>
        package init(qualifier: String) {
            mediaTypeId = Column(qualifier, "MediaTypeId")
            name = Column(qualifier, "Name")
        }
    }

    package init(row: borrowing Row) throws {
        mediaTypeId = try row.decode(at: 0)
        name = try row.decode(at: 1)
    }

    package func encode<Encoder: ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
        try encoder.encode(mediaTypeId)
        try encoder.encode(name)
    }

    package mutating func didInsert(rowID: Int64) { mediaTypeId = rowID }

    package var primaryKey: Int64? { mediaTypeId }
}

package struct Track: PrimaryKeyedTable, Hashable, Sendable {
    package var trackId: Int64?
    package var name: String
    package var albumId: Int64?
    package var mediaTypeId: Int64
    package var genreId: Int64?
    package var composer: String?
    package var milliseconds: Int64
    package var bytes: Int64?
    package var unitPrice: Double

    package static let schema = TableSchema(
        name: "Track",
        columns: [
            .init(name: "TrackId", type: "INTEGER", primaryKeyPosition: 1),
            .init(name: "Name", type: "NVARCHAR(200)", isNotNull: true),
            .init(name: "AlbumId", type: "INTEGER"),
            .init(name: "MediaTypeId", type: "INTEGER", isNotNull: true),
            .init(name: "GenreId", type: "INTEGER"),
            .init(name: "Composer", type: "NVARCHAR(220)"),
            .init(name: "Milliseconds", type: "INTEGER", isNotNull: true),
            .init(name: "Bytes", type: "INTEGER"),
            .init(name: "UnitPrice", type: "NUMERIC(10,2)", isNotNull: true),
        ],
        foreignKeys: [
            .init(columns: ["AlbumId"], referencedTable: "Album", referencedColumns: ["AlbumId"]),
            .init(columns: ["MediaTypeId"], referencedTable: "MediaType", referencedColumns: ["MediaTypeId"]),
            .init(columns: ["GenreId"], referencedTable: "Genre", referencedColumns: ["GenreId"]),
        ])

    package struct Columns: TableColumns {
        package let trackId: Column<Track, Int64?>
        package let name: Column<Track, String>
        package let albumId: Column<Track, Int64?>
        package let mediaTypeId: Column<Track, Int64>
        package let genreId: Column<Track, Int64?>
        package let composer: Column<Track, String?>
        package let milliseconds: Column<Track, Int64>
        package let bytes: Column<Track, Int64?>
        package let unitPrice: Column<Track, Double>
        package init(qualifier: String) {
            trackId = Column(qualifier, "TrackId")
            name = Column(qualifier, "Name")
            albumId = Column(qualifier, "AlbumId")
            mediaTypeId = Column(qualifier, "MediaTypeId")
            genreId = Column(qualifier, "GenreId")
            composer = Column(qualifier, "Composer")
            milliseconds = Column(qualifier, "Milliseconds")
            bytes = Column(qualifier, "Bytes")
            unitPrice = Column(qualifier, "UnitPrice")
        }
    }

    package init(row: borrowing Row) throws {
        trackId = try row.decode(at: 0)
        name = try row.decode(at: 1)
        albumId = try row.decode(at: 2)
        mediaTypeId = try row.decode(at: 3)
        genreId = try row.decode(at: 4)
        composer = try row.decode(at: 5)
        milliseconds = try row.decode(at: 6)
        bytes = try row.decode(at: 7)
        unitPrice = try row.decode(at: 8)
    }

    package func encode<Encoder: ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
        try encoder.encode(trackId)
        try encoder.encode(name)
        try encoder.encode(albumId)
        try encoder.encode(mediaTypeId)
        try encoder.encode(genreId)
        try encoder.encode(composer)
        try encoder.encode(milliseconds)
        try encoder.encode(bytes)
        try encoder.encode(unitPrice)
    }

    package mutating func didInsert(rowID: Int64) { trackId = rowID }

    package var primaryKey: Int64? { trackId }
}

package struct Employee: PrimaryKeyedTable, Hashable, Sendable {
    package var employeeId: Int64?
    package var lastName: String
    package var firstName: String
    package var title: String?
    package var reportsTo: Int64?
    package var birthDate: Date?
    package var hireDate: Date?
    package var address: String?
    package var city: String?
    package var state: String?
    package var country: String?
    package var postalCode: String?
    package var phone: String?
    package var fax: String?
    package var email: String?

    package static let schema = TableSchema(
        name: "Employee",
        columns: [
            .init(name: "EmployeeId", type: "INTEGER", primaryKeyPosition: 1),
            .init(name: "LastName", type: "NVARCHAR(20)", isNotNull: true),
            .init(name: "FirstName", type: "NVARCHAR(20)", isNotNull: true),
            .init(name: "Title", type: "NVARCHAR(30)"),
            .init(name: "ReportsTo", type: "INTEGER"),
            .init(name: "BirthDate", type: "DATETIME"),
            .init(name: "HireDate", type: "DATETIME"),
            .init(name: "Address", type: "NVARCHAR(70)"),
            .init(name: "City", type: "NVARCHAR(40)"),
            .init(name: "State", type: "NVARCHAR(40)"),
            .init(name: "Country", type: "NVARCHAR(40)"),
            .init(name: "PostalCode", type: "NVARCHAR(10)"),
            .init(name: "Phone", type: "NVARCHAR(24)"),
            .init(name: "Fax", type: "NVARCHAR(24)"),
            .init(name: "Email", type: "NVARCHAR(60)"),
        ],
        foreignKeys: [
            .init(columns: ["ReportsTo"], referencedTable: "Employee", referencedColumns: ["EmployeeId"])
        ])

    package struct Columns: TableColumns {
        package let employeeId: Column<Employee, Int64?>
        package let lastName: Column<Employee, String>
        package let firstName: Column<Employee, String>
        package let title: Column<Employee, String?>
        package let reportsTo: Column<Employee, Int64?>
        package let birthDate: Column<Employee, Date?>
        package let hireDate: Column<Employee, Date?>
        package let address: Column<Employee, String?>
        package let city: Column<Employee, String?>
        package let state: Column<Employee, String?>
        package let country: Column<Employee, String?>
        package let postalCode: Column<Employee, String?>
        package let phone: Column<Employee, String?>
        package let fax: Column<Employee, String?>
        package let email: Column<Employee, String?>
        package init(qualifier: String) {
            employeeId = Column(qualifier, "EmployeeId")
            lastName = Column(qualifier, "LastName")
            firstName = Column(qualifier, "FirstName")
            title = Column(qualifier, "Title")
            reportsTo = Column(qualifier, "ReportsTo")
            birthDate = Column(qualifier, "BirthDate")
            hireDate = Column(qualifier, "HireDate")
            address = Column(qualifier, "Address")
            city = Column(qualifier, "City")
            state = Column(qualifier, "State")
            country = Column(qualifier, "Country")
            postalCode = Column(qualifier, "PostalCode")
            phone = Column(qualifier, "Phone")
            fax = Column(qualifier, "Fax")
            email = Column(qualifier, "Email")
        }
    }

    package init(row: borrowing Row) throws {
        employeeId = try row.decode(at: 0)
        lastName = try row.decode(at: 1)
        firstName = try row.decode(at: 2)
        title = try row.decode(at: 3)
        reportsTo = try row.decode(at: 4)
        birthDate = try row.decode(at: 5)
        hireDate = try row.decode(at: 6)
        address = try row.decode(at: 7)
        city = try row.decode(at: 8)
        state = try row.decode(at: 9)
        country = try row.decode(at: 10)
        postalCode = try row.decode(at: 11)
        phone = try row.decode(at: 12)
        fax = try row.decode(at: 13)
        email = try row.decode(at: 14)
    }

    package func encode<Encoder: ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
        try encoder.encode(employeeId)
        try encoder.encode(lastName)
        try encoder.encode(firstName)
        try encoder.encode(title)
        try encoder.encode(reportsTo)
        try encoder.encode(birthDate)
        try encoder.encode(hireDate)
        try encoder.encode(address)
        try encoder.encode(city)
        try encoder.encode(state)
        try encoder.encode(country)
        try encoder.encode(postalCode)
        try encoder.encode(phone)
        try encoder.encode(fax)
        try encoder.encode(email)
    }

    package mutating func didInsert(rowID: Int64) { employeeId = rowID }

    package var primaryKey: Int64? { employeeId }
}

package struct Customer: PrimaryKeyedTable, Hashable, Sendable {
    package var customerId: Int64?
    package var firstName: String
    package var lastName: String
    package var company: String?
    package var address: String?
    package var city: String?
    package var state: String?
    package var country: String?
    package var postalCode: String?
    package var phone: String?
    package var fax: String?
    package var email: String
    package var supportRepId: Int64?

    package static let schema = TableSchema(
        name: "Customer",
        columns: [
            .init(name: "CustomerId", type: "INTEGER", primaryKeyPosition: 1),
            .init(name: "FirstName", type: "NVARCHAR(40)", isNotNull: true),
            .init(name: "LastName", type: "NVARCHAR(20)", isNotNull: true),
            .init(name: "Company", type: "NVARCHAR(80)"),
            .init(name: "Address", type: "NVARCHAR(70)"),
            .init(name: "City", type: "NVARCHAR(40)"),
            .init(name: "State", type: "NVARCHAR(40)"),
            .init(name: "Country", type: "NVARCHAR(40)"),
            .init(name: "PostalCode", type: "NVARCHAR(10)"),
            .init(name: "Phone", type: "NVARCHAR(24)"),
            .init(name: "Fax", type: "NVARCHAR(24)"),
            .init(name: "Email", type: "NVARCHAR(60)", isNotNull: true),
            .init(name: "SupportRepId", type: "INTEGER"),
        ],
        foreignKeys: [
            .init(columns: ["SupportRepId"], referencedTable: "Employee", referencedColumns: ["EmployeeId"])
        ])

    package struct Columns: TableColumns {
        package let customerId: Column<Customer, Int64?>
        package let firstName: Column<Customer, String>
        package let lastName: Column<Customer, String>
        package let company: Column<Customer, String?>
        package let address: Column<Customer, String?>
        package let city: Column<Customer, String?>
        package let state: Column<Customer, String?>
        package let country: Column<Customer, String?>
        package let postalCode: Column<Customer, String?>
        package let phone: Column<Customer, String?>
        package let fax: Column<Customer, String?>
        package let email: Column<Customer, String>
        package let supportRepId: Column<Customer, Int64?>
        package init(qualifier: String) {
            customerId = Column(qualifier, "CustomerId")
            firstName = Column(qualifier, "FirstName")
            lastName = Column(qualifier, "LastName")
            company = Column(qualifier, "Company")
            address = Column(qualifier, "Address")
            city = Column(qualifier, "City")
            state = Column(qualifier, "State")
            country = Column(qualifier, "Country")
            postalCode = Column(qualifier, "PostalCode")
            phone = Column(qualifier, "Phone")
            fax = Column(qualifier, "Fax")
            email = Column(qualifier, "Email")
            supportRepId = Column(qualifier, "SupportRepId")
        }
    }

    package init(row: borrowing Row) throws {
        customerId = try row.decode(at: 0)
        firstName = try row.decode(at: 1)
        lastName = try row.decode(at: 2)
        company = try row.decode(at: 3)
        address = try row.decode(at: 4)
        city = try row.decode(at: 5)
        state = try row.decode(at: 6)
        country = try row.decode(at: 7)
        postalCode = try row.decode(at: 8)
        phone = try row.decode(at: 9)
        fax = try row.decode(at: 10)
        email = try row.decode(at: 11)
        supportRepId = try row.decode(at: 12)
    }

    package func encode<Encoder: ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
        try encoder.encode(customerId)
        try encoder.encode(firstName)
        try encoder.encode(lastName)
        try encoder.encode(company)
        try encoder.encode(address)
        try encoder.encode(city)
        try encoder.encode(state)
        try encoder.encode(country)
        try encoder.encode(postalCode)
        try encoder.encode(phone)
        try encoder.encode(fax)
        try encoder.encode(email)
        try encoder.encode(supportRepId)
    }

    package mutating func didInsert(rowID: Int64) { customerId = rowID }

    package var primaryKey: Int64? { customerId }
}

package struct Invoice: PrimaryKeyedTable, Hashable, Sendable {
    package var invoiceId: Int64?
    package var customerId: Int64
    package var invoiceDate: Date
    package var billingAddress: String?
    package var billingCity: String?
    package var billingState: String?
    package var billingCountry: String?
    package var billingPostalCode: String?
    package var total: Double

    package static let schema = TableSchema(
        name: "Invoice",
        columns: [
            .init(name: "InvoiceId", type: "INTEGER", primaryKeyPosition: 1),
            .init(name: "CustomerId", type: "INTEGER", isNotNull: true),
            .init(name: "InvoiceDate", type: "DATETIME", isNotNull: true),
            .init(name: "BillingAddress", type: "NVARCHAR(70)"),
            .init(name: "BillingCity", type: "NVARCHAR(40)"),
            .init(name: "BillingState", type: "NVARCHAR(40)"),
            .init(name: "BillingCountry", type: "NVARCHAR(40)"),
            .init(name: "BillingPostalCode", type: "NVARCHAR(10)"),
            .init(name: "Total", type: "NUMERIC(10,2)", isNotNull: true),
        ],
        foreignKeys: [
            .init(columns: ["CustomerId"], referencedTable: "Customer", referencedColumns: ["CustomerId"])
        ])

    package struct Columns: TableColumns {
        package let invoiceId: Column<Invoice, Int64?>
        package let customerId: Column<Invoice, Int64>
        package let invoiceDate: Column<Invoice, Date>
        package let billingAddress: Column<Invoice, String?>
        package let billingCity: Column<Invoice, String?>
        package let billingState: Column<Invoice, String?>
        package let billingCountry: Column<Invoice, String?>
        package let billingPostalCode: Column<Invoice, String?>
        package let total: Column<Invoice, Double>
        package init(qualifier: String) {
            invoiceId = Column(qualifier, "InvoiceId")
            customerId = Column(qualifier, "CustomerId")
            invoiceDate = Column(qualifier, "InvoiceDate")
            billingAddress = Column(qualifier, "BillingAddress")
            billingCity = Column(qualifier, "BillingCity")
            billingState = Column(qualifier, "BillingState")
            billingCountry = Column(qualifier, "BillingCountry")
            billingPostalCode = Column(qualifier, "BillingPostalCode")
            total = Column(qualifier, "Total")
        }
    }

    package init(row: borrowing Row) throws {
        invoiceId = try row.decode(at: 0)
        customerId = try row.decode(at: 1)
        invoiceDate = try row.decode(at: 2)
        billingAddress = try row.decode(at: 3)
        billingCity = try row.decode(at: 4)
        billingState = try row.decode(at: 5)
        billingCountry = try row.decode(at: 6)
        billingPostalCode = try row.decode(at: 7)
        total = try row.decode(at: 8)
    }

    package func encode<Encoder: ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
        try encoder.encode(invoiceId)
        try encoder.encode(customerId)
        try encoder.encode(invoiceDate)
        try encoder.encode(billingAddress)
        try encoder.encode(billingCity)
        try encoder.encode(billingState)
        try encoder.encode(billingCountry)
        try encoder.encode(billingPostalCode)
        try encoder.encode(total)
    }

    package mutating func didInsert(rowID: Int64) { invoiceId = rowID }

    package var primaryKey: Int64? { invoiceId }
}

package struct InvoiceLine: PrimaryKeyedTable, Hashable, Sendable {
    package var invoiceLineId: Int64?
    package var invoiceId: Int64
    package var trackId: Int64
    package var unitPrice: Double
    package var quantity: Int64

    package static let schema = TableSchema(
        name: "InvoiceLine",
        columns: [
            .init(name: "InvoiceLineId", type: "INTEGER", primaryKeyPosition: 1),
            .init(name: "InvoiceId", type: "INTEGER", isNotNull: true),
            .init(name: "TrackId", type: "INTEGER", isNotNull: true),
            .init(name: "UnitPrice", type: "NUMERIC(10,2)", isNotNull: true),
            .init(name: "Quantity", type: "INTEGER", isNotNull: true),
        ],
        foreignKeys: [
            .init(columns: ["InvoiceId"], referencedTable: "Invoice", referencedColumns: ["InvoiceId"]),
            .init(columns: ["TrackId"], referencedTable: "Track", referencedColumns: ["TrackId"]),
        ])

    package struct Columns: TableColumns {
        package let invoiceLineId: Column<InvoiceLine, Int64?>
        package let invoiceId: Column<InvoiceLine, Int64>
        package let trackId: Column<InvoiceLine, Int64>
        package let unitPrice: Column<InvoiceLine, Double>
        package let quantity: Column<InvoiceLine, Int64>
        package init(qualifier: String) {
            invoiceLineId = Column(qualifier, "InvoiceLineId")
            invoiceId = Column(qualifier, "InvoiceId")
            trackId = Column(qualifier, "TrackId")
            unitPrice = Column(qualifier, "UnitPrice")
            quantity = Column(qualifier, "Quantity")
        }
    }

    package init(row: borrowing Row) throws {
        invoiceLineId = try row.decode(at: 0)
        invoiceId = try row.decode(at: 1)
        trackId = try row.decode(at: 2)
        unitPrice = try row.decode(at: 3)
        quantity = try row.decode(at: 4)
    }

    package func encode<Encoder: ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
        try encoder.encode(invoiceLineId)
        try encoder.encode(invoiceId)
        try encoder.encode(trackId)
        try encoder.encode(unitPrice)
        try encoder.encode(quantity)
    }

    package mutating func didInsert(rowID: Int64) { invoiceLineId = rowID }

    package var primaryKey: Int64? { invoiceLineId }
}

package struct Playlist: PrimaryKeyedTable, Hashable, Sendable {
    package var playlistId: Int64?
    package var name: String?

    package static let schema = TableSchema(
        name: "Playlist",
        columns: [
            .init(name: "PlaylistId", type: "INTEGER", primaryKeyPosition: 1),
            .init(name: "Name", type: "NVARCHAR(120)"),
        ])

    package struct Columns: TableColumns {
        package let playlistId: Column<Playlist, Int64?>
        package let name: Column<Playlist, String?>
        package init(qualifier: String) {
            playlistId = Column(qualifier, "PlaylistId")
            name = Column(qualifier, "Name")
        }
    }

    package init(row: borrowing Row) throws {
        playlistId = try row.decode(at: 0)
        name = try row.decode(at: 1)
    }

    package func encode<Encoder: ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
        try encoder.encode(playlistId)
        try encoder.encode(name)
    }

    package mutating func didInsert(rowID: Int64) { playlistId = rowID }

    package var primaryKey: Int64? { playlistId }
}

/// A composite primary key: the key is a tuple, and `primaryKeyArguments` lists its elements.
package struct PlaylistTrack: PrimaryKeyedTable, Hashable, Sendable {
    package var playlistId: Int64
    package var trackId: Int64

    package static let schema = TableSchema(
        name: "PlaylistTrack",
        columns: [
            .init(name: "PlaylistId", type: "INTEGER", isNotNull: true, primaryKeyPosition: 1),
            .init(name: "TrackId", type: "INTEGER", isNotNull: true, primaryKeyPosition: 2),
        ],
        foreignKeys: [
            .init(columns: ["PlaylistId"], referencedTable: "Playlist", referencedColumns: ["PlaylistId"]),
            .init(columns: ["TrackId"], referencedTable: "Track", referencedColumns: ["TrackId"]),
        ])

    package struct Columns: TableColumns {
        package let playlistId: Column<PlaylistTrack, Int64>
        package let trackId: Column<PlaylistTrack, Int64>
        package init(qualifier: String) {
            playlistId = Column(qualifier, "PlaylistId")
            trackId = Column(qualifier, "TrackId")
        }
    }

    package init(playlistId: Int64, trackId: Int64) {
        self.playlistId = playlistId
        self.trackId = trackId
    }

    package init(row: borrowing Row) throws {
        playlistId = try row.decode(at: 0)
        trackId = try row.decode(at: 1)
    }

    package func encode<Encoder: ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
        try encoder.encode(playlistId)
        try encoder.encode(trackId)
    }

    package var primaryKey: (Int64, Int64) { (playlistId, trackId) }

    package static func encode<Encoder: ColumnEncoder>(primaryKey key: (Int64, Int64), to encoder: inout Encoder)
        throws(Encoder
        .Failure)
    {
        try encoder.encode(key.0)
        try encoder.encode(key.1)
    }
}

extension Database {
    /// The bundled Chinook database, read-only.
    package static func chinook() throws -> Database {
        var configuration = Database.Configuration()
        configuration.isReadOnly = true
        return try Database(path: Fixtures.path("chinook.sqlite"), configuration: configuration)
    }
}

extension Database {
    /// A writable in-memory copy of the bundled Chinook database.
    package static func chinookCopy() throws -> Database {
        try Database.inMemoryCopy(ofFile: Fixtures.path("chinook.sqlite"))
    }
}
