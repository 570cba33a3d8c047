import SlatePostgresTesting
import Testing

extension PostgresTestServer {
    /// Why the PostgreSQL suites do not run when no server can be started.
    static var skipComment: Comment { Comment(rawValue: unavailableReason) }
}
