/// Converts the parts of a collection, naming the failing part in a ``DefaultsTypeMismatch``,
/// so an error says `at [2]["name"]` rather than only what was wrong.
enum Located {
    static func map<Elements: Sequence, Result>(
        _ elements: Elements, _ transform: (Elements.Element) throws -> Result
    ) throws -> [Result] {
        var results: [Result] = []
        results.reserveCapacity(elements.underestimatedCount)
        for (index, element) in elements.enumerated() {
            results.append(try Self.element(index) { try transform(element) })
        }
        return results
    }

    static func element<Result>(_ index: Int, _ transform: () throws -> Result) throws -> Result {
        try at("[\(index)]", transform)
    }

    static func entry<Result>(_ key: String, _ transform: () throws -> Result) throws -> Result {
        try at("[\(String(reflecting: key))]", transform)
    }

    private static func at<Result>(_ component: String, _ transform: () throws -> Result) throws -> Result {
        do {
            return try transform()
        } catch let mismatch as DefaultsTypeMismatch {
            throw mismatch.nested(in: component)
        }
    }
}
