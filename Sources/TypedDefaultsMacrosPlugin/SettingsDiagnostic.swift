#if Macros
    import SwiftDiagnostics
    import SwiftSyntax

    /// What the macros refuse, each with a fix.
    enum SettingsDiagnostic: String, DiagnosticMessage {
        case notAClass, letProperty, lazyProperty, severalBindings, observers, computed, typedKeyWithDefault
        case typedKeyWithoutType, noDefault, secretWrapper, secretDeclaration

        var message: String {
            switch self {
            case .notAClass:
                "@ObservableSettings applies to a class, whose instances share one store; not to a struct, an enum, an actor or an extension"
            case .letProperty:
                "a 'let' cannot be stored as a setting, which can change; declare it 'var', or mark it @SettingIgnored to keep it a constant"
            case .lazyProperty: "a 'lazy' property cannot be stored as a setting; mark it @SettingIgnored"
            case .severalBindings: "declare one setting per 'var', with a name of its own"
            case .observers:
                "a setting cannot have 'willSet' or 'didSet': other handles and processes change it too; use a typed key's didSet(_:)"
            case .computed:
                "a computed property is not stored; remove the attribute, or store the property with a default"
            case .typedKeyWithDefault: "the typed key gives the default; remove this one"
            case .typedKeyWithoutType: "a property stored under a typed key is declared with its type: 'var name: Type'"
            case .noDefault:
                "a setting needs a default, the value read while nothing is stored ('var name = value'); only an optional may leave it out"
            case .secretWrapper:
                "declare a model's secret @SettingSecret, which files it under the model's store; a @Secret wrapper's storage is a 'var', which a 'Sendable' class cannot hold"
            case .secretDeclaration:
                "a secret is declared 'var name: String?', with no default: nil while the keyring holds none"
            }
        }

        var diagnosticID: MessageID { MessageID(domain: "TypedDefaultsMacros", id: rawValue) }
        var severity: DiagnosticSeverity { .error }

        struct Fix: FixItMessage {
            let message: String
            var fixItID: MessageID { MessageID(domain: "TypedDefaultsMacros", id: message) }
        }

        static func notAClass(_ declaration: some DeclGroupSyntax, keyword: TokenSyntax) -> Diagnostic {
            let replacement = TokenSyntax.keyword(
                .class, leadingTrivia: keyword.leadingTrivia, trailingTrivia: keyword.trailingTrivia)
            return error(at: keyword, .notAClass, fix: "make it a class", replacing: keyword, with: replacement)
        }

        static func letProperty(_ variable: VariableDeclSyntax) -> Diagnostic {
            let keyword = variable.bindingSpecifier
            return Diagnostic(
                node: keyword, message: Self.letProperty,
                fixIts: [
                    FixIt(
                        message: Fix(message: "declare it 'var'"),
                        changes: [
                            .replace(
                                oldNode: Syntax(keyword), newNode: Syntax(keyword.with(\.tokenKind, .keyword(.var))))
                        ])
                ])
        }

        static func lazyProperty(_ variable: VariableDeclSyntax) -> Diagnostic {
            Diagnostic(node: variable.bindingSpecifier, message: Self.lazyProperty, fixIts: [ignoring(variable)])
        }

        static func severalBindings(_ variable: VariableDeclSyntax) -> Diagnostic {
            Diagnostic(node: variable.bindings, message: Self.severalBindings, fixIts: [ignoring(variable)])
        }

        static func observers(_ variable: VariableDeclSyntax, _ accessors: AccessorBlockSyntax) -> Diagnostic {
            Diagnostic(
                node: accessors, message: Self.observers,
                fixIts: [
                    FixIt(
                        message: Fix(message: "remove the observers"),
                        changes: [.replace(oldNode: Syntax(accessors), newNode: Syntax(TokenSyntax.unknown("")))])
                ])
        }

        static func computed(_ variable: VariableDeclSyntax, _ attribute: AttributeSyntax) -> Diagnostic {
            Diagnostic(
                node: attribute, message: Self.computed,
                fixIt: FixIt(
                    message: Fix(message: "remove the attribute"),
                    changes: [.replace(oldNode: Syntax(attribute), newNode: Syntax(TokenSyntax.unknown("")))]))
        }

        static func typedKeyWithDefault(_ binding: PatternBindingSyntax, _ initializer: InitializerClauseSyntax)
            -> Diagnostic
        {
            Diagnostic(
                node: initializer, message: Self.typedKeyWithDefault,
                fixIt: FixIt(
                    message: Fix(message: "remove the default"),
                    changes: [.replace(oldNode: Syntax(binding), newNode: Syntax(binding.with(\.initializer, nil)))]))
        }

        static func typedKeyWithoutType(_ binding: PatternBindingSyntax) -> Diagnostic {
            Diagnostic(node: binding, message: Self.typedKeyWithoutType)
        }

        static func noDefault(_ binding: PatternBindingSyntax) -> Diagnostic {
            let withDefault = binding.with(
                \.initializer,
                InitializerClauseSyntax(
                    equal: .equalToken(leadingTrivia: .space, trailingTrivia: .space),
                    value: ExprSyntax(EditorPlaceholderExprSyntax(placeholder: .identifier("<#default#>")))))
            return Diagnostic(
                node: binding, message: Self.noDefault,
                fixIt: FixIt(
                    message: Fix(message: "add a default"),
                    changes: [.replace(oldNode: Syntax(binding), newNode: Syntax(withDefault))]))
        }

        static func secretWrapper(_ attribute: AttributeSyntax) -> Diagnostic {
            let name = attribute.attributeName
            let replacement = TypeSyntax(
                IdentifierTypeSyntax(
                    name: .identifier(
                        "SettingSecret", leadingTrivia: name.leadingTrivia, trailingTrivia: name.trailingTrivia)))
            return error(
                at: attribute, .secretWrapper, fix: "declare it @SettingSecret", replacing: name, with: replacement)
        }

        static func secretDeclaration(_ binding: PatternBindingSyntax) -> Diagnostic {
            let optionalString = TypeAnnotationSyntax(
                colon: .colonToken(trailingTrivia: .space),
                type: TypeSyntax(OptionalTypeSyntax(wrappedType: TypeSyntax(IdentifierTypeSyntax(name: "String")))))
            let declared = binding.with(\.pattern, binding.pattern.trimmed).with(\.typeAnnotation, optionalString)
                .with(\.initializer, nil)
            return error(
                at: binding, .secretDeclaration, fix: "declare it 'String?'", replacing: binding, with: declared)
        }

        /// An error at `node` whose one fix replaces `old` with `new`.
        private static func error(
            at node: some SyntaxProtocol, _ message: Self, fix: String, replacing old: some SyntaxProtocol,
            with new: some SyntaxProtocol
        ) -> Diagnostic {
            Diagnostic(
                node: node, message: message,
                fixIt: FixIt(
                    message: Fix(message: fix), changes: [.replace(oldNode: Syntax(old), newNode: Syntax(new))]))
        }

        /// Marks the property `@SettingIgnored`, leaving it as written: the attribute goes before
        /// its first token.
        private static func ignoring(_ variable: VariableDeclSyntax) -> FixIt {
            let first = variable.firstToken(viewMode: .sourceAccurate) ?? variable.bindingSpecifier
            let marked = TokenSyntax(
                .identifier("@SettingIgnored \(first.text)"), leadingTrivia: first.leadingTrivia,
                trailingTrivia: first.trailingTrivia, presence: .present)
            return FixIt(
                message: Fix(message: "mark it @SettingIgnored"),
                changes: [.replace(oldNode: Syntax(first), newNode: Syntax(marked))])
        }
    }
#endif
