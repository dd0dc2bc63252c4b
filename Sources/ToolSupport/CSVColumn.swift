/// One column of a CSV file the bench writes: its name, how a row writes it and, where the column maps to one field,
/// how a row reads it back, in one place. A file's columns are one list of these, so the header, each row's fields
/// and the reader cannot drift apart.
public struct CSVColumn<Row>: Sendable {
    public let name: String
    let write: @Sendable (Row) -> String
    let read: (@Sendable (inout Row, String) -> Void)?

    /// A column that only writes (a figure derived from others, read back through them).
    public init(_ name: String, write: @escaping @Sendable (Row) -> String) {
        self.name = name
        self.write = write
        read = nil
    }

    /// A text field.
    public static func text(_ name: String, _ field: any WritableKeyPath<Row, String> & Sendable) -> CSVColumn {
        CSVColumn(name, write: { $0[keyPath: field] }, read: { $0[keyPath: field] = $1 })
    }

    /// A whole number; unreadable text reads as 0.
    public static func integer(_ name: String, _ field: any WritableKeyPath<Row, Int> & Sendable) -> CSVColumn {
        CSVColumn(name, write: { String($0[keyPath: field]) }, read: { $0[keyPath: field] = Int($1) ?? 0 })
    }

    /// A figure, written as `Format.number` writes it; unreadable text reads as 0.
    public static func number(_ name: String, _ field: any WritableKeyPath<Row, Double> & Sendable) -> CSVColumn {
        CSVColumn(name, write: { Format.number($0[keyPath: field]) }, read: { $0[keyPath: field] = Double($1) ?? 0 })
    }

    /// `yes` or `no`.
    public static func flag(_ name: String, _ field: any WritableKeyPath<Row, Bool> & Sendable) -> CSVColumn {
        CSVColumn(name, write: { $0[keyPath: field] ? "yes" : "no" }, read: { $0[keyPath: field] = $1 == "yes" })
    }

    /// This column of a row that sits in a field of `Outer` (the metadata of a summary row), for writing.
    public func lifted<Outer>(_ field: any KeyPath<Outer, Row> & Sendable) -> CSVColumn<Outer> {
        let write = write
        return CSVColumn<Outer>(name) { write($0[keyPath: field]) }
    }

    private init(
        _ name: String, write: @escaping @Sendable (Row) -> String,
        read: @escaping @Sendable (inout Row, String) -> Void
    ) {
        self.name = name
        self.write = write
        self.read = read
    }
}

extension Array {
    /// The header: every column's name, in order.
    public func names<Row>() -> [String] where Element == CSVColumn<Row> { map(\.name) }

    /// One row's fields, in the columns' order.
    public func fields<Row>(of row: Row) -> [String] where Element == CSVColumn<Row> { map { $0.write(row) } }

    /// Reads the columns that map to one field each into `row`; a column a file lacks (an older run) reads as "".
    public func read<Row>(_ record: [String: String], into row: inout Row) where Element == CSVColumn<Row> {
        for column in self { column.read?(&row, record[column.name] ?? "") }
    }
}
