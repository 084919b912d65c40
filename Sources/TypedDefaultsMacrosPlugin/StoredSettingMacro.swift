#if Macros
    import SwiftSyntax
    import SwiftSyntaxMacros

    /// `@_StoredSetting`: the property's handle, a `let` named with a `$`, and the accessors
    /// that read and write through it.
    public struct StoredSettingMacro: AccessorMacro, PeerMacro {
        public static func expansion(
            of node: AttributeSyntax, providingAccessorsOf declaration: some DeclSyntaxProtocol,
            in context: some MacroExpansionContext
        ) throws -> [AccessorDeclSyntax] {
            guard let property = SettingProperty.use(of: declaration).expanded else { return [] }
            let handle = property.handleName
            if property.isStandIn {
                // Never runs: the class macro refused the property with an error, so the build
                // stops there; these accessors only keep the class free of a stored `var`.
                return [
                    "get { fatalError(\"refused by @ObservableSettings\") }",
                    "set {}",
                ]
            }
            if property.secret != nil {
                // The keyring is asked at each read; nothing to observe.
                return ["get { \(raw: handle).wrappedValue }", "set { \(raw: handle).wrappedValue = newValue }"]
            }
            var accessors: [AccessorDeclSyntax] = []
            if property.initialValue != nil {
                // The default is the handle's; the property's own initial value, which Swift
                // passes here as the object is made, is not stored.
                accessors.append(
                    """
                    @storageRestrictions(accesses: \(raw: handle))
                    init(initialValue) {
                    }
                    """)
            }
            accessors.append(
                """
                get {
                    \(raw: handle)._value(observedBy: self)
                }
                """)
            accessors.append(
                """
                set {
                    \(raw: handle).wrappedValue = newValue
                }
                """)
            return accessors
        }

        public static func expansion(
            of node: AttributeSyntax, providingPeersOf declaration: some DeclSyntaxProtocol,
            in context: some MacroExpansionContext
        ) throws -> [DeclSyntax] {
            guard let property = SettingProperty.use(of: declaration).expanded, !property.isStandIn else { return [] }
            let arguments = node.arguments?.as(LabeledExprListSyntax.self)
            let prefix = arguments?.first(where: { $0.label?.text == "prefix" })?.expression
            let store = arguments?.first(where: { $0.label?.text == "store" })?.expression
            let access = property.declaration.modifiers.first { modifier in
                ["public", "package", "internal", "fileprivate", "private", "open"].contains(modifier.name.text)
                    && modifier.detail == nil
            }
            let accessText = access.map { $0.name.text == "open" ? "public " : "\($0.name.text) " } ?? ""
            // The store as the class's member reads it, where the class is known (it always is
            // but for a `@_StoredSetting` written by hand).
            let settings = context.lexicalContext.first?.as(ClassDeclSyntax.self)?.name.trimmed
            let storeMember = settings.map { ExprSyntax("\($0).\(raw: ObservableSettingsMacro.storeMember)") }
            let handle = handleExpression(for: property, prefix: prefix, store: store.map { storeMember ?? $0 })
            return ["\(raw: accessText)let \(raw: property.handleName) = \(handle)"]
        }

        /// `UserDefault(…)`, `Setting(…)` or `Secret(…)` for the property.
        private static func handleExpression(
            for property: SettingProperty, prefix: ExprSyntax?, store: ExprSyntax?
        ) -> ExprSyntax {
            if let secret = property.secret {
                return secretExpression(for: property, secret, prefix: prefix, store: store)
            }
            var arguments: [String] = []
            if let typedKey = property.typedKey {
                arguments.append(typedKey.description)
            } else {
                if let initialValue = property.initialValue { arguments.append("wrappedValue: \(initialValue)") }
                arguments.append(keyExpression(for: property, prefix: prefix))
            }
            if let info = property.info {
                arguments += info.map { $0.with(\.trailingComma, nil).trimmedDescription }
            }
            if let store { arguments.append("store: \(store.trimmed)") }
            let kind = property.info == nil ? "UserDefault" : "Setting"
            let generic = property.typedKey == nil ? property.valueType.map { "<\($0)>" } ?? "" : ""
            return "\(raw: kind)\(raw: generic)(\(raw: arguments.joined(separator: ", ")))"
        }

        /// `Secret(…)` with `@SettingSecret`'s arguments: its key, else the class's prefix and the
        /// property's name; filed under the class's store, unless a `service:` is given.
        private static func secretExpression(
            for property: SettingProperty, _ secret: LabeledExprListSyntax, prefix: ExprSyntax?, store: ExprSyntax?
        ) -> ExprSyntax {
            var arguments = secret.map { $0.with(\.trailingComma, nil).trimmedDescription }
            if secret.first.map({ $0.label != nil }) ?? true {
                arguments.insert(keyExpression(for: property, prefix: prefix), at: 0)
            }
            if let store, !secret.contains(where: { $0.label?.text == "service" }) {
                arguments.insert("store: \(store.trimmed)", at: 1)
            }
            return "Secret(\(raw: arguments.joined(separator: ", ")))"
        }

        /// The key: `@SettingKey`'s name, else the class's prefix and the property's name.
        private static func keyExpression(for property: SettingProperty, prefix: ExprSyntax?) -> String {
            if let keyName = property.keyName { return keyName.description }
            let name = property.plainName
            guard let prefix = prefix?.trimmed else { return "\"\(name)\"" }
            if let literal = prefix.as(StringLiteralExprSyntax.self), let text = literal.representedLiteralValue,
                !text.contains("\""), !text.contains("\\")
            {
                return "\"\(text)\(name)\""
            }
            return "(\(prefix)) + \"\(name)\""
        }
    }
#endif
