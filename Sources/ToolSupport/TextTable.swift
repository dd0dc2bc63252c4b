/// A plain-text table with aligned columns.
public struct TextTable: Sendable {
    private let header: [String]
    private var rows: [[String]] = []

    public init(_ header: [String]) { self.header = header }

    public mutating func add(_ row: [String]) { rows.append(row) }

    public func render() -> String {
        let all = [header] + rows
        let widths = header.indices.map { column in
            all.map { $0.indices.contains(column) ? $0[column].count : 0 }.max() ?? 0
        }
        func line(_ row: [String]) -> String {
            row.enumerated().map { column, field in
                let pad = String(repeating: " ", count: widths[column] - field.count)
                return column == 0 || Double(field.filter { $0 != "x" }) == nil ? field + pad : pad + field
            }.joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }
        let rule = widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")
        return ([line(header), rule] + rows.map(line)).joined(separator: "\n")
    }
}
