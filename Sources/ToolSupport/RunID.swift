import Foundation

/// Run ids: the UTC start time (so folders sort by age), the commit, and a random suffix, so that two runs started
/// in the same second on the same commit do not share a folder. Six hex digits, not four: among 25 runs started at
/// once (a unit test does that), 16 random bits collide once in about 200 tries, 24 bits once in about 50 000; a
/// collision still never overwrites (the second run is refused whole, `RunStore`).
public enum RunID {
    public static func make(date: Date = Date(), commit: String) -> String {
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.locale = Locale(identifier: "en_US_POSIX")
        let suffix = String(UInt32.random(in: 0..<(1 << 24)), radix: 16)
        return
            "\(formatter.string(from: date))-\(commit.prefix(7))-\(String(repeating: "0", count: 6 - suffix.count))\(suffix)"
    }
}
