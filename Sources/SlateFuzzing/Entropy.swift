import Foundation

/// Where a fuzz case's choices come from: a seeded generator (the deterministic runs of
/// `slate-fuzz` and CI) or the bytes libFuzzer hands over (its coverage-guided runs). The case
/// generators are written once against this type, so both drivers explore the same domains.
public struct Entropy {
    private enum Source {
        case seeded(state: UInt64)
        case bytes([UInt8], offset: Int)
    }

    private var source: Source

    /// A deterministic stream: the same seed always makes the same cases.
    public init(seed: UInt64) {
        source = .seeded(state: seed)
    }

    /// A stream that reads `bytes`, then zeros once they run out (libFuzzer's inputs).
    public init(bytes: [UInt8]) {
        source = .bytes(bytes, offset: 0)
    }

    /// The seed of case `index` of a run started with `seed`: each case can be replayed alone
    /// (`slate-fuzz --seed S --case I`).
    public static func caseSeed(run seed: UInt64, case index: Int) -> UInt64 {
        var state = seed ^ (UInt64(truncatingIfNeeded: index) &* 0x9E37_79B9_7F4A_7C15)
        return splitMix(&state)
    }

    private static func splitMix(_ state: inout UInt64) -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// 64 random bits.
    public mutating func next() -> UInt64 {
        switch source {
        case .seeded(var state):
            let value = Self.splitMix(&state)
            source = .seeded(state: state)
            return value
        case .bytes(let bytes, let offset):
            var value: UInt64 = 0
            var taken = 0
            while taken < 8, offset + taken < bytes.count {
                value = value << 8 | UInt64(bytes[offset + taken])
                taken += 1
            }
            source = .bytes(bytes, offset: offset + taken)
            return value
        }
    }

    /// Whether a byte stream has run out (always `false` for a seeded stream).
    public var isExhausted: Bool {
        if case .bytes(let bytes, let offset) = source { return offset >= bytes.count }
        return false
    }

    /// A number in `range`, uniformly (up to a negligible bias).
    public mutating func int(_ range: ClosedRange<Int>) -> Int {
        let width = UInt64(bitPattern: Int64(range.upperBound) &- Int64(range.lowerBound))
        if width == .max { return Int(truncatingIfNeeded: next()) }
        return range.lowerBound &+ Int(truncatingIfNeeded: next() % (width &+ 1))
    }

    /// A number in `range`.
    public mutating func int(_ range: Range<Int>) -> Int {
        int(range.lowerBound...(range.upperBound - 1))
    }

    /// `true` with probability `probability`.
    public mutating func chance(_ probability: Double) -> Bool {
        Double(next() >> 11) / Double(1 << 53) < probability
    }

    /// A coin flip.
    public mutating func bool() -> Bool { next() & 1 == 1 }

    /// One of `choices`.
    public mutating func pick<Element>(_ choices: [Element]) -> Element {
        choices[int(0..<choices.count)]
    }

    /// A double in `0..<1`.
    public mutating func unit() -> Double {
        Double(next() >> 11) / Double(1 << 53)
    }

    /// `count` random bytes.
    public mutating func bytes(_ count: Int) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(count)
        while result.count < count {
            var word = next()
            for _ in 0..<min(8, count - result.count) {
                result.append(UInt8(truncatingIfNeeded: word))
                word >>= 8
            }
        }
        return result
    }

    /// A size, small most of the time: `0...16` usually, up to `maximum` sometimes.
    public mutating func size(upTo maximum: Int) -> Int {
        switch int(0...9) {
        case 0...6: return int(0...min(16, maximum))
        case 7, 8: return int(0...min(1024, maximum))
        default: return int(0...maximum)
        }
    }
}
