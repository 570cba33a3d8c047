/// Observers registered on a connection. Filled in by the hook APIs.
struct HookRegistry {
    mutating func removeAll() {}
}

import CSQLite

extension Database {
    /// Sets how long SQLite retries on a locked database before reporting busy, in seconds.
    func setBusyTimeout(_ seconds: Double) {
        sqlite3_busy_timeout(handle, Int32(max(0, min(seconds * 1000, Double(Int32.max)))))
    }
}
