// The read recorder room of the region tracker: while `Database.trackingRegion` runs, the trace
// callback (SQLITE_TRACE_STMT) reports each statement as it starts, and the statement's reads go
// into every region being recorded, narrowed to the rows the query builder's hint names.

/// The regions being recorded on a connection.
final class ReadRecorder {
    /// One region being recorded (`trackingRegion` calls may nest).
    final class Recording {
        var region = DatabaseRegion.empty
    }

    private(set) var recordings: [Recording] = []
    /// The rows the next run of a statement reads, by statement.
    private var rowIDHints: [OpaquePointer: RowIDHint] = [:]

    /// Whether a region is being recorded.
    var isRecording: Bool { !recordings.isEmpty }

    func begin() -> Recording {
        let recording = Recording()
        recordings.append(recording)
        return recording
    }

    func end(_ recording: Recording) {
        recordings.removeAll { $0 === recording }
        if recordings.isEmpty { rowIDHints.removeAll() }
    }

    /// Notes that the next run of `statement` reads only some rows of its table.
    func noteRowIDHint(_ hint: RowIDHint, for statement: OpaquePointer) {
        rowIDHints[statement] = hint
    }

    func forget(_ statement: OpaquePointer) {
        rowIDHints.removeValue(forKey: statement)
    }

    /// Adds the reads of a statement that starts, `nil` when they cannot be known (every region
    /// then depends on the whole database). `tableInfo` says which column is a table's rowid.
    func record(
        _ footprint: StatementFootprint?, of statement: OpaquePointer, tableInfo: (TableKey) -> TableInfo?
    ) {
        let hint = rowIDHints.removeValue(forKey: statement)
        guard let footprint else {
            for recording in recordings { recording.region = .fullDatabase }
            return
        }
        var reads = footprint.reads
        if let hint, footprint.selectCount == 1, reads.tables.count == 1, let key = reads.tables.keys.first,
            key.table == hint.table.asciiLowercased, let alias = tableInfo(key)?.rowIDAlias,
            alias == hint.column.asciiLowercased
        {
            reads.restrictRows(of: key, to: hint.rowIDs)
        }
        for recording in recordings { recording.region.formUnion(reads) }
    }

    /// Adds the reads of a statement SQLite recompiled after it started; `nil` when unknown.
    func recordRecompiled(_ footprint: StatementFootprint?) {
        for recording in recordings {
            if let footprint { recording.region.formUnion(footprint.reads) } else { recording.region = .fullDatabase }
        }
    }
}
