import Foundation

/// RFC 4180 CSV, the one reader and writer of every CSV file the kit and the bench write: fields with a comma, a quote,
/// a carriage return or a line feed are quoted and their quotes doubled; records end in CRLF.
public enum CSV {
    public struct ParseError: Error, CustomStringConvertible {
        public let description: String
    }

    public static func encode(_ rows: [[String]]) -> String {
        rows.map { $0.map(quote).joined(separator: ",") + "\r\n" }.joined()
    }

    /// A field as it stands in a record: quoted when it holds a comma, a quote, a carriage return or a line feed.
    static func quote(_ field: String) -> String {
        // "\r\n" is one Character in Swift, so it is listed beside "\r" and "\n".
        guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\r" || $0 == "\n" || $0 == "\r\n" }) else {
            return field
        }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// Parses CSV text (CRLF or LF line ends) into records of fields.
    public static func decode(_ text: String) throws -> [[String]] {
        var rows: [[String]] = []
        var row: [String] = []
        var field = ""
        var inQuotes = false
        var fieldWasQuoted = false
        var characters = text.unicodeScalars.makeIterator()
        var pending = characters.next()
        var line = 1
        func endField() {
            row.append(field)
            field = ""
            fieldWasQuoted = false
        }
        func endRow() {
            endField()
            rows.append(row)
            row = []
        }
        while let scalar = pending {
            pending = characters.next()
            if inQuotes {
                if scalar == "\"" {
                    if pending == "\"" {
                        field.unicodeScalars.append("\"")
                        pending = characters.next()
                    } else {
                        inQuotes = false
                    }
                } else {
                    if scalar == "\n" { line += 1 }
                    field.unicodeScalars.append(scalar)
                }
                continue
            }
            switch scalar {
            case "\"":
                guard field.isEmpty, !fieldWasQuoted else {
                    throw ParseError(description: "line \(line): a quote inside an unquoted field")
                }
                inQuotes = true
                fieldWasQuoted = true
            case ",":
                endField()
            case "\r":
                if pending == "\n" { pending = characters.next() }
                endRow()
                line += 1
            case "\n":
                endRow()
                line += 1
            default:
                guard !fieldWasQuoted else { throw ParseError(description: "line \(line): text after a closing quote") }
                field.unicodeScalars.append(scalar)
            }
        }
        if inQuotes { throw ParseError(description: "line \(line): a quoted field is never closed") }
        if !field.isEmpty || !row.isEmpty || fieldWasQuoted { endRow() }
        return rows
    }
}

/// A CSV file read into named columns.
public struct CSVTable: Sendable {
    public let header: [String]
    public let records: [CSVRecord]

    /// Reads `path`; every record must have as many fields as the header and the header must hold `required`.
    public init(contentsOf path: String, required: [String]) throws {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8)
        else {
            throw CSV.ParseError(description: "\(path): cannot be read (does it exist?)")
        }
        try self.init(text: text, source: path, required: required)
    }

    public init(text: String, source: String, required: [String]) throws {
        let rows: [[String]]
        do { rows = try CSV.decode(text) } catch { throw CSV.ParseError(description: "\(source): \(error)") }
        guard let header = rows.first else {
            throw CSV.ParseError(description: "\(source): empty file, expected a header")
        }
        let missing = required.filter { !header.contains($0) }
        guard missing.isEmpty else {
            throw CSV.ParseError(
                description: "\(source): not a bench CSV (missing column \(missing.joined(separator: ", ")))")
        }
        var records: [CSVRecord] = []
        for (index, row) in rows.dropFirst().enumerated() {
            guard row.count == header.count else {
                throw CSV.ParseError(
                    description:
                        "\(source): record \(index + 2) has \(row.count) fields, the header has \(header.count)")
            }
            records.append(
                CSVRecord(
                    fields: Dictionary(uniqueKeysWithValues: zip(header, row)), source: source,
                    row: index + 2))
        }
        self.header = header
        self.records = records
    }
}

/// One record of a ``CSVTable``, with what it needs to say where a bad field is.
public struct CSVRecord: Sendable {
    public let fields: [String: String]
    let source: String
    let row: Int

    public init(fields: [String: String], source: String = "", row: Int = 0) {
        self.fields = fields
        self.source = source
        self.row = row
    }

    public subscript(_ column: String) -> String? { fields[column] }

    public func error(_ what: String) -> CSV.ParseError {
        CSV.ParseError(description: "\(source.isEmpty ? "" : source + ": ")record \(row): \(what)")
    }

    public func text(_ column: String) throws -> String {
        guard let text = fields[column] else { throw error("no \(column) column") }
        return text
    }

    public func number(_ column: String) throws -> Double {
        guard let value = fields[column].flatMap(Double.init) else {
            throw error("\(column) is \"\(fields[column] ?? "")\", not a number")
        }
        return value
    }

    public func optionalNumber(_ column: String) -> Double? { fields[column].flatMap(Double.init) }
}
