use edit_engine_core::symbols::{find_all_symbols, Language};

use crate::common::*;

const CS: Language = Language::CSharp;

const SRC: &str = r#"using System;

namespace Demo.Core
{
    /// <summary>A calculator.</summary>
    [Serializable]
    public class Calc
    {
        private int total;

        /// <summary>Adds x.</summary>
        [Obsolete("use Plus")]
        public int Add(int x)
        {
            total += x;
            return total;
        }

        public Calc() { }

        public int Total { get; set; }
    }

    public interface IShape
    {
        double Area();
    }
}
"#;

#[test]
fn namespaces_classes_methods() {
    assert_eq!(
        all_names(SRC, CS),
        vec![
            "Demo.Core",
            "Demo.Core.Calc",
            "Demo.Core.Calc.Add",
            "Demo.Core.Calc.Calc",
            "Demo.Core.Calc.Total",
            "Demo.Core.IShape",
            "Demo.Core.IShape.Area"
        ]
    );
    assert_eq!(
        span(&one(SRC, CS, "Calc.Add")),
        (11, 17, "method_declaration", "Demo.Core.Calc.Add")
    );
    assert_eq!(
        span(&one(SRC, CS, "Core.Calc")),
        (5, 22, "class_declaration", "Demo.Core.Calc")
    );
}

#[test]
fn constructor_shares_class_name() {
    let found: Vec<_> = find_all_symbols(SRC, CS, "Calc")
        .unwrap()
        .iter()
        .map(|s| s.node_type.clone())
        .collect();
    assert_eq!(found, vec!["class_declaration", "constructor_declaration"]);
}

#[test]
fn replace_keeps_doc_and_attribute() {
    let out = replace(
        SRC,
        CS,
        "Add",
        "public int Add(int x)\n{\n    return total += x;\n}",
    );
    assert!(out.contains("        /// <summary>Adds x.</summary>\n        [Obsolete(\"use Plus\")]\n        public int Add(int x)\n        {\n            return total += x;\n        }\n\n        public Calc() { }"));
}

#[test]
fn replace_restating_attribute() {
    let out = replace(SRC, CS, "Add", "[Pure]\npublic int Add(int x) => x;");
    assert!(out.contains("        /// <summary>Adds x.</summary>\n        [Pure]\n        public int Add(int x) => x;\n"));
    assert!(!out.contains("Obsolete"));
}

#[test]
fn insert_after_property() {
    let out = insert_after(SRC, CS, "Total", "public void Reset() { total = 0; }");
    assert!(out.contains("        public int Total { get; set; }\n\n        public void Reset() { total = 0; }\n    }"));
}

#[test]
fn not_found_suggests() {
    assert_suggests(SRC, CS, "Calc.Ad", "Demo.Core.Calc.Add");
}
