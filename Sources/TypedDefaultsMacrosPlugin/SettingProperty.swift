#if Macros
    import SwiftDiagnostics
    import SwiftSyntax

    /// A stored property of a class under `@ObservableSettings`, as the macros read it.
    struct SettingProperty {
        let declaration: VariableDeclSyntax
        let binding: PatternBindingSyntax
        /// The property's name, as written (with backticks, if any).
        let name: TokenSyntax
        let type: TypeSyntax?
        let initialValue: ExprSyntax?
        /// `@SettingKey("name")`'s argument.
        let keyName: ExprSyntax?
        /// `@SettingKey(.key)`'s argument: a typed key.
        let typedKey: ExprSyntax?
        /// `@SettingInfo(…)`'s arguments.
        let info: LabeledExprListSyntax?

        /// The name without backticks: `repeat` for `` `repeat` ``.
        var plainName: String {
            let text = name.text
            return text.hasPrefix("`") && text.hasSuffix("`") && text.count > 1
                ? String(text.dropFirst().dropLast()) : text
        }

        /// The value's type as the handle declares it: an implicitly unwrapped optional, which
        /// only a declaration may spell, as an optional.
        var valueType: TypeSyntax? {
            guard let unwrapped = type?.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) else { return type }
            return TypeSyntax(OptionalTypeSyntax(wrappedType: unwrapped.wrappedType))
        }

        /// The handle's name, as a property wrapper's projection is named: `$theme`.
        var handleName: String { "$\(plainName)" }

        /// What the class macro does with a member.
        enum Use {
            /// Stored as a setting.
            case setting(SettingProperty)
            /// Not a stored instance `var`, or marked `@SettingIgnored`: left as written.
            case leftAlone
            /// Cannot be stored: the diagnostics say why, and how to fix it.
            case refused([Diagnostic])
        }

        /// How the class macro treats `member`.
        static func use(of member: some DeclSyntaxProtocol) -> Use {
            guard let variable = member.as(VariableDeclSyntax.self) else { return .leftAlone }
            let attributes = SettingAttributes(variable.attributes)
            // A secret keeps its value in the keyring, through its own wrapper: never in the suite.
            if attributes.isIgnored || attributes.isSecret { return .leftAlone }
            if variable.modifiers.contains(where: { ["static", "class"].contains($0.name.text) }) { return .leftAlone }
            let marked = attributes.key ?? attributes.info
            if variable.bindingSpecifier.tokenKind == .keyword(.let) {
                return .refused([SettingsDiagnostic.letProperty(variable)])
            }
            if variable.modifiers.contains(where: { $0.name.tokenKind == .keyword(.lazy) }) {
                return .refused([SettingsDiagnostic.lazyProperty(variable)])
            }
            guard variable.bindings.count == 1, let binding = variable.bindings.first,
                let identifier = binding.pattern.as(IdentifierPatternSyntax.self)
            else {
                return .refused([SettingsDiagnostic.severalBindings(variable)])
            }
            if let accessors = binding.accessorBlock {
                if case .accessors(let list) = accessors.accessors,
                    list.allSatisfy({
                        [.keyword(.willSet), .keyword(.didSet)].contains($0.accessorSpecifier.tokenKind)
                    })
                {
                    return .refused([SettingsDiagnostic.observers(variable, accessors)])
                }
                // A computed property: left as it is, unless marked as a setting.
                if let marked { return .refused([SettingsDiagnostic.computed(variable, marked)]) }
                return .leftAlone
            }
            let type = binding.typeAnnotation?.type
            let initialValue = binding.initializer?.value
            var keyName: ExprSyntax?
            var typedKey: ExprSyntax?
            if let argument = attributes.key?.arguments?.as(LabeledExprListSyntax.self)?.first?.expression {
                if argument.is(StringLiteralExprSyntax.self) { keyName = argument } else { typedKey = argument }
            }
            if typedKey != nil, let initializer = binding.initializer {
                return .refused([SettingsDiagnostic.typedKeyWithDefault(binding, initializer)])
            }
            if typedKey != nil, type == nil {
                return .refused([SettingsDiagnostic.typedKeyWithoutType(binding)])
            }
            if typedKey == nil, initialValue == nil, !(type.map(isOptional) ?? false) {
                return .refused([SettingsDiagnostic.noDefault(binding)])
            }
            return .setting(
                SettingProperty(
                    declaration: variable, binding: binding, name: identifier.identifier.trimmed, type: type?.trimmed,
                    initialValue: initialValue?.trimmed, keyName: keyName?.trimmed, typedKey: typedKey?.trimmed,
                    info: attributes.info?.arguments?.as(LabeledExprListSyntax.self)))
        }

        /// Whether `type` is written as an optional, whose default is `nil`.
        private static func isOptional(_ type: TypeSyntax) -> Bool {
            if type.is(OptionalTypeSyntax.self) || type.is(ImplicitlyUnwrappedOptionalTypeSyntax.self) { return true }
            if let identifier = type.as(IdentifierTypeSyntax.self) { return identifier.name.text == "Optional" }
            if let member = type.as(MemberTypeSyntax.self) { return member.name.text == "Optional" }
            return false
        }
    }

    /// The library's attributes on a property.
    struct SettingAttributes {
        var key: AttributeSyntax?
        var info: AttributeSyntax?
        var isIgnored = false
        /// `@Secret`, of TypedDefaultsSecrets.
        var isSecret = false

        init(_ list: AttributeListSyntax) {
            for element in list {
                guard case .attribute(let attribute) = element else { continue }
                switch Self.name(of: attribute) {
                case "SettingKey": key = attribute
                case "SettingInfo": info = attribute
                case "SettingIgnored": isIgnored = true
                case "Secret": isSecret = true
                default: break
                }
            }
        }

        /// An attribute's name without the module: `TypedDefaultsMacros.SettingKey` is `SettingKey`.
        static func name(of attribute: AttributeSyntax) -> String {
            let name = attribute.attributeName.trimmedDescription
            return name.split(separator: ".").last.map(String.init) ?? name
        }
    }
#endif
