import Dispatch
import Foundation
import SchedulerKit

/// What `bench` does on Ctrl-C (SIGINT) or SIGTERM: stop the children it started, remove every half-written folder
/// it registered, say in one line what was lost, and exit with 128 + the signal's number. Nothing half-written is
/// left behind, and nothing is lost silently.
public enum Interruption {
    public struct Registration: Sendable, Hashable { let id: Int }

    private struct State {
        var folders: [Int: URL] = [:]
        var children: [Int: Process] = [:]
        var next = 0
        var status: @Sendable () -> String = { "nothing was written" }
        var sources: [any DispatchSourceSignal] = []
    }

    // Why sharing it is safe: `Process` is not Sendable, but the registry only stores processes and calls
    // `terminate()`, which Foundation allows from any thread; every access goes through the mutex. `Locked`, not
    // `Mutex`: ThreadSanitizer cannot see `Mutex`'s ordering on Linux and reported races here that were not there.
    private final class Registry: @unchecked Sendable {
        let state = Locked(State())
    }

    private static let registry = Registry()

    /// Installs the handlers (once); `status` says what an interruption now would lose, e.g. "after 37 of 1 730
    /// rounds; nothing was written, the run is discarded".
    public static func install(status: @escaping @Sendable () -> String) {
        registry.state.withLock { state in
            state.status = status
            guard state.sources.isEmpty else { return }
            for signalNumber in [SIGINT, SIGTERM] {
                signal(signalNumber, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
                source.setEventHandler { handle(signalNumber) }
                source.resume()
                state.sources.append(source)
            }
        }
    }

    /// Removes `folder` if the process is interrupted before ``forget(_:)``.
    public static func removeOnInterrupt(_ folder: URL) -> Registration {
        registry.state.withLock { state in
            state.next += 1
            state.folders[state.next] = folder
            return Registration(id: state.next)
        }
    }

    /// Terminates `child` if the process is interrupted before ``forget(_:)``.
    static func terminateOnInterrupt(_ child: Process) -> Registration {
        registry.state.withLock { state in
            state.next += 1
            state.children[state.next] = child
            return Registration(id: state.next)
        }
    }

    public static func forget(_ registration: Registration) {
        registry.state.withLock { state in
            state.folders[registration.id] = nil
            state.children[registration.id] = nil
        }
    }

    private static func handle(_ signalNumber: Int32) {
        let (folders, children, status) = registry.state.withLock { state in
            (Array(state.folders.values), Array(state.children.values), state.status)
        }
        for child in children where child.isRunning { child.terminate() }
        for folder in folders { try? FileManager.default.removeItem(at: folder) }
        let name = signalNumber == SIGINT ? "SIGINT" : "SIGTERM"
        FileHandle.standardError.write(Data("\nbench: interrupted (\(name)) \(status())\n".utf8))
        _exit(128 + signalNumber)
    }
}

/// A temporary folder of this process: removed by ``remove()``, or by `Interruption` if the process is stopped.
public struct ScratchFolder {
    public let url: URL
    private let registration: Interruption.Registration

    public init(_ purpose: String) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "bench-\(purpose)-\(getpid())-\(UInt32.random(in: 0 ... .max))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        registration = Interruption.removeOnInterrupt(url)
    }

    public func remove() {
        try? FileManager.default.removeItem(at: url)
        Interruption.forget(registration)
    }
}
