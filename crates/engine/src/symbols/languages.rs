//! Per-language tables: which tree-sitter node kinds count as definitions, how each one is named, and which
//! neighbouring nodes (export wrappers, decorators, attributes, doc comments) belong to a definition's range.
//!
//! The tables are data only; [`super::names`] and [`super::locate`] interpret them.

use super::grammar::Language;

/// How a definition node is named.
#[derive(Debug, Clone, Copy)]
pub(crate) enum NameRule {
    /// The text of this field. Qualified text (`A::B`, `M.push`, `M:pop`, `Demo.Sub`) splits into qualifier
    /// segments plus the name.
    Field(&'static str),
    /// The first named child of one of these kinds (grammars without a name field).
    FirstChild(&'static [&'static str]),
    /// C/C++: follow the `declarator` fields down to the declared identifier (possibly `ns::Class::m`).
    Declarator,
    /// Go method: the `name` field, qualified by the receiver's base type.
    GoReceiver,
    /// Rust `impl [Trait for] Type`: named `impl Type` / `impl Trait for Type`; its items are scoped under
    /// `Type`.
    RustImpl,
}

/// An extra condition a node must meet to count as a definition.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Cond {
    /// The field exists and its node is one of these kinds.
    FieldIs(&'static str, &'static [&'static str]),
    /// The field exists.
    HasField(&'static str),
    /// The node has a named child of one of these kinds.
    HasChild(&'static [&'static str]),
    /// The parent is one of these kinds.
    ParentIs(&'static [&'static str]),
    /// The parent is not one of these kinds.
    ParentIsNot(&'static [&'static str]),
}

/// One node kind that can be a definition.
#[derive(Debug, Clone, Copy)]
pub(crate) struct DefKind {
    pub kind: &'static str,
    pub name: NameRule,
    pub conds: &'static [Cond],
    /// When false, the node only contributes a qualifier to the definitions inside it (a JS object literal
    /// bound to a `const`), and is not itself reported.
    pub listed: bool,
}

/// Text-level syntax used to tell whether a model's `new_string` restates a leading part.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Syntax {
    pub line_comments: &'static [&'static str],
    pub block_comments: &'static [(&'static str, &'static str)],
    /// Openers of a decorator / attribute / annotation (`@`, `#[`, `[`).
    pub decorators: &'static [&'static str],
    /// Words that form the export/visibility wrapper (`export`, `default`, `pub`).
    pub modifiers: &'static [&'static str],
}

/// Everything the engine knows about one language.
#[derive(Debug)]
pub(crate) struct Spec {
    pub defs: &'static [DefKind],
    /// Parents holding exactly one declarator extend the range to themselves (`const f = () => {}`).
    pub holders: &'static [&'static str],
    /// Parents that always extend the range (`export_statement`, `decorated_definition`, templates).
    pub wrappers: &'static [&'static str],
    pub comments: &'static [&'static str],
    /// Decorator / attribute / annotation node kinds (children or preceding siblings).
    pub decorators: &'static [&'static str],
    /// Containers to look inside for leading decorators (`modifiers`).
    pub modifier_lists: &'static [&'static str],
    /// Node kinds (named or anonymous) that make up the export/visibility wrapper.
    pub visibility: &'static [&'static str],
    pub syntax: Syntax,
}

const fn def(kind: &'static str) -> DefKind {
    DefKind {
        kind,
        name: NameRule::Field("name"),
        conds: &[],
        listed: true,
    }
}

const fn def_if(kind: &'static str, conds: &'static [Cond]) -> DefKind {
    DefKind {
        kind,
        name: NameRule::Field("name"),
        conds,
        listed: true,
    }
}

const fn def_by(kind: &'static str, name: NameRule, conds: &'static [Cond]) -> DefKind {
    DefKind {
        kind,
        name,
        conds,
        listed: true,
    }
}

const C_STYLE: Syntax = Syntax {
    line_comments: &["//"],
    block_comments: &[("/*", "*/")],
    decorators: &[],
    modifiers: &[],
};

const AT_STYLE: Syntax = Syntax {
    decorators: &["@"],
    ..C_STYLE
};

const JS_FUNCTION_VALUES: &[&str] = &[
    "arrow_function",
    "function_expression",
    "function",
    "generator_function",
    "class",
];

const JS_DEFS: &[DefKind] = &[
    def("function_declaration"),
    def("generator_function_declaration"),
    def("class_declaration"),
    def("method_definition"),
    def_if(
        "variable_declarator",
        &[Cond::FieldIs("value", JS_FUNCTION_VALUES)],
    ),
    DefKind {
        kind: "variable_declarator",
        name: NameRule::Field("name"),
        conds: &[Cond::FieldIs("value", &["object"])],
        listed: false,
    },
    def_by(
        "field_definition",
        NameRule::Field("property"),
        &[Cond::FieldIs("value", JS_FUNCTION_VALUES)],
    ),
    def_by(
        "pair",
        NameRule::Field("key"),
        &[Cond::FieldIs("value", JS_FUNCTION_VALUES)],
    ),
];

const TS_DEFS: &[DefKind] = &[
    def("function_declaration"),
    def("generator_function_declaration"),
    def("class_declaration"),
    def("abstract_class_declaration"),
    def("method_definition"),
    def("abstract_method_signature"),
    def_if(
        "method_signature",
        &[Cond::ParentIs(&["interface_body", "object_type"])],
    ),
    def("interface_declaration"),
    def("type_alias_declaration"),
    def("enum_declaration"),
    def("internal_module"),
    def("module"),
    def_if(
        "variable_declarator",
        &[Cond::FieldIs("value", JS_FUNCTION_VALUES)],
    ),
    DefKind {
        kind: "variable_declarator",
        name: NameRule::Field("name"),
        conds: &[Cond::FieldIs("value", &["object"])],
        listed: false,
    },
    def_if(
        "public_field_definition",
        &[Cond::FieldIs("value", JS_FUNCTION_VALUES)],
    ),
    def_by(
        "pair",
        NameRule::Field("key"),
        &[Cond::FieldIs("value", JS_FUNCTION_VALUES)],
    ),
];

const JS_SYNTAX: Syntax = Syntax {
    modifiers: &["export", "default"],
    ..AT_STYLE
};

const JAVASCRIPT: Spec = Spec {
    defs: JS_DEFS,
    holders: &["lexical_declaration", "variable_declaration"],
    wrappers: &["export_statement"],
    comments: &["comment"],
    decorators: &["decorator"],
    modifier_lists: &[],
    visibility: &["export", "default"],
    syntax: JS_SYNTAX,
};

const TYPESCRIPT: Spec = Spec {
    defs: TS_DEFS,
    ..JAVASCRIPT
};

const PYTHON: Spec = Spec {
    defs: &[def("function_definition"), def("class_definition")],
    holders: &[],
    wrappers: &["decorated_definition"],
    comments: &["comment"],
    decorators: &["decorator"],
    modifier_lists: &[],
    visibility: &[],
    syntax: Syntax {
        line_comments: &["#"],
        block_comments: &[],
        decorators: &["@"],
        modifiers: &[],
    },
};

const RUST: Spec = Spec {
    defs: &[
        def("function_item"),
        def("function_signature_item"),
        def("struct_item"),
        def("enum_item"),
        def("union_item"),
        def("trait_item"),
        def_by("impl_item", NameRule::RustImpl, &[]),
        def("mod_item"),
        def("type_item"),
        def("macro_definition"),
    ],
    holders: &[],
    wrappers: &[],
    comments: &["line_comment", "block_comment"],
    decorators: &["attribute_item"],
    modifier_lists: &[],
    visibility: &["visibility_modifier"],
    syntax: Syntax {
        decorators: &["#["],
        modifiers: &["pub"],
        ..C_STYLE
    },
};

const GO: Spec = Spec {
    defs: &[
        def("function_declaration"),
        def_by("method_declaration", NameRule::GoReceiver, &[]),
        def("type_spec"),
        def("type_alias"),
        def("method_elem"),
    ],
    holders: &["type_declaration"],
    wrappers: &[],
    comments: &["comment"],
    decorators: &[],
    modifier_lists: &[],
    visibility: &[],
    syntax: C_STYLE,
};

const JAVA: Spec = Spec {
    defs: &[
        def("class_declaration"),
        def("interface_declaration"),
        def("enum_declaration"),
        def("record_declaration"),
        def("annotation_type_declaration"),
        def("method_declaration"),
        def("constructor_declaration"),
        def("compact_constructor_declaration"),
    ],
    holders: &[],
    wrappers: &[],
    comments: &["line_comment", "block_comment"],
    decorators: &["marker_annotation", "annotation"],
    modifier_lists: &["modifiers"],
    visibility: &[],
    syntax: AT_STYLE,
};

const C_BODY_TYPE: &[Cond] = &[
    Cond::HasField("body"),
    Cond::ParentIsNot(&["type_definition"]),
];

const C: Spec = Spec {
    defs: &[
        def_by("function_definition", NameRule::Declarator, &[]),
        def_if("struct_specifier", C_BODY_TYPE),
        def_if("union_specifier", C_BODY_TYPE),
        def_if("enum_specifier", C_BODY_TYPE),
        def_by("type_definition", NameRule::Declarator, &[]),
    ],
    holders: &[],
    wrappers: &[],
    comments: &["comment"],
    decorators: &[],
    modifier_lists: &[],
    visibility: &[],
    syntax: C_STYLE,
};

const CPP: Spec = Spec {
    defs: &[
        def_by("function_definition", NameRule::Declarator, &[]),
        def_if("class_specifier", C_BODY_TYPE),
        def_if("struct_specifier", C_BODY_TYPE),
        def_if("union_specifier", C_BODY_TYPE),
        def_if("enum_specifier", C_BODY_TYPE),
        def_by("type_definition", NameRule::Declarator, &[]),
        def("namespace_definition"),
        def("alias_declaration"),
        def("concept_definition"),
    ],
    holders: &[],
    wrappers: &["template_declaration"],
    comments: &["comment"],
    decorators: &[],
    modifier_lists: &[],
    visibility: &[],
    syntax: C_STYLE,
};

const RUBY: Spec = Spec {
    defs: &[
        def("method"),
        def("singleton_method"),
        def("class"),
        def("module"),
    ],
    holders: &[],
    wrappers: &[],
    comments: &["comment"],
    decorators: &[],
    modifier_lists: &[],
    visibility: &[],
    syntax: Syntax {
        line_comments: &["#"],
        block_comments: &[("=begin", "=end")],
        decorators: &[],
        modifiers: &[],
    },
};

const PHP: Spec = Spec {
    defs: &[
        def("function_definition"),
        def("class_declaration"),
        def("interface_declaration"),
        def("trait_declaration"),
        def("enum_declaration"),
        def("method_declaration"),
        def_if("namespace_definition", &[Cond::HasField("body")]),
    ],
    holders: &[],
    wrappers: &[],
    comments: &["comment"],
    decorators: &["attribute_list"],
    modifier_lists: &[],
    visibility: &[],
    syntax: Syntax {
        line_comments: &["//", "#"],
        block_comments: &[("/*", "*/")],
        decorators: &["#["],
        modifiers: &[],
    },
};

const SWIFT: Spec = Spec {
    defs: &[
        def("class_declaration"),
        def("protocol_declaration"),
        def("function_declaration"),
        def("protocol_function_declaration"),
        def("init_declaration"),
        def("typealias_declaration"),
    ],
    holders: &[],
    wrappers: &[],
    comments: &["comment", "multiline_comment"],
    decorators: &["attribute"],
    modifier_lists: &["modifiers"],
    visibility: &[],
    syntax: AT_STYLE,
};

const KOTLIN: Spec = Spec {
    defs: &[
        def("class_declaration"),
        def("object_declaration"),
        def_if("companion_object", &[Cond::HasField("name")]),
        def("function_declaration"),
        def_by("type_alias", NameRule::Field("type"), &[]),
        def("secondary_constructor"),
    ],
    holders: &[],
    wrappers: &[],
    comments: &["line_comment", "block_comment"],
    decorators: &["annotation"],
    modifier_lists: &["modifiers"],
    visibility: &[],
    syntax: AT_STYLE,
};

const SCALA: Spec = Spec {
    defs: &[
        def("class_definition"),
        def("object_definition"),
        def("trait_definition"),
        def("enum_definition"),
        def("function_definition"),
        def("function_declaration"),
        def("type_definition"),
        def_if("given_definition", &[Cond::HasField("name")]),
    ],
    holders: &[],
    wrappers: &[],
    comments: &["comment", "block_comment"],
    decorators: &["annotation"],
    modifier_lists: &["modifiers"],
    visibility: &[],
    syntax: AT_STYLE,
};

const CSHARP: Spec = Spec {
    defs: &[
        def("namespace_declaration"),
        def("class_declaration"),
        def("struct_declaration"),
        def("interface_declaration"),
        def("enum_declaration"),
        def("record_declaration"),
        def("record_struct_declaration"),
        def("method_declaration"),
        def("constructor_declaration"),
        def("destructor_declaration"),
        def("property_declaration"),
        def("delegate_declaration"),
        def("local_function_statement"),
    ],
    holders: &[],
    wrappers: &[],
    comments: &["comment"],
    decorators: &["attribute_list"],
    modifier_lists: &[],
    visibility: &[],
    syntax: Syntax {
        decorators: &["["],
        ..C_STYLE
    },
};

const LUA: Spec = Spec {
    defs: &[def("function_declaration")],
    holders: &[],
    wrappers: &[],
    comments: &["comment"],
    decorators: &[],
    modifier_lists: &[],
    visibility: &[],
    syntax: Syntax {
        line_comments: &["--"],
        block_comments: &[("--[[", "]]")],
        decorators: &[],
        modifiers: &[],
    },
};

const ZIG_CONTAINERS: &[&str] = &[
    "struct_declaration",
    "enum_declaration",
    "union_declaration",
    "opaque_declaration",
    "error_set_declaration",
];

const ZIG: Spec = Spec {
    defs: &[
        def("function_declaration"),
        def_by(
            "variable_declaration",
            NameRule::FirstChild(&["identifier"]),
            &[Cond::HasChild(ZIG_CONTAINERS)],
        ),
    ],
    holders: &[],
    wrappers: &[],
    comments: &["comment"],
    decorators: &[],
    modifier_lists: &[],
    visibility: &["pub"],
    syntax: Syntax {
        block_comments: &[],
        modifiers: &["pub"],
        ..C_STYLE
    },
};

/// The table of a language.
pub(crate) fn spec(lang: Language) -> &'static Spec {
    match lang {
        Language::JavaScript => &JAVASCRIPT,
        Language::TypeScript | Language::Tsx => &TYPESCRIPT,
        Language::Python => &PYTHON,
        Language::Rust => &RUST,
        Language::Go => &GO,
        Language::Java => &JAVA,
        Language::C => &C,
        Language::Cpp => &CPP,
        Language::Ruby => &RUBY,
        Language::Php => &PHP,
        Language::Swift => &SWIFT,
        Language::Kotlin => &KOTLIN,
        Language::Scala => &SCALA,
        Language::CSharp => &CSHARP,
        Language::Lua => &LUA,
        Language::Zig => &ZIG,
    }
}

impl Spec {
    /// The definition entry matching this node, if the node is a definition (or a qualifier-only scope).
    pub(crate) fn def_for(&self, node: tree_sitter::Node) -> Option<&'static DefKind> {
        let kind = node.kind();
        self.defs
            .iter()
            .find(|d| d.kind == kind && d.conds.iter().all(|c| c.holds(node)))
    }
}

impl Cond {
    fn holds(&self, node: tree_sitter::Node) -> bool {
        match *self {
            Cond::FieldIs(field, kinds) => node
                .child_by_field_name(field)
                .is_some_and(|n| kinds.contains(&n.kind())),
            Cond::HasField(field) => node.child_by_field_name(field).is_some(),
            Cond::HasChild(kinds) => {
                let mut cursor = node.walk();
                let found = node
                    .named_children(&mut cursor)
                    .any(|c| kinds.contains(&c.kind()));
                found
            }
            Cond::ParentIs(kinds) => node.parent().is_some_and(|p| kinds.contains(&p.kind())),
            Cond::ParentIsNot(kinds) => !node.parent().is_some_and(|p| kinds.contains(&p.kind())),
        }
    }
}
