/// Trace observers registered on a connection. Filled in by the tracing APIs.
struct TraceRegistry {
    mutating func removeAll() {}
}
