import SchedulerBench
import ToolSupport

extension CSV {
    /// CSV texts with one header each, concatenated (the header once); the headers must agree.
    static func concatenate(_ texts: [String]) throws -> String {
        var header: [String]?
        var rows: [[String]] = []
        for text in texts {
            let decoded = try decode(text)
            guard let first = decoded.first else { continue }
            if header == nil { header = first }
            guard header == first else {
                throw BenchError.failed("allocator passes wrote different CSV headers; rebuild and run again")
            }
            rows += decoded.dropFirst()
        }
        return encode((header.map { [$0] } ?? []) + rows)
    }
}
