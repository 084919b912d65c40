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
        /// `@SettingSecret(…)`'s arguments, of a secret (empty when it has none).
        var secret: LabeledExprListSyntax?
        /// Refused for want of a default: expanded all the same, with accessors whose getter
        /// never runs, so that the macro's error is the only one (a stored `var` left in a
        /// `Sendable` class would be another, and so would a class left with no initializer).
        var isStandIn = false

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
            /// Cannot be stored: the diagnostics say why, and how to fix it. The property, when
            /// given, is what it is expanded as meanwhile, so that the compiler adds no error of
            /// its own to the macro's about the stored `var` it would otherwise be.
            case refused([Diagnostic], expandedAs: SettingProperty? = nil)

            /// The property the accessor and peer macros expand: a setting's, or a refused one's stand-in.
            var expanded: SettingProperty? {
                switch self {
                case .setting(let property), .refused(_, expandedAs: let property?): property
                case .leftAlone, .refused: nil
                }
            }
        }

        /// How the class macro treats `member`.
        static func use(of member: some DeclSyntaxProtocol) -> Use {
            guard let variable = member.as(VariableDeclSyntax.self) else { return .leftAlone }
            let attributes = SettingAttributes(variable.attributes)
            if attributes.isIgnored { return .leftAlone }
            if variable.modifiers.contains(where: { ["static", "class"].contains($0.name.text) }) { return .leftAlone }
            // A wrapper's storage is a `var` the macro cannot take away: `@SettingSecret` is the
            // model's secret, filed under its store.
            if let wrapper = attributes.secretWrapper { return .refused([SettingsDiagnostic.secretWrapper(wrapper)]) }
            let marked = attributes.key ?? attributes.info ?? attributes.secret
            if variable.bindingSpecifier.tokenKind == .keyword(.let) {
                // A `Secret` kept in a constant, with the service it was made with.
                if isSecretHandle(variable) { return .leftAlone }
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
            let type = binding.typeAnnotation?.type
            let initialValue = binding.initializer?.value
            var property = SettingProperty(
                declaration: variable, binding: binding, name: identifier.identifier.trimmed, type: type?.trimmed,
                initialValue: initialValue?.trimmed, keyName: nil, typedKey: nil,
                info: attributes.info?.arguments?.as(LabeledExprListSyntax.self))
            if let accessors = binding.accessorBlock {
                if case .accessors(let list) = accessors.accessors,
                    list.allSatisfy({
                        [.keyword(.willSet), .keyword(.didSet)].contains($0.accessorSpecifier.tokenKind)
                    })
                {
                    // Stored all the same, beside its observers, which the compiler accepts there.
                    let expanded = initialValue == nil && !(type.map(isOptional) ?? false) ? nil : property
                    return .refused([SettingsDiagnostic.observers(variable, accessors)], expandedAs: expanded)
                }
                // A computed property: left as it is, unless marked as a setting.
                if let marked { return .refused([SettingsDiagnostic.computed(variable, marked)]) }
                return .leftAlone
            }
            if let secret = attributes.secret {
                guard initialValue == nil, let type, isOptionalString(type) else {
                    return .refused([SettingsDiagnostic.secretDeclaration(binding)])
                }
                property.secret = secret.arguments?.as(LabeledExprListSyntax.self) ?? []
                return .setting(property)
            }
            if let argument = attributes.key?.arguments?.as(LabeledExprListSyntax.self)?.first?.expression {
                if argument.is(StringLiteralExprSyntax.self) {
                    property = property.with(keyName: argument.trimmed)
                } else {
                    property = property.with(typedKey: argument.trimmed)
                }
            }
            if property.typedKey != nil, let initializer = binding.initializer {
                // Stored under the key all the same, whose default it is.
                return .refused(
                    [SettingsDiagnostic.typedKeyWithDefault(binding, initializer)],
                    expandedAs: type == nil ? nil : property)
            }
            if property.typedKey != nil, type == nil {
                return .refused([SettingsDiagnostic.typedKeyWithoutType(binding)])
            }
            if property.typedKey == nil, initialValue == nil, !(type.map(isOptional) ?? false) {
                property.isStandIn = true
                return .refused([SettingsDiagnostic.noDefault(binding)], expandedAs: type == nil ? nil : property)
            }
            return .setting(property)
        }

        private func with(keyName: ExprSyntax? = nil, typedKey: ExprSyntax? = nil) -> SettingProperty {
            SettingProperty(
                declaration: declaration, binding: binding, name: name, type: type, initialValue: initialValue,
                keyName: keyName, typedKey: typedKey, info: info)
        }

        /// Whether `variable` is a constant holding a `Secret`: by its type or its initializer.
        private static func isSecretHandle(_ variable: VariableDeclSyntax) -> Bool {
            variable.bindings.allSatisfy { binding in
                let typeName = binding.typeAnnotation?.type.trimmedDescription
                let called = binding.initializer?.value.as(FunctionCallExprSyntax.self)?.calledExpression
                return [typeName, called?.trimmedDescription].contains { name in
                    name.map { SettingAttributes.unqualified($0) == "Secret" } ?? false
                }
            }
        }

        /// Whether `type` is written `String?` or `Optional<String>`, the value of a secret.
        private static func isOptionalString(_ type: TypeSyntax) -> Bool {
            if let optional = type.as(OptionalTypeSyntax.self) {
                return SettingAttributes.unqualified(optional.wrappedType.trimmedDescription) == "String"
            }
            guard let identifier = type.as(IdentifierTypeSyntax.self), identifier.name.text == "Optional",
                let argument = identifier.genericArgumentClause?.arguments.first
            else { return false }
            return SettingAttributes.unqualified(argument.trimmedDescription) == "String"
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
        var secret: AttributeSyntax?
        /// `@Secret`, TypedDefaultsSecrets' property wrapper.
        var secretWrapper: AttributeSyntax?

        init(_ list: AttributeListSyntax) {
            for element in list {
                guard case .attribute(let attribute) = element else { continue }
                switch Self.name(of: attribute) {
                case "SettingKey": key = attribute
                case "SettingInfo": info = attribute
                case "SettingIgnored": isIgnored = true
                case "SettingSecret": secret = attribute
                case "Secret": secretWrapper = attribute
                default: break
                }
            }
        }

        /// An attribute's name without the module: `TypedDefaultsMacros.SettingKey` is `SettingKey`.
        static func name(of attribute: AttributeSyntax) -> String {
            unqualified(attribute.attributeName.trimmedDescription)
        }

        /// A name without its module: `TypedDefaultsSecrets.Secret` is `Secret`.
        static func unqualified(_ name: String) -> String {
            name.split(separator: ".").last.map(String.init) ?? name
        }
    }
#endif
