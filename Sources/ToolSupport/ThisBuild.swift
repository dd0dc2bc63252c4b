import CBenchSystem

/// What is known of this bench when it was compiled: a portable bench (`scripts/portable.sh`) runs where there is no
/// toolchain and no repository, and a `swift` or `git` on the machine need not be what built it.
public enum ThisBuild {
    /// The compiler's major and minor version, from its own version checks: `6.3`.
    public static let swiftVersion: String = {
        #if compiler(>=6.6)
            "6.6 or later"
        #elseif compiler(>=6.5)
            "6.5"
        #elseif compiler(>=6.4)
            "6.4"
        #elseif compiler(>=6.3)
            "6.3"
        #elseif compiler(>=6.2)
            "6.2"
        #elseif compiler(>=6.1)
            "6.1"
        #else
            "6.0"
        #endif
    }()

    /// How a run names it in its `swift_version` column.
    public static var swiftDescription: String { "Swift \(swiftVersion) (the compiler that built bench)" }

    /// A portable bench's commit, built in by `scripts/portable.sh` (with `-dirty` for a tree with changes); nil for a
    /// `swift build`, whose run reads the commit from `git` in the repository it runs in.
    public static let portableCommit: String? = cbench_portable_commit().map { String(cString: $0) }

    /// Built by `scripts/portable.sh`: the Swift libraries linked in. Such a build runs fewer instructions per call
    /// into them (no PLT stubs: 2–5 % fewer per task on Dispatch, NIO and OperationQueue), so `bench check` holds it
    /// to thresholds of its own.
    public static var isPortable: Bool { portableCommit != nil }
}
