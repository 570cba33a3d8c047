import Foundation
import Slate

// Hand-written `Table` conformances for the Chinook sample database.
//
// They follow the documented pattern exactly, and are the reference for what `slate generate` and
// the `@Table` macro emit: a table name, one `ColumnDescriptor` per column in table order, a
// `Columns` struct of typed `Column`s, `init(row:)` decoding by position, `bindColumns` binding by
// position, `didInsert` for an INTEGER PRIMARY KEY, and the primary key.

struct Artist: PrimaryKeyedTable, Hashable, Sendable {
    var artistId: Int64?
    var name: String?

    static let tableName = "Artist"
    static let columnDescriptors: [ColumnDescriptor] = [
        .init(name: "ArtistId", sqlType: "INTEGER", isNullable: false, primaryKeyPosition: 1),
        .init(name: "Name", sqlType: "NVARCHAR(120)"),
    ]

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

    func bindColumns(to statement: Statement, startingAt index: Int) throws {
        try artistId.bind(to: statement, at: index)
        try name.bind(to: statement, at: index + 1)
    }

    mutating func didInsert(rowID: Int64) { artistId = rowID }

    var primaryKey: Int64? { artistId }
}

struct Album: PrimaryKeyedTable, Hashable, Sendable {
    var albumId: Int64?
    var title: String
    var artistId: Int64

    static let tableName = "Album"
    static let columnDescriptors: [ColumnDescriptor] = [
        .init(name: "AlbumId", sqlType: "INTEGER", isNullable: false, primaryKeyPosition: 1),
        .init(name: "Title", sqlType: "NVARCHAR(160)", isNullable: false),
        .init(name: "ArtistId", sqlType: "INTEGER", isNullable: false, references: .init(table: "Artist", column: "ArtistId")),
    ]
    static let indexes: [IndexDescriptor] = [.init(name: "IFK_AlbumArtistId", columns: ["ArtistId"])]

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

    func bindColumns(to statement: Statement, startingAt index: Int) throws {
        try albumId.bind(to: statement, at: index)
        try title.bind(to: statement, at: index + 1)
        try artistId.bind(to: statement, at: index + 2)
    }

    mutating func didInsert(rowID: Int64) { albumId = rowID }

    var primaryKey: Int64? { albumId }
}

struct Genre: PrimaryKeyedTable, Hashable, Sendable {
    var genreId: Int64?
    var name: String?

    static let tableName = "Genre"
    static let columnDescriptors: [ColumnDescriptor] = [
        .init(name: "GenreId", sqlType: "INTEGER", isNullable: false, primaryKeyPosition: 1),
        .init(name: "Name", sqlType: "NVARCHAR(120)"),
    ]

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

    func bindColumns(to statement: Statement, startingAt index: Int) throws {
        try genreId.bind(to: statement, at: index)
        try name.bind(to: statement, at: index + 1)
    }

    mutating func didInsert(rowID: Int64) { genreId = rowID }

    var primaryKey: Int64? { genreId }
}

struct MediaType: PrimaryKeyedTable, Hashable, Sendable {
    var mediaTypeId: Int64?
    var name: String?

    static let tableName = "MediaType"
    static let columnDescriptors: [ColumnDescriptor] = [
        .init(name: "MediaTypeId", sqlType: "INTEGER", isNullable: false, primaryKeyPosition: 1),
        .init(name: "Name", sqlType: "NVARCHAR(120)"),
    ]

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

    func bindColumns(to statement: Statement, startingAt index: Int) throws {
        try mediaTypeId.bind(to: statement, at: index)
        try name.bind(to: statement, at: index + 1)
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

    static let tableName = "Track"
    static let columnDescriptors: [ColumnDescriptor] = [
        .init(name: "TrackId", sqlType: "INTEGER", isNullable: false, primaryKeyPosition: 1),
        .init(name: "Name", sqlType: "NVARCHAR(200)", isNullable: false),
        .init(name: "AlbumId", sqlType: "INTEGER", references: .init(table: "Album", column: "AlbumId")),
        .init(name: "MediaTypeId", sqlType: "INTEGER", isNullable: false, references: .init(table: "MediaType", column: "MediaTypeId")),
        .init(name: "GenreId", sqlType: "INTEGER", references: .init(table: "Genre", column: "GenreId")),
        .init(name: "Composer", sqlType: "NVARCHAR(220)"),
        .init(name: "Milliseconds", sqlType: "INTEGER", isNullable: false),
        .init(name: "Bytes", sqlType: "INTEGER"),
        .init(name: "UnitPrice", sqlType: "NUMERIC(10,2)", isNullable: false),
    ]

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

    func bindColumns(to statement: Statement, startingAt index: Int) throws {
        try trackId.bind(to: statement, at: index)
        try name.bind(to: statement, at: index + 1)
        try albumId.bind(to: statement, at: index + 2)
        try mediaTypeId.bind(to: statement, at: index + 3)
        try genreId.bind(to: statement, at: index + 4)
        try composer.bind(to: statement, at: index + 5)
        try milliseconds.bind(to: statement, at: index + 6)
        try bytes.bind(to: statement, at: index + 7)
        try unitPrice.bind(to: statement, at: index + 8)
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

    static let tableName = "Employee"
    static let columnDescriptors: [ColumnDescriptor] = [
        .init(name: "EmployeeId", sqlType: "INTEGER", isNullable: false, primaryKeyPosition: 1),
        .init(name: "LastName", sqlType: "NVARCHAR(20)", isNullable: false),
        .init(name: "FirstName", sqlType: "NVARCHAR(20)", isNullable: false),
        .init(name: "Title", sqlType: "NVARCHAR(30)"),
        .init(name: "ReportsTo", sqlType: "INTEGER", references: .init(table: "Employee", column: "EmployeeId")),
        .init(name: "BirthDate", sqlType: "DATETIME"),
        .init(name: "HireDate", sqlType: "DATETIME"),
        .init(name: "Address", sqlType: "NVARCHAR(70)"),
        .init(name: "City", sqlType: "NVARCHAR(40)"),
        .init(name: "State", sqlType: "NVARCHAR(40)"),
        .init(name: "Country", sqlType: "NVARCHAR(40)"),
        .init(name: "PostalCode", sqlType: "NVARCHAR(10)"),
        .init(name: "Phone", sqlType: "NVARCHAR(24)"),
        .init(name: "Fax", sqlType: "NVARCHAR(24)"),
        .init(name: "Email", sqlType: "NVARCHAR(60)"),
    ]

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

    func bindColumns(to statement: Statement, startingAt index: Int) throws {
        try employeeId.bind(to: statement, at: index)
        try lastName.bind(to: statement, at: index + 1)
        try firstName.bind(to: statement, at: index + 2)
        try title.bind(to: statement, at: index + 3)
        try reportsTo.bind(to: statement, at: index + 4)
        try birthDate.bind(to: statement, at: index + 5)
        try hireDate.bind(to: statement, at: index + 6)
        try address.bind(to: statement, at: index + 7)
        try city.bind(to: statement, at: index + 8)
        try state.bind(to: statement, at: index + 9)
        try country.bind(to: statement, at: index + 10)
        try postalCode.bind(to: statement, at: index + 11)
        try phone.bind(to: statement, at: index + 12)
        try fax.bind(to: statement, at: index + 13)
        try email.bind(to: statement, at: index + 14)
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

    static let tableName = "Customer"
    static let columnDescriptors: [ColumnDescriptor] = [
        .init(name: "CustomerId", sqlType: "INTEGER", isNullable: false, primaryKeyPosition: 1),
        .init(name: "FirstName", sqlType: "NVARCHAR(40)", isNullable: false),
        .init(name: "LastName", sqlType: "NVARCHAR(20)", isNullable: false),
        .init(name: "Company", sqlType: "NVARCHAR(80)"),
        .init(name: "Address", sqlType: "NVARCHAR(70)"),
        .init(name: "City", sqlType: "NVARCHAR(40)"),
        .init(name: "State", sqlType: "NVARCHAR(40)"),
        .init(name: "Country", sqlType: "NVARCHAR(40)"),
        .init(name: "PostalCode", sqlType: "NVARCHAR(10)"),
        .init(name: "Phone", sqlType: "NVARCHAR(24)"),
        .init(name: "Fax", sqlType: "NVARCHAR(24)"),
        .init(name: "Email", sqlType: "NVARCHAR(60)", isNullable: false),
        .init(name: "SupportRepId", sqlType: "INTEGER", references: .init(table: "Employee", column: "EmployeeId")),
    ]

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

    func bindColumns(to statement: Statement, startingAt index: Int) throws {
        try customerId.bind(to: statement, at: index)
        try firstName.bind(to: statement, at: index + 1)
        try lastName.bind(to: statement, at: index + 2)
        try company.bind(to: statement, at: index + 3)
        try address.bind(to: statement, at: index + 4)
        try city.bind(to: statement, at: index + 5)
        try state.bind(to: statement, at: index + 6)
        try country.bind(to: statement, at: index + 7)
        try postalCode.bind(to: statement, at: index + 8)
        try phone.bind(to: statement, at: index + 9)
        try fax.bind(to: statement, at: index + 10)
        try email.bind(to: statement, at: index + 11)
        try supportRepId.bind(to: statement, at: index + 12)
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

    static let tableName = "Invoice"
    static let columnDescriptors: [ColumnDescriptor] = [
        .init(name: "InvoiceId", sqlType: "INTEGER", isNullable: false, primaryKeyPosition: 1),
        .init(name: "CustomerId", sqlType: "INTEGER", isNullable: false, references: .init(table: "Customer", column: "CustomerId")),
        .init(name: "InvoiceDate", sqlType: "DATETIME", isNullable: false),
        .init(name: "BillingAddress", sqlType: "NVARCHAR(70)"),
        .init(name: "BillingCity", sqlType: "NVARCHAR(40)"),
        .init(name: "BillingState", sqlType: "NVARCHAR(40)"),
        .init(name: "BillingCountry", sqlType: "NVARCHAR(40)"),
        .init(name: "BillingPostalCode", sqlType: "NVARCHAR(10)"),
        .init(name: "Total", sqlType: "NUMERIC(10,2)", isNullable: false),
    ]

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

    func bindColumns(to statement: Statement, startingAt index: Int) throws {
        try invoiceId.bind(to: statement, at: index)
        try customerId.bind(to: statement, at: index + 1)
        try invoiceDate.bind(to: statement, at: index + 2)
        try billingAddress.bind(to: statement, at: index + 3)
        try billingCity.bind(to: statement, at: index + 4)
        try billingState.bind(to: statement, at: index + 5)
        try billingCountry.bind(to: statement, at: index + 6)
        try billingPostalCode.bind(to: statement, at: index + 7)
        try total.bind(to: statement, at: index + 8)
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

    static let tableName = "InvoiceLine"
    static let columnDescriptors: [ColumnDescriptor] = [
        .init(name: "InvoiceLineId", sqlType: "INTEGER", isNullable: false, primaryKeyPosition: 1),
        .init(name: "InvoiceId", sqlType: "INTEGER", isNullable: false, references: .init(table: "Invoice", column: "InvoiceId")),
        .init(name: "TrackId", sqlType: "INTEGER", isNullable: false, references: .init(table: "Track", column: "TrackId")),
        .init(name: "UnitPrice", sqlType: "NUMERIC(10,2)", isNullable: false),
        .init(name: "Quantity", sqlType: "INTEGER", isNullable: false),
    ]

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

    func bindColumns(to statement: Statement, startingAt index: Int) throws {
        try invoiceLineId.bind(to: statement, at: index)
        try invoiceId.bind(to: statement, at: index + 1)
        try trackId.bind(to: statement, at: index + 2)
        try unitPrice.bind(to: statement, at: index + 3)
        try quantity.bind(to: statement, at: index + 4)
    }

    mutating func didInsert(rowID: Int64) { invoiceLineId = rowID }

    var primaryKey: Int64? { invoiceLineId }
}

struct Playlist: PrimaryKeyedTable, Hashable, Sendable {
    var playlistId: Int64?
    var name: String?

    static let tableName = "Playlist"
    static let columnDescriptors: [ColumnDescriptor] = [
        .init(name: "PlaylistId", sqlType: "INTEGER", isNullable: false, primaryKeyPosition: 1),
        .init(name: "Name", sqlType: "NVARCHAR(120)"),
    ]

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

    func bindColumns(to statement: Statement, startingAt index: Int) throws {
        try playlistId.bind(to: statement, at: index)
        try name.bind(to: statement, at: index + 1)
    }

    mutating func didInsert(rowID: Int64) { playlistId = rowID }

    var primaryKey: Int64? { playlistId }
}

/// A composite primary key: the key is a tuple, and `primaryKeyArguments` lists its elements.
struct PlaylistTrack: PrimaryKeyedTable, Hashable, Sendable {
    var playlistId: Int64
    var trackId: Int64

    static let tableName = "PlaylistTrack"
    static let columnDescriptors: [ColumnDescriptor] = [
        .init(name: "PlaylistId", sqlType: "INTEGER", isNullable: false, primaryKeyPosition: 1,
              references: .init(table: "Playlist", column: "PlaylistId")),
        .init(name: "TrackId", sqlType: "INTEGER", isNullable: false, primaryKeyPosition: 2,
              references: .init(table: "Track", column: "TrackId")),
    ]

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

    func bindColumns(to statement: Statement, startingAt index: Int) throws {
        try playlistId.bind(to: statement, at: index)
        try trackId.bind(to: statement, at: index + 1)
    }

    var primaryKey: (Int64, Int64) { (playlistId, trackId) }

    static func primaryKeyArguments(_ key: (Int64, Int64)) -> [(any SQLBindable)?] { [key.0, key.1] }
}

extension Database {
    /// The bundled Chinook database, read-only.
    static func chinook() throws -> Database {
        var configuration = Database.Configuration()
        configuration.isReadOnly = true
        return try Database(path: Fixtures.path("chinook.sqlite"), configuration: configuration)
    }
}
