import Foundation

/// A hybrid logical clock value: milliseconds of wall-clock time in the high 48 bits, a counter in
/// the low 16 (Kulkarni et al., "Logical Physical Clocks", 2014).
///
/// A replica's clock never goes back, even if the wall clock does, and it moves past every clock it
/// receives: a write that saw another write always has a later clock. Concurrent writes are ordered
/// by their clocks, then by replica id, the same way on every replica.
public struct HybridLogicalClock: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The packed value: `milliseconds << 16 | counter`.
    public var rawValue: Int64

    public init(rawValue: Int64) { self.rawValue = rawValue }

    public init(milliseconds: Int64, counter: Int) {
        rawValue = milliseconds << 16 | Int64(counter & 0xFFFF)
    }

    public var milliseconds: Int64 { rawValue >> 16 }
    public var counter: Int { Int(rawValue & 0xFFFF) }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String { "\(milliseconds).\(counter)" }

    /// The clock of a new local event, after `last`, at wall-clock time `now` (milliseconds).
    public static func tick(after last: HybridLogicalClock, now: Int64) -> HybridLogicalClock {
        let wall = max(0, min(now, Int64.max >> 16))
        if wall > last.milliseconds { return HybridLogicalClock(milliseconds: wall, counter: 0) }
        if last.counter < 0xFFFF {
            return HybridLogicalClock(milliseconds: last.milliseconds, counter: last.counter + 1)
        }
        // At the very end of the clock's range (a clock received from a faulty replica), it stays
        // there rather than wrapping around: writes then order by replica id and sequence.
        guard last.milliseconds < Int64.max >> 16 else { return last }
        return HybridLogicalClock(milliseconds: last.milliseconds + 1, counter: 0)
    }
}

/// The order of writes for last-writer-wins: clock, then replica id, then the replica's sequence
/// number. Two different writes never compare equal.
public struct WriteStamp: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var clock: HybridLogicalClock
    public var replicaID: String
    public var sequence: Int64

    public init(clock: HybridLogicalClock, replicaID: String, sequence: Int64) {
        self.clock = clock
        self.replicaID = replicaID
        self.sequence = sequence
    }

    public static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.clock, lhs.replicaID, lhs.sequence) < (rhs.clock, rhs.replicaID, rhs.sequence)
    }

    public var description: String { "\(replicaID)#\(sequence)@\(clock)" }
}
