import CSQLite
import Foundation

/// Combines changesets, or patchsets, into one (`sqlite3changegroup`).
///
/// Changes to the same row merge as if they had been recorded by one session: an insert then an
/// update becomes the insert of the updated row, an insert then a delete disappears, an update then
/// another update becomes one update from the first old values to the last new ones.
///
/// ```swift
/// let group = try ChangesetGroup()
/// try group.add(monday)
/// try group.add(tuesday)
/// let week: Changeset = try group.output(Changeset.self)
/// ```
///
/// All inputs of one group must have the same format: changesets, or patchsets.
public final class ChangesetGroup {
    private var group: OpaquePointer?
    private var isPatchset: Bool?

    /// Creates an empty group.
    public init() throws {
        try SessionExtension.requireAvailable()
        var group: OpaquePointer?
        let code = sqlite3changegroup_new(&group)
        guard code == SQLITE_OK, let group else {
            throw SessionExtension.error(code == SQLITE_OK ? SQLITE_NOMEM : code, "creating a changeset group")
        }
        self.group = group
    }

    deinit {
        if let group { sqlite3changegroup_delete(group) }
    }

    /// Adds the changes of `changes`.
    ///
    /// - Throws: ``ResultCode/corrupt`` when the bytes are malformed or truncated;
    ///   ``ResultCode/schema`` when a table appears with other columns or another primary key than
    ///   in what was added before; ``ResultCode/misuse`` when `changes` has the other format than
    ///   what was added before. After an error, the group holds what was added before `changes`
    ///   and some of `changes`: create a new group.
    public func add<Changes: RecordedChanges>(_ changes: Changes) throws {
        try checkFormat(patchset: Changes.isPatchset)
        guard !changes.data.isEmpty else { return }
        try ChangesetScanner.validate(changes.data) { header in
            if header.isPatchset != Changes.isPatchset { throw Self.formatMismatch() }
        }
        let size = try SessionExtension.cSize(of: changes.data)
        let code = changes.data.withUnsafeBytes { bytes in
            sqlite3changegroup_add(group, size, UnsafeMutableRawPointer(mutating: bytes.baseAddress))
        }
        try SessionExtension.check(code, "adding to a changeset group")
    }

    /// Adds the changeset or patchset `input` produces, read in pieces.
    ///
    /// - Throws: As ``add(_:)``, and what the input throws.
    public func add(from input: ChangesetInput, patchset: Bool) throws {
        try checkFormat(patchset: patchset)
        let stream = ChangesetStreamContext(
            input: input.validated { header in
                if header.isPatchset != patchset { throw Self.formatMismatch() }
            })
        let code = withExtendedLifetime(stream) {
            sqlite3changegroup_add_strm(group, ChangesetStreamContext.readCallback, stream.pointer)
        }
        try stream.check(code, "adding a stream to a changeset group")
    }

    /// The combined changes, as a value of the format added.
    ///
    /// - Throws: ``ResultCode/misuse`` when `type` is not the format of what was added.
    public func output<Changes: RecordedChanges>(_ type: Changes.Type) throws -> Changes {
        if let isPatchset, isPatchset != Changes.isPatchset { throw Self.formatMismatch() }
        var size: Int32 = 0
        var bytes: UnsafeMutableRawPointer?
        let code = sqlite3changegroup_output(group, &size, &bytes)
        defer { sqlite3_free(bytes) }
        try SessionExtension.check(code, "combining changesets")
        let data = SessionExtension.data(bytes, count: size)
        // Each table's header says its format ('T' or 'P'): what was streamed in decides, whatever
        // `add(from:patchset:)` was told.
        if let first = data.first, first != (Changes.isPatchset ? UInt8(ascii: "P") : UInt8(ascii: "T")) {
            throw Self.formatMismatch()
        }
        return Changes(data: data)
    }

    /// Writes the combined changes to `output`, in pieces.
    public func write(to output: ChangesetOutput) throws {
        let stream = ChangesetStreamContext(output: output)
        let code = withExtendedLifetime(stream) {
            sqlite3changegroup_output_strm(group, ChangesetStreamContext.writeCallback, stream.pointer)
        }
        try stream.check(code, "writing a changeset group")
    }

    private func checkFormat(patchset: Bool) throws {
        if let isPatchset, isPatchset != patchset { throw Self.formatMismatch() }
        isPatchset = patchset
    }

    private static func formatMismatch() -> DatabaseError {
        DatabaseError(
            resultCode: .misuse, message: "a changeset group combines changesets or patchsets, not both")
    }
}
