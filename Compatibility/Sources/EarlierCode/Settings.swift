import TypedDefaults

// Properties and settings as earlier versions observed, reset and read them: `values`
// sequences, a `changes` property, and a setting's own reset, observe and isOn.

extension DefaultsKeys {
    static let earlierVolume = DefaultsKey<Double>("volume", default: 0.5)
}

struct EarlierSettings {
    @Setting("shuffle", title: "Shuffle") var shuffle = false
    @Setting(.earlierVolume, title: "Volume", range: 0...1, step: 0.1) var volume
    @UserDefault("theme") var theme = "system"
}

func followEarlier(_ settings: EarlierSettings, store: DefaultsStore) async -> [String] {
    var seen: [String] = []
    for await theme in settings.$theme.values { seen.append(theme) }
    for await change in settings.$theme.changes { seen.append(change.newValue) }
    for await volume in store.values(.earlierVolume) { seen.append("\(volume)") }
    for await volume in settings.$volume.values { seen.append("\(volume)") }
    return seen
}

func resetEarlier(_ settings: EarlierSettings) -> DefaultsObservation {
    settings.$volume.reset()
    if settings.$shuffle.isOn { settings.$shuffle.toggle() }
    // Read through the setting's property now, and still compiled without a deprecation.
    print(settings.$volume.key, settings.$volume.defaultValue, settings.$volume.hasStoredValue)
    return settings.$volume.observe(initial: true) { change in print(change.newValue) }
}

func describeEarlier(_ setting: SettingDescription) -> SettingDescription {
    print(setting.type)
    return SettingDescription(
        key: setting.key, type: setting.type, title: setting.title, info: setting.info,
        formattedDefaultValue: setting.formattedDefaultValue, formattedValue: setting.formattedValue,
        hasStoredValue: setting.hasStoredValue, kind: setting.kind)
}

func migratedSteps(of store: DefaultsStore) -> (Int, String) {
    (store.schemaVersion, DefaultsStore.schemaVersionKey)
}
