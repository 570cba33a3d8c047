import Foundation

/// A transport that calls a ``SyncServer`` in the same process: for tests, and for apps that sync
/// two databases they both open.
public struct InMemorySyncTransport: SyncTransport {
    public let server: SyncServer

    public init(server: SyncServer) {
        self.server = server
    }

    public func push(_ request: SyncPushRequest) async throws -> SyncPushResponse {
        try await server.push(request)
    }

    public func pull(_ request: SyncPullRequest) async throws -> SyncPullResponse {
        try await server.pull(request)
    }
}

/// A transport that misbehaves like a network, on top of another one, for tests: it loses requests
/// (the server never sees them), loses answers (the server acted, the replica does not know),
/// sends requests twice, and drops entries from the answers of pulls. Its choices come from a
/// seeded generator, so a run can be repeated.
public final class FaultyTransport<Base: SyncTransport>: SyncTransport, @unchecked Sendable {
    // @unchecked Sendable: `state` is only touched while `lock` is held; `base` is Sendable.
    public struct Faults: Sendable {
        /// The probability that a request never reaches the server.
        public var lostRequests = 0.1
        /// The probability that the server's answer never reaches the replica.
        public var lostAnswers = 0.1
        /// The probability that a request reaches the server twice.
        public var repeatedRequests = 0.1
        /// The probability that each entry of a pull's answer is lost.
        public var lostEntries = 0.05

        public init() {}
    }

    /// The error a lost message throws.
    public struct LostMessage: Error, Sendable {}

    public let base: Base
    public let faults: Faults
    private let lock = NSLock()
    private var state: UInt64

    public init(_ base: Base, faults: Faults = Faults(), seed: UInt64) {
        self.base = base
        self.faults = faults
        self.state = seed
    }

    private func chance(_ probability: Double) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return Double(z >> 11) / Double(1 << 53) < probability
    }

    public func push(_ request: SyncPushRequest) async throws -> SyncPushResponse {
        if chance(faults.lostRequests) { throw LostMessage() }
        var response = try await base.push(request)
        if chance(faults.repeatedRequests) { response = try await base.push(request) }
        if chance(faults.lostAnswers) { throw LostMessage() }
        return response
    }

    public func pull(_ request: SyncPullRequest) async throws -> SyncPullResponse {
        if chance(faults.lostRequests) { throw LostMessage() }
        var response = try await base.pull(request)
        if chance(faults.repeatedRequests) { response = try await base.pull(request) }
        if chance(faults.lostAnswers) { throw LostMessage() }
        response.entries = response.entries.filter { _ in !chance(faults.lostEntries) }
        if chance(faults.repeatedRequests) { response.entries += response.entries.prefix(3) }
        return response
    }
}
