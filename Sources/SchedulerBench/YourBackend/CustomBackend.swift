import SchedulerConformance
import SchedulerKit

// A backend of your own is the kit's description of it, `Backend.subject(_:)`: declared once, judged by the kit and
// measured by the bench (Docs/WritingAScheduler.md, "Bench it beside the built-in backends").
extension Backend {
    /// The backends a program measures beside the references, made known to every lookup by id (a run request, a
    /// child process of the same program). A program registers its own at start-up, before it runs anything.
    private static let registered = Locked<[Backend]>([])

    /// Makes `backends` known by their ids, after those registered before (an id registered before keeps its first
    /// registration). Refused, with a line that says why: an id a reference uses, and a virtual-time backend whose
    /// scheduler the bench cannot drive (not a `VirtualTimeDriver`): nothing would run its work, and a run would wait
    /// for ever.
    public static func register(_ backends: [Backend]) throws {
        if let clash = backends.first(where: { backend in references.contains { $0.id == backend.id } }) {
            throw BenchError.setting(
                "backend id '\(clash.id)' is a reference lane's (see Backend.references); give yours another id")
        }
        for backend in backends where backend.capabilities.contains(.virtualTime) {
            let lanes = backend.instance()
            defer { lanes.shutdown() }
            guard let scheduler = lanes.lane("driver-check").scheduler, !(scheduler is any VirtualTimeDriver) else {
                continue
            }
            throw BenchError.setting(
                "backend '\(backend.id)' claims virtual time but \(type(of: scheduler)) is not a VirtualTimeDriver; "
                    + "conform it, so that the bench can run its work")
        }
        registered.withLock { registered in
            for backend in backends where !registered.contains(where: { $0.id == backend.id }) {
                registered.append(backend)
            }
        }
    }

    /// Every backend a run can name, in table order: the registered ones, then the references (the runtime's, then
    /// those registered, such as the peers' the tool adds).
    public static var known: [Backend] {
        let registered = registered.withLock { $0 }
        return registered.filter { !$0.isReference } + references + registered.filter(\.isReference)
    }
}
