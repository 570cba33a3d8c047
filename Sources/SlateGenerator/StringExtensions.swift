extension String {
    /// Whether two identifiers are equal as SQLite compares them (case-insensitively).
    func caseInsensitiveEquals(_ other: String) -> Bool {
        self.lowercased() == other.lowercased()
    }

    /// The string as a quoted SQL identifier: wrapped in double quotes, inner quotes doubled.
    var sqlQuoted: String {
        "\"" + replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
