//! Deterministic code-like inputs for the criterion benches (same shape as `bench/gen.mjs`:
//! numbered units whose identifiers carry their index, so every line of a unit is unique).

/// A JavaScript source of about `bytes` bytes (whole units) and the index of the checksum
/// function nearest its middle.
pub fn source(bytes: usize) -> (String, usize) {
    let mut out = String::with_capacity(bytes + 1024);
    let mut units = 0;
    while out.len() < bytes {
        out.push_str(&unit(units));
        units += 1;
    }
    let mid = units / 2;
    (out, mid - mid % 4)
}

fn unit(i: usize) -> String {
    let k = 2 + i % 7;
    match i % 4 {
        0 => format!(
            "/**\n * Computes the checksum for unit {i}.\n * @param {{number[]}} items values to fold\n */\nexport function computeChecksum{i}(items, options = {{}}) {{\n  const limit_{i} = options.limit ?? {l};\n  let total = 0;\n  for (const item of items) {{\n    if (item > limit_{i}) {{\n      total += item * {k};\n    }} else {{\n      total -= item % {m};\n    }}\n  }}\n  return total;\n}}\n\n",
            l = 10 + i % 90,
            m = 3 + i % 9
        ),
        1 => format!(
            "export class Service{i} {{\n  constructor(client, retries = {k}) {{\n    this.client = client;\n    this.retries = retries;\n    this.cache_{i} = new Map();\n  }}\n\n  async fetch{i}(id) {{\n    if (this.cache_{i}.has(id)) {{\n      return this.cache_{i}.get(id);\n    }}\n    const response = await this.client.get(`/records/${{id}}?v={i}`);\n    this.cache_{i}.set(id, response.data);\n    return response.data;\n  }}\n}}\n\n"
        ),
        2 => format!(
            "export const config{i} = {{\n  record_{i}_0: {k},\n  batch_{i}_1: 'merge-{i}-1',\n  token_{i}_2: {},\n}};\n\n",
            i * 7 % 1000
        ),
        _ => format!(
            "// Helpers for unit {i}: keep values within bounds.\nexport const clampValue{i} = (x) => Math.max(0, Math.min({}, x * {k}));\nexport const isEven{i} = (x) => x % 2 === 0;\n\n",
            100 + i
        ),
    }
}

/// The three lines of the target function's `if` block, as they appear in the source.
pub fn target_lines(t: usize) -> [String; 3] {
    [
        format!("    if (item > limit_{t}) {{"),
        format!("      total += item * {};", 2 + t % 7),
        "    } else {".to_string(),
    ]
}

/// Searches derived from the target lines, each crafted so that one strategy (or none) matches.
#[allow(dead_code)] // the `lines` bench includes this module without using it
pub struct Searches {
    /// One indentation level less on every line: line-trimmed (and indent-flexible) match.
    pub trimmed: String,
    /// Internal white space drifted: only whitespace-normalized matches.
    pub drifted: String,
    /// Middle line slightly off: only block-anchor matches.
    pub anchored: String,
    /// Middle line replaced: nothing matches.
    pub unmatched: String,
}

/// The [`Searches`] of the target lines `[a, b, e]` (see [`target_lines`]).
#[allow(dead_code)]
pub fn searches([a, b, e]: &[String; 3]) -> Searches {
    Searches {
        trimmed: [&a[2..], &b[2..], &e[2..]].join("\n"),
        drifted: format!(
            "{}\n{}",
            a.replace(" > ", "  >  "),
            b.replace(" += ", "  +=  ")
        ),
        anchored: [&a[..], &b.replace("item", "itme"), &e[..]].join("\n"),
        unmatched: [&a[..], "      total = unrelated(call, here);", &e[..]].join("\n"),
    }
}
