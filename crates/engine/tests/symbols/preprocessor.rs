//! C and C++ definitions that real commits edit where the preprocessor or a shared name gets in
//! the way: annotation macros, `#if` inside a definition, both branches of an `#if`, a class and
//! its constructors. Each case is minimized from a hunk of a public project's commit.

use edit_engine_core::symbols::{find_all_symbols, pick_by_shape, plan_replace, Language};

use crate::common::*;

const C: Language = Language::C;
const CPP: Language = Language::Cpp;

/// An export macro between `class` and the name: the class is found whole (not its defaulted
/// constructor, which was all the broken parse left).
const EXPORTED_CLASS: &str = "\
namespace db {

class DB_EXPORT Cache {
 public:
  Cache() = default;
  virtual ~Cache();

  virtual int Size() const = 0;
};

}  // namespace db
";

#[test]
fn a_class_behind_an_export_macro_is_found_whole() {
    let found = find_all_symbols(EXPORTED_CLASS, CPP, "Cache").expect("lookup");
    let class: Vec<_> = found
        .iter()
        .filter(|s| s.node_type == "class_specifier")
        .collect();
    assert_eq!(class.len(), 1, "{found:?}");
    assert_eq!((class[0].start_line, class[0].end_line), (3, 9));
    let new = "class DB_EXPORT Cache {\n public:\n  Cache() = default;\n  virtual ~Cache();\n\n  virtual long Size() const = 0;\n};";
    let (reply, after) = symbol_edit("cache.h", EXPORTED_CLASS, "Cache", new);
    assert!(reply.starts_with("Success"), "{reply}");
    assert_eq!(after, EXPORTED_CLASS.replace("int Size", "long Size"));
}

/// An `#if` inside a constructor's initializer list breaks the whole parse; the definition is
/// still found (with the `#if` lines inside its range).
const INIT_LIST_IF: &str = "\
class Limiter {
 public:
  Limiter(int max)
      :
#if !defined(NDEBUG)
        max_(max),
#endif
        left_(max) {
  }

 private:
  int left_;
};
";

#[test]
fn an_if_inside_an_initializer_list_does_not_hide_the_constructor() {
    let ctor = one(INIT_LIST_IF, CPP, "Limiter::Limiter");
    assert_eq!(
        span(&ctor),
        (3, 9, "function_definition", "Limiter.Limiter")
    );
    let new = "Limiter(int max)\n    :\n#if !defined(NDEBUG)\n      max_(max),\n#endif\n      left_(max + 1) {\n}";
    let plan = plan_replace(INIT_LIST_IF, &ctor, new);
    assert_eq!(
        plan.new_source,
        INIT_LIST_IF.replace("left_(max) {", "left_(max + 1) {")
    );
}

/// An annotation macro before a function's type, in a file the parse breaks in: the range
/// starts at the macro, so restating the line does not double the macro.
const MACRO_BEFORE_FUNCTION: &str = "\
#define FMT_CONSTEXPR constexpr

namespace detail {

FMT_CONSTEXPR inline int count_digits(unsigned n) {
  int count = 1;
  while (n >= 10) {
    n /= 10;
    ++count;
  }
  return count;
}

template <typename T> FMT_CONSTEXPR auto twice(T v) -> T { return v + v; }

}  // namespace detail
";

#[test]
fn a_range_starts_at_the_annotation_macro_of_its_line() {
    let f = one(MACRO_BEFORE_FUNCTION, CPP, "count_digits");
    assert_eq!((f.start_line, f.end_line), (5, 12));
    assert!(f.code.starts_with("FMT_CONSTEXPR inline int"), "{}", f.code);
    let new = f.code.replace("int count = 1;", "int count = 0;");
    let plan = plan_replace(MACRO_BEFORE_FUNCTION, &f, &new);
    assert_eq!(
        plan.new_source,
        MACRO_BEFORE_FUNCTION.replace("int count = 1;", "int count = 0;")
    );
}

/// A name defined in both branches of an `#if` is refused, listing both, with the `@LINE` that
/// picks one; `@LINE` then edits that branch only.
const BOTH_BRANCHES: &str = "\
#ifdef _WIN32
static int sleep_ms(int ms) {
    Sleep(ms);
    return 0;
}
#else
static int sleep_ms(int ms) {
    return usleep(ms * 1000);
}
#endif
";

#[test]
fn a_name_in_both_branches_of_an_if_is_refused_listing_both() {
    let (reply, after) = symbol_edit(
        "s.c",
        BOTH_BRANCHES,
        "sleep_ms",
        "static int sleep_ms(int ms) {\n    return 1;\n}",
    );
    assert_eq!(after, BOTH_BRANCHES);
    assert!(
        reply.contains("Found 2 symbols named \"sleep_ms\""),
        "{reply}"
    );
    assert!(
        reply.contains("line 2)") && reply.contains("line 7)"),
        "{reply}"
    );
    assert!(reply.contains("<symbol>sleep_ms@2</symbol>"), "{reply}");
    let new = "static int sleep_ms(int ms) {\n    return usleep(ms * 1000L);\n}";
    let (reply, after) = symbol_edit("s.c", BOTH_BRANCHES, "sleep_ms@7", new);
    assert!(reply.starts_with("Success"), "{reply}");
    assert_eq!(after, BOTH_BRANCHES.replace("1000)", "1000L)"));
}

/// A function whose header differs per `#if` branch (one body) breaks the parse; each branch's
/// view finds it, but its range would cut the group apart, so it is refused, not half-replaced.
const HEADER_PER_BRANCH: &str = "\
#ifdef WIDE
static int hash(const wchar_t *s) {
#else
static int hash(const char *s) {
#endif
    return s[0];
}
";

#[test]
fn a_definition_that_would_cut_an_if_apart_is_refused() {
    let (reply, after) = symbol_edit(
        "h.c",
        HEADER_PER_BRANCH,
        "hash",
        "static int hash(const char *s) {\n    return s[1];\n}",
    );
    assert!(reply.starts_with("Error"), "{reply}");
    assert_eq!(after, HEADER_PER_BRANCH);
    assert!(find_all_symbols(HEADER_PER_BRANCH, C, "hash").map_or(true, |f| f.is_empty()));
}

/// A class and its constructors share a name: the text of a class picks the class, a body picks
/// the one constructor with a body over its `= delete` copy.
const CLASS_AND_CONSTRUCTORS: &str = "\
class Slice {
 public:
  Slice() : data_(\"\"), size_(0) {}
  Slice(const char* d, int n) : data_(d), size_(n) {}
  int size() const { return size_; }

 private:
  const char* data_;
  int size_;
};

class Env {
 public:
  Env() { Init(); }
  Env(const Env&) = delete;
};
";

#[test]
fn the_text_of_a_class_picks_the_class_over_its_constructors() {
    let found = find_all_symbols(CLASS_AND_CONSTRUCTORS, CPP, "Slice").expect("lookup");
    assert_eq!(found.len(), 3);
    let new = "class Slice {\n public:\n  Slice() : data_(\"\"), size_(0) {}\n  Slice(const char* d, int n) : data_(d), size_(n) {}\n  int size() const { return size_; }\n  bool empty() const { return size_ == 0; }\n\n private:\n  const char* data_;\n  int size_;\n};";
    assert_eq!(
        pick_by_shape(&found, new).map(|s| s.node_type.as_str()),
        Some("class_specifier")
    );
    // A constructor's text matches two constructors: still refused.
    assert!(pick_by_shape(&found, "Slice() : data_(nullptr), size_(0) {}").is_none());
    let (reply, after) = symbol_edit("slice.cc", CLASS_AND_CONSTRUCTORS, "Slice", new);
    assert!(reply.starts_with("Success"), "{reply}");
    assert_eq!(
        after,
        CLASS_AND_CONSTRUCTORS.replace(
            "return size_; }\n\n",
            "return size_; }\n  bool empty() const { return size_ == 0; }\n\n"
        )
    );
    let (reply, after) = symbol_edit(
        "env.cc",
        CLASS_AND_CONSTRUCTORS,
        "Env::Env",
        "Env() { Init(); Start(); }",
    );
    assert!(reply.starts_with("Success"), "{reply}");
    assert_eq!(
        after,
        CLASS_AND_CONSTRUCTORS.replace("Init(); }", "Init(); Start(); }")
    );
}

/// A class whose body the grammar cannot parse, nor its braces confirm (a macro opens a block),
/// leaves only its out-of-class constructor under its name: a class text is refused instead of
/// replacing the constructor with it.
const UNPARSED_CLASS_AND_CONSTRUCTOR: &str = "\
#define BEGIN {
class Env {
 public:
  Env();
  void run() BEGIN go(); }
};

Env::Env() : started_(false) {}
";

#[test]
fn a_class_text_never_replaces_a_constructor() {
    let new = "class Env {\n public:\n  Env();\n};";
    let (reply, after) = symbol_edit("env.cc", UNPARSED_CLASS_AND_CONSTRUCTOR, "Env", new);
    assert!(reply.starts_with("Error"), "{reply}");
    assert!(
        reply.contains("new_string is a class/struct/union/enum definition"),
        "{reply}"
    );
    assert_eq!(after, UNPARSED_CLASS_AND_CONSTRUCTOR);
}
