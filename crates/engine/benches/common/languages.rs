//! One repeatable unit of code per supported language (a documented function and a type with a
//! method, numbered so every name is unique), for the per-language symbol lookup bench.

use edit_engine_core::symbols::Language;

/// The unit numbered `i` in `lang`: defines `compute{i}` and the method [`target`] names.
pub fn unit(lang: Language, i: usize) -> String {
    match lang {
        Language::JavaScript => format!("/** Sums unit {i}. */\nexport function compute{i}(a, b) {{\n  return a + b * {i};\n}}\n\nclass Store{i} {{\n  put{i}(x) {{\n    this.items.push(x);\n  }}\n}}\n\n"),
        Language::TypeScript | Language::Tsx => format!("/** Sums unit {i}. */\nexport function compute{i}(a: number, b: number): number {{\n  return a + b * {i};\n}}\n\nexport class Store{i} {{\n  private items: number[] = [];\n  put{i}(x: number): void {{\n    this.items.push(x);\n  }}\n}}\n\n"),
        Language::Python => format!("def compute{i}(a, b):\n    \"\"\"Sums unit {i}.\"\"\"\n    return a + b * {i}\n\n\nclass Store{i}:\n    def put{i}(self, x):\n        self.items.append(x)\n\n\n"),
        Language::Rust => format!("/// Sums unit {i}.\npub fn compute{i}(a: i64, b: i64) -> i64 {{\n    a + b * {i}\n}}\n\npub struct Store{i} {{\n    items: Vec<i64>,\n}}\n\nimpl Store{i} {{\n    pub fn put{i}(&mut self, x: i64) {{\n        self.items.push(x);\n    }}\n}}\n\n"),
        Language::Go => format!("// compute{i} sums unit {i}.\nfunc compute{i}(a int, b int) int {{\n\treturn a + b*{i}\n}}\n\ntype Store{i} struct {{\n\titems []int\n}}\n\nfunc (s *Store{i}) put{i}(x int) {{\n\ts.items = append(s.items, x)\n}}\n\n"),
        Language::Java => format!("class Store{i} {{\n    /** Sums unit {i}. */\n    static int compute{i}(int a, int b) {{\n        return a + b * {i};\n    }}\n\n    void put{i}(int x) {{\n        items.add(x);\n    }}\n}}\n\n"),
        Language::C => format!("/* Sums unit {i}. */\nint compute{i}(int a, int b) {{\n    return a + b * {i};\n}}\n\nstruct Store{i} {{\n    int items[8];\n}};\n\nvoid put{i}(struct Store{i} *s, int x) {{\n    s->items[0] = x;\n}}\n\n"),
        Language::Cpp => format!("// Sums unit {i}.\nint compute{i}(int a, int b) {{\n    return a + b * {i};\n}}\n\nclass Store{i} {{\npublic:\n    void put{i}(int x) {{\n        items.push_back(x);\n    }}\n}};\n\n"),
        Language::Ruby => format!("# Sums unit {i}.\ndef compute{i}(a, b)\n  a + b * {i}\nend\n\nclass Store{i}\n  def put{i}(x)\n    @items << x\n  end\nend\n\n"),
        Language::Php => format!("/** Sums unit {i}. */\nfunction compute{i}($a, $b) {{\n    return $a + $b * {i};\n}}\n\nclass Store{i} {{\n    public function put{i}($x) {{\n        $this->items[] = $x;\n    }}\n}}\n\n"),
        Language::Swift => format!("/// Sums unit {i}.\nfunc compute{i}(a: Int, b: Int) -> Int {{\n    return a + b * {i}\n}}\n\nclass Store{i} {{\n    func put{i}(x: Int) {{\n        items.append(x)\n    }}\n}}\n\n"),
        Language::Kotlin => format!("/** Sums unit {i}. */\nfun compute{i}(a: Int, b: Int): Int {{\n    return a + b * {i}\n}}\n\nclass Store{i} {{\n    fun put{i}(x: Int) {{\n        items.add(x)\n    }}\n}}\n\n"),
        Language::Scala => format!("/** Sums unit {i}. */\ndef compute{i}(a: Int, b: Int): Int = {{\n  a + b * {i}\n}}\n\nclass Store{i} {{\n  def put{i}(x: Int): Unit = {{\n    items += x\n  }}\n}}\n\n"),
        Language::CSharp => format!("class Store{i} {{\n    /// <summary>Sums unit {i}.</summary>\n    static int Compute{i}(int a, int b) {{\n        return a + b * {i};\n    }}\n\n    void put{i}(int x) {{\n        items.Add(x);\n    }}\n}}\n\n"),
        Language::Lua => format!("-- Sums unit {i}.\nfunction compute{i}(a, b)\n  return a + b * {i}\nend\n\nStore{i} = {{}}\n\nfunction Store{i}.put{i}(x)\n  table.insert(Store{i}.items, x)\nend\n\n"),
        Language::Zig => format!("/// Sums unit {i}.\npub fn compute{i}(a: i64, b: i64) i64 {{\n    return a + b * {i};\n}}\n\npub const Store{i} = struct {{\n    len: usize = 0,\n\n    pub fn put{i}(self: *Store{i}, x: i64) void {{\n        _ = x;\n        self.len += 1;\n    }}\n}};\n\n"),
    }
}

/// The name of unit `i`'s method: `Store{i}.put{i}` (a free function `put{i}` in C).
pub fn target(lang: Language, i: usize) -> String {
    match lang {
        Language::C => format!("put{i}"),
        _ => format!("Store{i}.put{i}"),
    }
}

/// A source of about `bytes` bytes of units in `lang`, and the number of the unit nearest its middle.
pub fn source(lang: Language, bytes: usize) -> (String, usize) {
    let prelude = match lang {
        Language::Php => "<?php\n\n",
        Language::Go => "package main\n\n",
        _ => "",
    };
    let mut out = String::from(prelude);
    let mut units = 0;
    while out.len() < bytes {
        out.push_str(&unit(lang, units));
        units += 1;
    }
    (out, units / 2)
}
