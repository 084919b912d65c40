import Foundation

#if canImport(CoreGraphics)
    import CoreGraphics
#endif

// Geometry as other code stores it: the JSON of its `Codable` conformance (`"[600,900]"`, as a
// string from Defaults, as `Data` from Foil and SwiftyUserDefaults), the text of
// `NSStringFromCGSize` (`"{600, 900}"`), and CoreGraphics' dictionary representation
// (`{Width = 600; Height = 900}`), which plain `UserDefaults` code stores on Apple platforms.

extension CGPoint: ReadsOtherLibrariesForms {
    static func readingOtherForm(_ object: Any) -> CGPoint? {
        if let point = OtherLibrariesForms.json(object, as: CGPoint.self) { return point }
        if let numbers = GeometryText.numbers(object, shape: [2]) { return CGPoint(x: numbers[0], y: numbers[1]) }
        guard let fields = GeometryText.fields(object, ["X", "Y"]) else { return nil }
        return CGPoint(x: fields[0], y: fields[1])
    }
}

extension CGSize: ReadsOtherLibrariesForms {
    static func readingOtherForm(_ object: Any) -> CGSize? {
        if let size = OtherLibrariesForms.json(object, as: CGSize.self) { return size }
        if let numbers = GeometryText.numbers(object, shape: [2]) {
            return CGSize(width: numbers[0], height: numbers[1])
        }
        guard let fields = GeometryText.fields(object, ["Width", "Height"]) else { return nil }
        return CGSize(width: fields[0], height: fields[1])
    }
}

extension CGRect: ReadsOtherLibrariesForms {
    static func readingOtherForm(_ object: Any) -> CGRect? {
        if let rect = OtherLibrariesForms.json(object, as: CGRect.self) { return rect }
        if let numbers = GeometryText.numbers(object, shape: [2, 2]) {
            return CGRect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
        }
        guard let fields = GeometryText.fields(object, ["X", "Y", "Width", "Height"]) else { return nil }
        return CGRect(x: fields[0], y: fields[1], width: fields[2], height: fields[3])
    }
}

/// The text `NSStringFromCGPoint`, `NSStringFromCGSize` and `NSStringFromCGRect` write, and the
/// dictionaries of CoreGraphics' `dictionaryRepresentation`.
enum GeometryText {
    /// The numbers of `"{1, 2}"` (shape `[2]`) or `"{{1, 2}, {3, 4}}"` (shape `[2, 2]`), in order;
    /// `nil` for any other text.
    static func numbers(_ object: Any, shape: [Int]) -> [CGFloat]? {
        guard let text = object as? String else { return nil }
        var rest = Substring(text)
        func skipSpaces() { rest = rest.drop { $0 == " " } }
        func expect(_ character: Character) -> Bool {
            skipSpaces()
            guard rest.first == character else { return false }
            rest = rest.dropFirst()
            return true
        }
        func group(of count: Int) -> [CGFloat]? {
            guard expect("{") else { return nil }
            var numbers: [CGFloat] = []
            for index in 0..<count {
                if index > 0, !expect(",") { return nil }
                skipSpaces()
                let digits = rest.prefix { "+-.eE0123456789".contains($0) }
                guard let number = Double(digits), number.isFinite else { return nil }
                numbers.append(CGFloat(number))
                rest = rest.dropFirst(digits.count)
            }
            return expect("}") ? numbers : nil
        }
        let numbers: [CGFloat]?
        if shape == [2] {
            numbers = group(of: 2)
        } else {
            guard expect("{"), let origin = group(of: 2), expect(","), let size = group(of: 2), expect("}") else {
                return nil
            }
            numbers = origin + size
        }
        skipSpaces()
        return rest.isEmpty ? numbers : nil
    }

    /// The named numbers of a dictionary with exactly those keys (`X`, `Y`, `Width`, `Height`),
    /// each read as a stored `CGFloat` is.
    static func fields(_ object: Any, _ names: [String]) -> [CGFloat]? {
        guard let entries = try? [String: CGFloat](storedObject: object), entries.count == names.count else {
            return nil
        }
        let numbers = names.compactMap { entries[$0] }
        return numbers.count == names.count ? numbers : nil
    }
}
