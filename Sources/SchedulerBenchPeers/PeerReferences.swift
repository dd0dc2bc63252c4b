import SchedulerBench
import SchedulerConformance

/// The peers' reference lanes, measured beside the runtime's (``Backend/references``) where their package traits are
/// enabled: SwiftNIO's `EventLoop.execute` (`raw-nio-execute`, trait `NIO`) and swift-clocks' `TestClock`
/// (`swift-clocks-testclock`, trait `SwiftClocks`). They live apart from the runtime, so that a package that benches
/// its own scheduler links none of those libraries; `bench` registers them (``Backend/register(_:)``) after the
/// catalog's backends, and lists them after the runtime's references.
public enum PeerReferences {
    public static var all: [Backend] {
        var all: [Backend] = []
        #if NIO
            all.append(rawNIOExecute)
        #endif
        #if SwiftClocks
            all.append(swiftClocksTestClock)
        #endif
        return all
    }
}

extension BackendID {
    /// `EventLoop.execute` on a fresh event loop group (trait `NIO`).
    public static let rawNIOExecute = BackendID(rawValue: "raw-nio-execute")
    /// swift-clocks' `TestClock` (trait `SwiftClocks`).
    public static let swiftClocksTestClock = BackendID(rawValue: "swift-clocks-testclock")
}
