import Foundation
import Slate
import SlateTestingCore

// Hand-written `Table` conformances for Chinook's sales tables: employees, customers, invoices and
// their lines, written in the pattern `ChinookTables.swift` describes.

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
