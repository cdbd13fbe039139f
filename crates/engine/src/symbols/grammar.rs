//! The supported languages, their file extensions and their tree-sitter grammars.

use std::path::Path;

/// A language the symbol engine can parse. Each variant maps to exactly one tree-sitter grammar.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Language {
    JavaScript,
    TypeScript,
    Tsx,
    Python,
    Rust,
    Go,
    Java,
    C,
    Cpp,
    Ruby,
    Php,
    Swift,
    Kotlin,
    Scala,
    CSharp,
    Lua,
    Zig,
}

/// Every supported language, in a fixed order.
pub const ALL_LANGUAGES: [Language; 17] = [
    Language::JavaScript,
    Language::TypeScript,
    Language::Tsx,
    Language::Python,
    Language::Rust,
    Language::Go,
    Language::Java,
    Language::C,
    Language::Cpp,
    Language::Ruby,
    Language::Php,
    Language::Swift,
    Language::Kotlin,
    Language::Scala,
    Language::CSharp,
    Language::Lua,
    Language::Zig,
];

impl Language {
    /// The language for a file extension (without the dot, case-insensitive), `None` when unsupported.
    pub fn from_extension(ext: &str) -> Option<Language> {
        let ext = ext.to_ascii_lowercase();
        let lang = match ext.as_str() {
            "js" | "mjs" | "cjs" | "jsx" => Language::JavaScript,
            "ts" | "mts" | "cts" => Language::TypeScript,
            "tsx" => Language::Tsx,
            "py" | "pyi" | "pyw" => Language::Python,
            "rs" => Language::Rust,
            "go" => Language::Go,
            "java" => Language::Java,
            "c" | "h" => Language::C,
            "cc" | "cpp" | "cxx" | "c++" | "hpp" | "hh" | "hxx" | "h++" | "ipp" | "tpp" => {
                Language::Cpp
            }
            "rb" | "rake" | "gemspec" => Language::Ruby,
            "php" | "phtml" | "php8" => Language::Php,
            "swift" => Language::Swift,
            "kt" | "kts" => Language::Kotlin,
            "scala" | "sc" => Language::Scala,
            "cs" => Language::CSharp,
            "lua" => Language::Lua,
            "zig" => Language::Zig,
            _ => return None,
        };
        Some(lang)
    }

    /// A short lower-case name (`"typescript"`, `"cpp"`, ...), stable for messages and logs.
    pub fn name(self) -> &'static str {
        match self {
            Language::JavaScript => "javascript",
            Language::TypeScript => "typescript",
            Language::Tsx => "tsx",
            Language::Python => "python",
            Language::Rust => "rust",
            Language::Go => "go",
            Language::Java => "java",
            Language::C => "c",
            Language::Cpp => "cpp",
            Language::Ruby => "ruby",
            Language::Php => "php",
            Language::Swift => "swift",
            Language::Kotlin => "kotlin",
            Language::Scala => "scala",
            Language::CSharp => "csharp",
            Language::Lua => "lua",
            Language::Zig => "zig",
        }
    }

    /// The language's usual written name (`"TypeScript"`, `"C++"`, ...), for users.
    pub fn display_name(self) -> &'static str {
        match self {
            Language::JavaScript => "JavaScript",
            Language::TypeScript => "TypeScript",
            Language::Tsx => "TSX",
            Language::Python => "Python",
            Language::Rust => "Rust",
            Language::Go => "Go",
            Language::Java => "Java",
            Language::C => "C",
            Language::Cpp => "C++",
            Language::Ruby => "Ruby",
            Language::Php => "PHP",
            Language::Swift => "Swift",
            Language::Kotlin => "Kotlin",
            Language::Scala => "Scala",
            Language::CSharp => "C#",
            Language::Lua => "Lua",
            Language::Zig => "Zig",
        }
    }

    /// The tree-sitter grammar of this language.
    pub fn grammar(self) -> tree_sitter::Language {
        let f = match self {
            Language::JavaScript => tree_sitter_javascript::LANGUAGE,
            Language::TypeScript => tree_sitter_typescript::LANGUAGE_TYPESCRIPT,
            Language::Tsx => tree_sitter_typescript::LANGUAGE_TSX,
            Language::Python => tree_sitter_python::LANGUAGE,
            Language::Rust => tree_sitter_rust::LANGUAGE,
            Language::Go => tree_sitter_go::LANGUAGE,
            Language::Java => tree_sitter_java::LANGUAGE,
            Language::C => tree_sitter_c::LANGUAGE,
            Language::Cpp => tree_sitter_cpp::LANGUAGE,
            Language::Ruby => tree_sitter_ruby::LANGUAGE,
            Language::Php => tree_sitter_php::LANGUAGE_PHP,
            Language::Swift => tree_sitter_swift::LANGUAGE,
            Language::Kotlin => tree_sitter_kotlin_ng::LANGUAGE,
            Language::Scala => tree_sitter_scala::LANGUAGE,
            Language::CSharp => tree_sitter_c_sharp::LANGUAGE,
            Language::Lua => tree_sitter_lua::LANGUAGE,
            Language::Zig => tree_sitter_zig::LANGUAGE,
        };
        f.into()
    }
}

/// `language` refined by the file's content: a `.h` header (C by its extension) that holds C++
/// (`class`, `namespace`, `template`, `public:`, `::`), or that parses only as C++, is C++.
pub fn refine_for_content(language: Language, path: &Path, content: &str) -> Language {
    if !depends_on_content(language, path) {
        return language;
    }
    const CPP_MARKERS: [&str; 6] = [
        "class ",
        "namespace ",
        "template <",
        "template<",
        "public:",
        "::",
    ];
    if CPP_MARKERS.iter().any(|m| content.contains(m)) || only_cpp_parses(content) {
        Language::Cpp
    } else {
        Language::C
    }
}

/// Whether [`refine_for_content`] may change `language` (of the file at `path`) by the content: a
/// `.h` header.
pub fn depends_on_content(language: Language, path: &Path) -> bool {
    let header = path
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("h"));
    language == Language::C && header
}

/// Whether `content` has a parse error as C and none as C++ (a header using references, `auto`,
/// `nullptr`, ... without the usual markers).
fn only_cpp_parses(content: &str) -> bool {
    let clean =
        |lang| super::parsing::parse(content, lang).is_ok_and(|t| !t.root_node().has_error());
    !clean(Language::C) && clean(Language::Cpp)
}

/// The language of a path, judged by its extension; `None` when the extension is missing or unsupported.
pub fn language_for_path(path: &Path) -> Option<Language> {
    let ext = path.extension()?.to_str()?;
    Language::from_extension(ext)
}

#[cfg(test)]
mod content_tests {
    use super::*;

    #[test]
    fn a_cpp_header_is_parsed_as_cpp() {
        let h = Path::new("a.h");
        let cpp = "namespace n {\nclass A { public: int f(); };\n}\n";
        assert_eq!(refine_for_content(Language::C, h, cpp), Language::Cpp);
        assert_eq!(
            refine_for_content(Language::C, h, "int f(void);\n"),
            Language::C
        );
        assert_eq!(
            refine_for_content(Language::C, Path::new("a.c"), cpp),
            Language::C
        );
        // No marker, but references: C fails, C++ parses.
        let refs = "int swap(int &a, int &b);\n";
        assert_eq!(refine_for_content(Language::C, h, refs), Language::Cpp);
        // Broken either way: stays C.
        assert_eq!(
            refine_for_content(Language::C, h, "int f( {\n"),
            Language::C
        );
    }
}
