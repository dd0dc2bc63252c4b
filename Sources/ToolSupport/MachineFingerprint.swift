import Foundation

/// What makes one machine's noise comparable with another's: a calibration (`bench calibrate`) holds for runs whose
/// fingerprint is the same. Host names are left out (CI machines of one kind share their noise, not their names);
/// the kernel's version is cut to major.minor.
public struct MachineFingerprint: Sendable, Equatable, CustomStringConvertible {
    public var cpuModel: String
    public var cores: Int
    public var memoryGiB: Int
    public var os: String

    public static var current: MachineFingerprint {
        MachineFingerprint(
            cpuModel: cpuModel(), cores: ProcessInfo.processInfo.activeProcessorCount,
            memoryGiB: Int((Double(ProcessInfo.processInfo.physicalMemory) / 1_073_741_824).rounded()),
            os: operatingSystem(kernelDepth: 2))
    }

    public var description: String { "\(cpuModel), \(cores) cores, \(memoryGiB) GiB, \(os)" }

    public static func cpuModel() -> String {
        guard let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return "unknown" }
        let line = text.split(separator: "\n").first { $0.hasPrefix("model name") }
        return line.flatMap { $0.split(separator: ":", maxSplits: 1).last }
            .map { $0.trimmingCharacters(in: .whitespaces) } ?? "unknown"
    }

    /// "Debian GNU/Linux 12 (bookworm); Linux 6.18.44-fc-v669", the kernel cut to `kernelDepth` numbers if given.
    public static func operatingSystem(kernelDepth: Int? = nil) -> String {
        let release =
            (try? String(contentsOfFile: "/etc/os-release", encoding: .utf8))?
            .split(separator: "\n").first { $0.hasPrefix("PRETTY_NAME=") }
            .map { $0.dropFirst("PRETTY_NAME=".count).trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
            ?? "Linux"
        var names = utsname()
        uname(&names)
        var kernel = withUnsafeBytes(of: &names.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        if let kernelDepth {
            kernel = kernel.split(whereSeparator: { !$0.isNumber }).prefix(kernelDepth).joined(separator: ".")
        }
        return "\(release); Linux \(kernel)"
    }
}
