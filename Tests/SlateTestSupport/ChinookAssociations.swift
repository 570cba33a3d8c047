import Slate

// The associations of the Chinook tables, declared by hand as the documentation shows: a
// computed member of the origin's `Columns`, qualified as its columns are. (`slate generate` and
// `@Table` write the same from the foreign keys.)

extension Artist.Columns {
    /// The artist's albums (`Album.ArtistId`).
    package var albums: HasMany<Artist, Album> { .hasMany(artistId.qualifier) }
}

extension Album.Columns {
    /// The album's artist (`Album.ArtistId`).
    package var artist: BelongsTo<Album, Artist> { .belongsTo(albumId.qualifier) }
    /// The album's tracks (`Track.AlbumId`).
    package var tracks: HasMany<Album, Track> { .hasMany(albumId.qualifier) }
}

extension Genre.Columns {
    /// The genre's tracks.
    package var tracks: HasMany<Genre, Track> { .hasMany(genreId.qualifier) }
}

extension Track.Columns {
    /// The track's album, when it has one (`Track.AlbumId` is nullable).
    package var album: BelongsTo<Track, Album> { .belongsTo(trackId.qualifier) }
    /// The track's genre.
    package var genre: BelongsTo<Track, Genre> { .belongsTo(trackId.qualifier) }
    /// The playlists the track is on, through `PlaylistTrack`.
    package var playlists: HasMany<Track, Playlist> { .hasMany(trackId.qualifier, through: PlaylistTrack.self) }
    /// The invoice lines that sold the track.
    package var invoiceLines: HasMany<Track, InvoiceLine> { .hasMany(trackId.qualifier) }
}

extension Employee.Columns {
    /// The employee's manager (`Employee.ReportsTo`).
    package var manager: BelongsTo<Employee, Employee> { .belongsTo(employeeId.qualifier, foreignKey: ["ReportsTo"]) }
    /// The employees who report to this one (`Employee.ReportsTo`).
    package var reports: HasMany<Employee, Employee> { .hasMany(employeeId.qualifier, foreignKey: ["ReportsTo"]) }
    /// The customers this employee supports (`Customer.SupportRepId`).
    package var customers: HasMany<Employee, Customer> { .hasMany(employeeId.qualifier) }
}

extension Customer.Columns {
    /// The customer's support representative.
    package var supportRep: BelongsTo<Customer, Employee> { .belongsTo(customerId.qualifier) }
    /// The customer's invoices.
    package var invoices: HasMany<Customer, Invoice> { .hasMany(customerId.qualifier) }
}

extension Invoice.Columns {
    /// The invoice's customer.
    package var customer: BelongsTo<Invoice, Customer> { .belongsTo(invoiceId.qualifier) }
    /// The invoice's lines.
    package var lines: HasMany<Invoice, InvoiceLine> { .hasMany(invoiceId.qualifier) }
}

extension InvoiceLine.Columns {
    /// The line's invoice.
    package var invoice: BelongsTo<InvoiceLine, Invoice> { .belongsTo(invoiceLineId.qualifier) }
    /// The track the line sold.
    package var track: BelongsTo<InvoiceLine, Track> { .belongsTo(invoiceLineId.qualifier) }
}

extension Playlist.Columns {
    /// The playlist's tracks, through `PlaylistTrack`.
    package var tracks: HasMany<Playlist, Track> { .hasMany(playlistId.qualifier, through: PlaylistTrack.self) }
}

extension PlaylistTrack.Columns {
    /// The entry's playlist.
    package var playlist: BelongsTo<PlaylistTrack, Playlist> { .belongsTo(playlistId.qualifier) }
    /// The entry's track.
    package var track: BelongsTo<PlaylistTrack, Track> { .belongsTo(playlistId.qualifier) }
}
