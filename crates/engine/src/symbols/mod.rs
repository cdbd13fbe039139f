//! AST symbol lookup and symbol edits (tree-sitter). Filled in by the symbol-mode work (issue 4).
