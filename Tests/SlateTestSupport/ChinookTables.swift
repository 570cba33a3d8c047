import Foundation
import Slate

// Hand-written `Table` conformances for the Chinook sample database.
//
// They follow the documented pattern exactly, and are the reference for what `slate generate` and
// the `@Table` macro emit: a `TableSchema`, a `Columns` struct of typed `Column`s, `init(row:)`
// decoding by position, `encode(to:)` handing out the values by position, `didInsert` for an
// INTEGER PRIMARY KEY, and the primary key.

struct Artist: PrimaryKeyedTable, Hashable, Sendable {
    var artistId: Int64?
    var name: String?

    static let schema = TableSchema(
        name: "Artist",
        columns: [
            .init(name: "ArtistId", type: "INTEGER", primaryKeyPosition: 1),
            .init(name: "Name", type: "NVARCHAR(120)"),
        ])

    struct Columns: TableColumns {
        let artistId: Column<Artist, Int64?>
        let name: Column<Artist, String?>
        init(qualifier: String) {
            artistId = Column(qualifier, "ArtistId")
            name = Column(qualifier, "Name")
        }
    }

    init(artistId: Int64? = nil, name: String?) {
        self.artistId = artistId
        self.name = name
    }

    init(row: borrowing Row) throws {
        artistId = try row.decode(at: 0)
        name = try row.decode(at: 1)
    }

    func encode<Encoder: ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
        try encoder.encode(artistId)
        try encoder.encode(name)
    }

    mutating func didInsert(rowID: Int64) { artistId = rowID }

    var primaryKey: Int64? { artistId }
}

struct Album: PrimaryKeyedTable, Hashable, Sendable {
    var albumId: Int64?
    var title: String
    var artistId: Int64

    static let schema = TableSchema(
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

    struct Columns: TableColumns {
        let albumId: Column<Album, Int64?>
        let title: Column<Album, String>
        let artistId: Column<Album, Int64>
        init(qualifier: String) {
            albumId = Column(qualifier, "AlbumId")
            title = Column(qualifier, "Title")
            artistId = Column(qualifier, "ArtistId")
        }
    }

    init(albumId: Int64? = nil, title: String, artistId: Int64) {
        self.albumId = albumId
        self.title = title
        self.artistId = artistId
    }

    init(row: borrowing Row) throws {
        albumId = try row.decode(at: 0)
        title = try row.decode(at: 1)
        artistId = try row.decode(at: 2)
    }

    func encode<Encoder: ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
        try encoder.encode(albumId)
        try encoder.encode(title)
        try encoder.encode(artistId)
    }

    mutating func didInsert(rowID: Int64) { albumId = rowID }

    var primaryKey: Int64? { albumId }
}

struct Genre: PrimaryKeyedTable, Hashable, Sendable {
    var genreId: Int64?
    var name: String?

    static let schema = TableSchema(
        name: "Genre",
        columns: [
            .init(name: "GenreId", type: "INTEGER", primaryKeyPosition: 1),
            .init(name: "Name", type: "NVARCHAR(120)"),
        ])

    struct Columns: TableColumns {
        let genreId: Column<Genre, Int64?>
        let name: Column<Genre, String?>
        init(qualifier: String) {
            genreId = Column(qualifier, "GenreId")
            name = Column(qualifier, "Name")
        }
    }

    init(row: borrowing Row) throws {
        genreId = try row.decode(at: 0)
        name = try row.decode(at: 1)
    }

    func encode<Encoder: ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
        try encoder.encode(genreId)
        try encoder.encode(name)
    }

    mutating func didInsert(rowID: Int64) { genreId = rowID }

    var primaryKey: Int64? { genreId }
}

struct MediaType: PrimaryKeyedTable, Hashable, Sendable {
    var mediaTypeId: Int64?
    var name: String?

    static let schema = TableSchema(
        name: "MediaType",
        columns: [
            .init(name: "MediaTypeId", type: "INTEGER", primaryKeyPosition: 1),
            .init(name: "Name", type: "NVARCHAR(120)"),
        ])

    struct Columns: TableColumns {
        let mediaTypeId: Column<MediaType, Int64?>
        let name: Column<MediaType, String?>
        init(qualifier: String) {
            mediaTypeId = Column(qualifier, "MediaTypeId")
            name = Column(qualifier, "Name")
        }
    }

    init(row: borrowing Row) throws {
        mediaTypeId = try row.decode(at: 0)
        name = try row.decode(at: 1)
    }

    func encode<Encoder: ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
        try encoder.encode(mediaTypeId)
        try encoder.encode(name)
    }

    mutating func didInsert(rowID: Int64) { mediaTypeId = rowID }

    var primaryKey: Int64? { mediaTypeId }
}

struct Track: PrimaryKeyedTable, Hashable, Sendable {
    var trackId: Int64?
    var name: String
    var albumId: Int64?
    var mediaTypeId: Int64
    var genreId: Int64?
    var composer: String?
    var milliseconds: Int64
    var bytes: Int64?
    var unitPrice: Double

    static let schema = TableSchema(
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

    struct Columns: TableColumns {
        let trackId: Column<Track, Int64?>
        let name: Column<Track, String>
        let albumId: Column<Track, Int64?>
        let mediaTypeId: Column<Track, Int64>
        let genreId: Column<Track, Int64?>
        let composer: Column<Track, String?>
        let milliseconds: Column<Track, Int64>
        let bytes: Column<Track, Int64?>
        let unitPrice: Column<Track, Double>
        init(qualifier: String) {
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

    init(row: borrowing Row) throws {
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

    func encode<Encoder: ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
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

    mutating func didInsert(rowID: Int64) { trackId = rowID }

    var primaryKey: Int64? { trackId }
}

struct Employee: PrimaryKeyedTable, Hashable, Sendable {
    var employeeId: Int64?
    var lastName: String
    var firstName: String
    var title: String?
    var reportsTo: Int64?
    var birthDate: Date?
    var hireDate: Date?
    var address: String?
    var city: String?
    var state: String?
    var country: String?
    var postalCode: String?
    var phone: String?
    var fax: String?
    var email: String?

    static let schema = TableSchema(
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

    struct Columns: TableColumns {
        let employeeId: Column<Employee, Int64?>
        let lastName: Column<Employee, String>
        let firstName: Column<Employee, String>
        let title: Column<Employee, String?>
        let reportsTo: Column<Employee, Int64?>
        let birthDate: Column<Employee, Date?>
        let hireDate: Column<Employee, Date?>
        let address: Column<Employee, String?>
        let city: Column<Employee, String?>
        let state: Column<Employee, String?>
        let country: Column<Employee, String?>
        let postalCode: Column<Employee, String?>
        let phone: Column<Employee, String?>
        let fax: Column<Employee, String?>
        let email: Column<Employee, String?>
        init(qualifier: String) {
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

    init(row: borrowing Row) throws {
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

    func encode<Encoder: ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
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

    mutating func didInsert(rowID: Int64) { employeeId = rowID }

    var primaryKey: Int64? { employeeId }
}

struct Customer: PrimaryKeyedTable, Hashable, Sendable {
    var customerId: Int64?
    var firstName: String
    var lastName: String
    var company: String?
    var address: String?
    var city: String?
    var state: String?
    var country: String?
    var postalCode: String?
    var phone: String?
    var fax: String?
    var email: String
    var supportRepId: Int64?

    static let schema = TableSchema(
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

    struct Columns: TableColumns {
        let customerId: Column<Customer, Int64?>
        let firstName: Column<Customer, String>
        let lastName: Column<Customer, String>
        let company: Column<Customer, String?>
        let address: Column<Customer, String?>
        let city: Column<Customer, String?>
        let state: Column<Customer, String?>
        let country: Column<Customer, String?>
        let postalCode: Column<Customer, String?>
        let phone: Column<Customer, String?>
        let fax: Column<Customer, String?>
        let email: Column<Customer, String>
        let supportRepId: Column<Customer, Int64?>
        init(qualifier: String) {
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

    init(row: borrowing Row) throws {
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

    func encode<Encoder: ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
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

    mutating func didInsert(rowID: Int64) { customerId = rowID }

    var primaryKey: Int64? { customerId }
}

struct Invoice: PrimaryKeyedTable, Hashable, Sendable {
    var invoiceId: Int64?
    var customerId: Int64
    var invoiceDate: Date
    var billingAddress: String?
    var billingCity: String?
    var billingState: String?
    var billingCountry: String?
    var billingPostalCode: String?
    var total: Double

    static let schema = TableSchema(
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

    struct Columns: TableColumns {
        let invoiceId: Column<Invoice, Int64?>
        let customerId: Column<Invoice, Int64>
        let invoiceDate: Column<Invoice, Date>
        let billingAddress: Column<Invoice, String?>
        let billingCity: Column<Invoice, String?>
        let billingState: Column<Invoice, String?>
        let billingCountry: Column<Invoice, String?>
        let billingPostalCode: Column<Invoice, String?>
        let total: Column<Invoice, Double>
        init(qualifier: String) {
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

    init(row: borrowing Row) throws {
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

    func encode<Encoder: ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
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

    mutating func didInsert(rowID: Int64) { invoiceId = rowID }

    var primaryKey: Int64? { invoiceId }
}

struct InvoiceLine: PrimaryKeyedTable, Hashable, Sendable {
    var invoiceLineId: Int64?
    var invoiceId: Int64
    var trackId: Int64
    var unitPrice: Double
    var quantity: Int64

    static let schema = TableSchema(
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

    struct Columns: TableColumns {
        let invoiceLineId: Column<InvoiceLine, Int64?>
        let invoiceId: Column<InvoiceLine, Int64>
        let trackId: Column<InvoiceLine, Int64>
        let unitPrice: Column<InvoiceLine, Double>
        let quantity: Column<InvoiceLine, Int64>
        init(qualifier: String) {
            invoiceLineId = Column(qualifier, "InvoiceLineId")
            invoiceId = Column(qualifier, "InvoiceId")
            trackId = Column(qualifier, "TrackId")
            unitPrice = Column(qualifier, "UnitPrice")
            quantity = Column(qualifier, "Quantity")
        }
    }

    init(row: borrowing Row) throws {
        invoiceLineId = try row.decode(at: 0)
        invoiceId = try row.decode(at: 1)
        trackId = try row.decode(at: 2)
        unitPrice = try row.decode(at: 3)
        quantity = try row.decode(at: 4)
    }

    func encode<Encoder: ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
        try encoder.encode(invoiceLineId)
        try encoder.encode(invoiceId)
        try encoder.encode(trackId)
        try encoder.encode(unitPrice)
        try encoder.encode(quantity)
    }

    mutating func didInsert(rowID: Int64) { invoiceLineId = rowID }

    var primaryKey: Int64? { invoiceLineId }
}

struct Playlist: PrimaryKeyedTable, Hashable, Sendable {
    var playlistId: Int64?
    var name: String?

    static let schema = TableSchema(
        name: "Playlist",
        columns: [
            .init(name: "PlaylistId", type: "INTEGER", primaryKeyPosition: 1),
            .init(name: "Name", type: "NVARCHAR(120)"),
        ])

    struct Columns: TableColumns {
        let playlistId: Column<Playlist, Int64?>
        let name: Column<Playlist, String?>
        init(qualifier: String) {
            playlistId = Column(qualifier, "PlaylistId")
            name = Column(qualifier, "Name")
        }
    }

    init(row: borrowing Row) throws {
        playlistId = try row.decode(at: 0)
        name = try row.decode(at: 1)
    }

    func encode<Encoder: ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
        try encoder.encode(playlistId)
        try encoder.encode(name)
    }

    mutating func didInsert(rowID: Int64) { playlistId = rowID }

    var primaryKey: Int64? { playlistId }
}

/// A composite primary key: the key is a tuple, and `primaryKeyArguments` lists its elements.
struct PlaylistTrack: PrimaryKeyedTable, Hashable, Sendable {
    var playlistId: Int64
    var trackId: Int64

    static let schema = TableSchema(
        name: "PlaylistTrack",
        columns: [
            .init(name: "PlaylistId", type: "INTEGER", isNotNull: true, primaryKeyPosition: 1),
            .init(name: "TrackId", type: "INTEGER", isNotNull: true, primaryKeyPosition: 2),
        ],
        foreignKeys: [
            .init(columns: ["PlaylistId"], referencedTable: "Playlist", referencedColumns: ["PlaylistId"]),
            .init(columns: ["TrackId"], referencedTable: "Track", referencedColumns: ["TrackId"]),
        ])

    struct Columns: TableColumns {
        let playlistId: Column<PlaylistTrack, Int64>
        let trackId: Column<PlaylistTrack, Int64>
        init(qualifier: String) {
            playlistId = Column(qualifier, "PlaylistId")
            trackId = Column(qualifier, "TrackId")
        }
    }

    init(playlistId: Int64, trackId: Int64) {
        self.playlistId = playlistId
        self.trackId = trackId
    }

    init(row: borrowing Row) throws {
        playlistId = try row.decode(at: 0)
        trackId = try row.decode(at: 1)
    }

    func encode<Encoder: ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
        try encoder.encode(playlistId)
        try encoder.encode(trackId)
    }

    var primaryKey: (Int64, Int64) { (playlistId, trackId) }

    static func encode<Encoder: ColumnEncoder>(primaryKey key: (Int64, Int64), to encoder: inout Encoder) throws(Encoder
        .Failure)
    {
        try encoder.encode(key.0)
        try encoder.encode(key.1)
    }
}

extension Database {
    /// The bundled Chinook database, read-only.
    static func chinook() throws -> Database {
        var configuration = Database.Configuration()
        configuration.isReadOnly = true
        return try Database(path: Fixtures.path("chinook.sqlite"), configuration: configuration)
    }
}

extension Database {
    /// A writable in-memory copy of the bundled Chinook database.
    static func chinookCopy() throws -> Database {
        let copy = try Database.memory()
        try Database.chinook().backup(to: copy)
        return copy
    }
}
