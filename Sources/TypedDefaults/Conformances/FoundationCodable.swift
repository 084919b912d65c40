import Foundation

// `Measurement` and `DateComponents` are stored through their `Codable` conformances, as a
// JSON string with sorted keys, which keeps every field exactly:
//
// ```swift
// @UserDefault("runDistance") var runDistance = Measurement(value: 5, unit: UnitLength.kilometers)
// @UserDefault("reminder") var reminder = DateComponents(hour: 8, minute: 30)
// ```
//
// A measurement keeps its unit's symbol and its conversion to the base unit, so 5 km reads
// back as 5 km, not 5,000 m. Date components keep their calendar and time zone.

extension Measurement: DefaultsValueConvertible {}

extension DateComponents: DefaultsValueConvertible {}
