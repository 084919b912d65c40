import Foundation
import TypedDefaults
import TypedDefaultsSchema

// Text from outside the program: JSON that another program (or a person, or the command-line
// tool) wrote, with every escape JSON allows, and now and then a lone surrogate escape
// (`"\ud800"`), which no Swift string can hold. Such text must be refused with a typed error
// and never stored altered (a U+FFFD in place of the escape would be a silent change).

extension RoundTripFamily {
    /// A `Codable` value's JSON planted as a plain string, as another program would store it,
    /// then read through the `Codable` type in a fresh process.
    static func outsideJSON<Value: RoundTripValue & Codable>(_ name: String, _ type: Value.Type, count: Int) -> Self {
        RoundTripFamily(name: name, count: count) { draw, key in
            let value = Value.generate(&draw)
            let defaultValue = Value.generate(&draw)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            let json = (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) }
            let broken = draw.chance(0.4)
            let text = json.map { RoundTripJSON.reescape($0, &draw) }.map {
                broken ? RoundTripJSON.withLoneSurrogate($0, &draw) : $0
            }
            return RoundTripEntry(
                write: { context in
                    guard let text else { return ["JSONEncoder cannot encode \(value.fingerprint)"] }
                    UserDefault(wrappedValue: "", key, store: context.store).wrappedValue = text
                    return context.reported.take(key: key).map { "planting the JSON was reported: \($0)" }
                },
                verify: { context in
                    guard let text else { return [] }
                    let property = UserDefault(wrappedValue: defaultValue, key, store: context.store)
                    var problems: [String] = []
                    if broken {
                        // A plain read first: it reports (a failure is reported once, by the read that decodes).
                        if property.wrappedValue.fingerprint != defaultValue.fingerprint {
                            problems.append("JSON with a lone surrogate: a plain read did not give the default")
                        }
                        let errors = context.reported.take(key: key)
                        if errors.count != 1 || !errors.allSatisfy({ if case .corrupt = $0 { true } else { false } }) {
                            problems.append(
                                "a plain read should report corrupt once, reported: \(RoundTripReport.describe(errors))"
                            )
                        }
                        do {
                            let read = try property.load()
                            problems.append("JSON with a lone surrogate was read as \(read.fingerprint): \(text)")
                        } catch {
                            if case .corrupt(key, _)? = error as? DefaultsError {
                            } else {
                                problems.append("JSON with a lone surrogate: expected corrupt, load() threw \(error)")
                            }
                        }
                        // The stored text is left exactly as it was.
                        let raw = UserDefault(wrappedValue: "", key, store: context.store).wrappedValue
                        if !raw.utf8.elementsEqual(text.utf8) {
                            problems.append(
                                RoundTripReport.mismatch(
                                    "the unreadable JSON was altered", written: Fingerprint.text(text),
                                    read: Fingerprint.text(raw)))
                        }
                    } else {
                        do {
                            let read = try property.load()
                            if read.fingerprint != value.fingerprint {
                                problems.append(
                                    RoundTripReport.mismatch(
                                        "JSON from outside (\(Fingerprint.text(text)))", written: value.fingerprint,
                                        read: read.fingerprint))
                            }
                        } catch {
                            problems.append("JSON from outside was refused: \(error): \(Fingerprint.text(text))")
                        }
                        problems += context.reported.take(key: key).map { "reading reported: \($0)" }
                    }
                    return problems
                })
        }
    }

    /// `DefaultsStoredValue(json:)` on JSON another writer made: it reads back as exactly the
    /// value written, which is then stored and read back in a fresh process; with a lone
    /// surrogate it throws, and nothing is stored. The library's own `json()` reads back too.
    static func storedValueJSON(_ name: String, count: Int) -> Self {
        RoundTripFamily(name: name, count: count) { draw, key in
            let value = DefaultsStoredValue.generate(&draw)
            let valid = RoundTripJSON.write(value, &draw)
            let broken = draw.chance(0.3)
            let text = broken ? RoundTripJSON.withLoneSurrogate(valid, &draw) : valid
            let written = value.fingerprint
            func parse(_ text: String, _ what: String) -> [String] {
                do {
                    let parsed = try DefaultsStoredValue(json: text)
                    guard parsed.fingerprint != written else { return [] }
                    return [
                        RoundTripReport.mismatch(
                            "\(what) \(Fingerprint.text(text))", written: written, read: parsed.fingerprint)
                    ]
                } catch {
                    return ["\(what) was refused: \(error): \(Fingerprint.text(text))"]
                }
            }
            return RoundTripEntry(
                write: { context in
                    var problems = parse(value.json(), "the library's own json()")
                    problems += parse(value.json(pretty: true), "the library's own json(pretty: true)")
                    do {
                        let parsed = try DefaultsStoredValue(json: text)
                        if broken {
                            problems.append("JSON with a lone surrogate was read as \(parsed.fingerprint): \(text)")
                        } else if parsed.fingerprint != written {
                            problems.append(
                                RoundTripReport.mismatch(
                                    "JSON from outside \(Fingerprint.text(text))", written: written,
                                    read: parsed.fingerprint))
                        } else {
                            UserDefault(wrappedValue: .boolean(false), key, store: context.store).wrappedValue = parsed
                        }
                    } catch {
                        if !broken { problems.append("valid JSON was refused: \(error): \(Fingerprint.text(text))") }
                    }
                    return problems + context.reported.take(key: key).map { "the write was reported: \($0)" }
                },
                verify: { context in
                    let property = UserDefault(
                        wrappedValue: DefaultsStoredValue.boolean(false), key, store: context.store)
                    if broken {
                        return property.hasStoredValue ? ["a value was stored for JSON that was refused"] : []
                    }
                    do {
                        let read = try property.load().fingerprint
                        guard read != written else { return [] }
                        return [
                            RoundTripReport.mismatch(
                                "stored value", written: written, read: read, stored: context.storedJSON(key))
                        ]
                    } catch {
                        return ["load() failed: \(error)"]
                    }
                })
        }
    }
}
