//! C and C++ definitions whose parse holds an error that cannot move their range: macros used as
//! statements or given a type, and template forms tree-sitter-cpp does not know, inside a body or a
//! `template <...>` list. Same-named overloads told apart by the signature new_string repeats. Each
//! case is minimized from a hunk of a public project's commit.

use edit_engine_core::symbols::{find_all_symbols, Language};

use crate::common::*;

const C: Language = Language::C;
const CPP: Language = Language::Cpp;

/// A type given to a macro (`va_arg(ap,char*)`) breaks the parse inside the body.
const TYPE_AS_MACRO_ARGUMENT: &str = "\
#include <stdarg.h>

sds sdscatfmt(sds s, char const *fmt, ...) {
    va_list ap;
    char *str;

    va_start(ap,fmt);
    switch(*fmt) {
    case 's':
        str = va_arg(ap,char*);
        s = sdscat(s,str);
        break;
    }
    va_end(ap);
    return s;
}

sds sdsempty(void) {
    return sdsnewlen(\"\",0);
}
";

#[test]
fn a_macro_given_a_type_inside_a_body_does_not_hide_the_function() {
    let found = find_all_symbols(TYPE_AS_MACRO_ARGUMENT, C, "sdscatfmt").expect("lookup");
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!((found[0].start_line, found[0].end_line), (3, 16));
    let old = "        s = sdscat(s,str);\n";
    let new_text =
        TYPE_AS_MACRO_ARGUMENT.replace(old, "        s = sdscatlen(s,str,strlen(str));\n");
    let new = &new_text
        [new_text.find("sds sdscatfmt").unwrap()..new_text.find("\n\nsds sdsempty").unwrap()];
    let (reply, after) = symbol_edit("sds.c", TYPE_AS_MACRO_ARGUMENT, "sdscatfmt", new);
    assert!(reply.starts_with("Success"), "{reply}");
    assert_eq!(after, new_text);
}

/// Test macros used as statements without `;` (`test_cond(...)`, `test_report()`) and as a block
/// head (`TEST("...") {`).
const STATEMENT_MACROS: &str = "\
#ifdef SDS_TEST_MAIN
int main(void) {
    sds x = sdsnew(\"foo\");

    test_cond(\"Create a string and obtain the length\",
        sdslen(x) == 3 && memcmp(x,\"foo\\0\",4) == 0)

    sdsfree(x);
    test_report()
    return 0;
}
#endif

int kvstoreTest(int argc, char **argv, int flags) {
    int i;
    kvstore *kvs = kvstoreCreate(4);

    TEST(\"Add 16 keys\") {
        for (i = 0; i < 16; i++) {
            assert(kvstoreAdd(kvs, i) == 1);
        }
    }

    kvstoreRelease(kvs);
    return 0;
}
";

#[test]
fn statement_macros_without_a_semicolon_do_not_hide_the_function() {
    let main = find_all_symbols(STATEMENT_MACROS, C, "main").expect("lookup");
    assert_eq!(main.len(), 1, "{main:?}");
    assert_eq!((main[0].start_line, main[0].end_line), (2, 11));
    let test = find_all_symbols(STATEMENT_MACROS, C, "kvstoreTest").expect("lookup");
    assert_eq!(test.len(), 1, "{test:?}");
    assert_eq!((test[0].start_line, test[0].end_line), (14, 26));
    let new = "int main(void) {\n    sds x = sdsnew(\"foo\");\n\n    sdsfree(x);\n    test_report()\n    return 0;\n}";
    let (reply, after) = symbol_edit("sds.c", STATEMENT_MACROS, "main", new);
    assert!(reply.starts_with("Success"), "{reply}");
    let lines: Vec<&str> = STATEMENT_MACROS.lines().collect();
    let expected = [&lines[..1], &new.lines().collect::<Vec<_>>(), &lines[11..]]
        .concat()
        .join("\n")
        + "\n";
    assert_eq!(after, expected);
}

/// A macro that opens a block (`FOR_EACH(x) BLOCK_START`): the parse and the braces both end the
/// body at the block's `}`, but the file's braces do not balance, so the function stays refused.
const MACRO_OPENS_A_BLOCK: &str = "\
int each(void) {
    FOR_EACH(x) BLOCK_START
        g(x)
    }
    return 0;
}

int other(void) {
    return 1;
}
";

#[test]
fn a_body_a_macro_may_have_cut_short_stays_refused() {
    let found = find_all_symbols(MACRO_OPENS_A_BLOCK, C, "each");
    assert!(!matches!(&found, Ok(v) if !v.is_empty()), "{found:?}");
    let other = find_all_symbols(MACRO_OPENS_A_BLOCK, C, "other").expect("lookup");
    assert_eq!(other.len(), 1, "{other:?}");
}

/// A class whose body holds a template form tree-sitter-cpp cannot parse
/// (`typename std::enable_if<...>::type * = nullptr`): the class is found whole, over its
/// constructors.
const UNPARSED_TEMPLATE_IN_CLASS: &str = "\
namespace argparse {

class Argument {
public:
  Argument() = default;
  explicit Argument(std::string name) : m_name(std::move(name)) {}

  template <typename T, typename std::enable_if<std::is_integral<T>::value>::type * = nullptr>
  auto &store_into(T &var) {
    var = 0;
    return *this;
  }

private:
  std::string m_name;
};

} // namespace argparse
";

#[test]
fn a_class_holding_an_unparsed_template_is_found_whole() {
    let found = find_all_symbols(UNPARSED_TEMPLATE_IN_CLASS, CPP, "Argument").expect("lookup");
    let class: Vec<_> = found
        .iter()
        .filter(|s| s.node_type == "class_specifier")
        .collect();
    assert_eq!(class.len(), 1, "{found:?}");
    assert_eq!((class[0].start_line, class[0].end_line), (3, 16));
    let new_text = UNPARSED_TEMPLATE_IN_CLASS.replace("    var = 0;\n", "    var = 1;\n");
    let lines: Vec<&str> = new_text.lines().collect();
    let new = lines[2..16].join("\n");
    let (reply, after) = symbol_edit("argparse.hpp", UNPARSED_TEMPLATE_IN_CLASS, "Argument", &new);
    assert!(reply.starts_with("Success"), "{reply}");
    assert_eq!(after, new_text);
    let store = find_all_symbols(UNPARSED_TEMPLATE_IN_CLASS, CPP, "store_into").expect("lookup");
    assert_eq!(store.len(), 1, "{store:?}");
    assert_eq!((store[0].start_line, store[0].end_line), (8, 12));
}

/// Overloads of one name in one class.
const OVERLOADS: &str = "\
class Argument {
public:
  auto &store_into(bool &var) {
    flag(var);
    return *this;
  }

  auto &store_into(int &var) {
    var = 0;
    return *this;
  }
};
";

#[test]
fn the_overload_whose_signature_new_string_repeats_is_replaced() {
    let new = "auto &store_into(int &var) {\n  var = 1;\n  return *this;\n}";
    let (reply, after) = symbol_edit("arg.hpp", OVERLOADS, "store_into", new);
    assert!(reply.starts_with("Success"), "{reply}");
    assert_eq!(after, OVERLOADS.replace("    var = 0;\n", "    var = 1;\n"));
}

#[test]
fn an_overload_with_a_new_signature_is_refused_with_a_line_hint() {
    let new = "auto &store_into(long &var) {\n  var = 1;\n  return *this;\n}";
    let (reply, after) = symbol_edit("arg.hpp", OVERLOADS, "store_into", new);
    assert!(reply.contains("Add @LINE"), "{reply}");
    assert!(
        reply.contains("line 3") && reply.contains("line 8"),
        "{reply}"
    );
    assert_eq!(after, OVERLOADS);
}

/// Two overloads, the second in a part of the file that reads neither as a definition nor through
/// the braces (a macro opens a block in its body): the first, the only one found, is not taken
/// for a name without `@LINE`, since the one meant may be the unread one.
const UNREAD_OVERLOAD: &str = "\
template <typename T, typename Int, ENABLE_IF(std::is_integral<T>::value)>
inline auto to_int(T value, Int upper) -> Int {
  return static_cast<Int>(value);
}
template <typename T, typename Int, ENABLE_IF(!std::is_integral<T>::value)>
inline auto to_int(T value, Int upper) -> Int {
  auto int_value = static_cast<Int>(value);
  FOR_EACH(x) BLOCK_START
    check(x);
  }
  return int_value;
}
";

#[test]
fn a_same_named_definition_that_could_not_be_read_refuses_the_found_one() {
    let lines: Vec<&str> = UNREAD_OVERLOAD.lines().collect();
    let new = lines[4..].join("\n").replace("check(x)", "verify(x)");
    let (reply, after) = symbol_edit("chrono.h", UNREAD_OVERLOAD, "to_int", &new);
    assert!(reply.contains("parse error at line 6"), "{reply}");
    assert_eq!(after, UNREAD_OVERLOAD);
    let first = find_all_symbols(UNREAD_OVERLOAD, CPP, "to_int@2").expect("lookup");
    assert_eq!(first.len(), 1, "{first:?}");
}
