//! The host's tools that the engine's messages point the model to: one to read a file, one to
//! search, one to create a file. Every sentence that names another tool is written here, with the
//! host's names (Probe's by default: `extract`, `search`, `create`), so no layer above rewrites
//! the engine's messages.

/// The names of the host's read, search and create tools; `None` where the host has no such
/// tool (a message then says what to do without naming one).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostTools {
    pub read: Option<String>,
    pub search: Option<String>,
    pub create: Option<String>,
}

impl Default for HostTools {
    /// Probe's tools: the names the messages use when the host gives none.
    fn default() -> Self {
        HostTools {
            read: Some("extract".into()),
            search: Some("search".into()),
            create: Some("create".into()),
        }
    }
}

/// `names` that exist, each as `quote` shows it, joined by " or ".
fn either(names: &[&Option<String>], quote: fn(&str) -> String) -> String {
    let present: Vec<String> = names
        .iter()
        .filter_map(|n| n.as_deref())
        .map(quote)
        .collect();
    present.join(" or ")
}

fn quoted(name: &str) -> String {
    format!("'{name}'")
}

impl HostTools {
    /// Whether these are Probe's own tools (whose sentences name them Probe's way).
    fn is_probe(&self) -> bool {
        *self == HostTools::default()
    }

    /// How a sentence starts that sends the model to read `path` (first, or `again`), up to and
    /// including "read": Probe's extract of `target` (`path`, or `path#symbol`), the host's read
    /// tool on `path`, or a bare "Read" / "Re-read".
    pub fn read_lead(&self, path: &str, target: &str, again: bool) -> String {
        let re = if again { "re-" } else { "" };
        if self.is_probe() {
            return format!("Use the extract tool with targets=\"{target}\" to {re}read");
        }
        match &self.read {
            Some(read) => format!("Use the {read} tool with path=\"{path}\" to {re}read"),
            None if again => "Re-read".into(),
            None => "Read".into(),
        }
    }

    /// "Use <search or read tool> to", or "Re-read the file to" when the host has neither.
    pub fn use_search_or_read(&self) -> String {
        if self.is_probe() {
            return "Use 'search' or 'extract' to".into();
        }
        match either(&[&self.search, &self.read], quoted) {
            tools if tools.is_empty() => "Re-read the file to".into(),
            tools => format!("Use {tools} to"),
        }
    }

    /// "Use <read tool> to", or "Re-read the file to" when the host has none.
    pub fn use_read(&self) -> String {
        match &self.read {
            _ if self.is_probe() => "Use 'extract' to".into(),
            Some(read) => format!("Use '{read}' to"),
            None => "Re-read the file to".into(),
        }
    }

    /// Where line references come from: "<read>/<search> output", or "the file".
    pub fn line_source(&self) -> String {
        if self.is_probe() {
            return "extract/search output".into();
        }
        let tools: Vec<&str> = [&self.read, &self.search]
            .into_iter()
            .filter_map(|n| n.as_deref())
            .collect();
        if tools.is_empty() {
            "the file".into()
        } else {
            format!("{} output", tools.join("/"))
        }
    }

    /// The sentence (with its leading space) after "the file does not exist" that offers the
    /// search tool to find the file and the create tool to make it; empty when the host has neither.
    pub fn find_or_create(&self) -> String {
        if self.is_probe() {
            return " Use 'search' to find files by name, or 'create' to make a new file.".into();
        }
        let search = self
            .search
            .as_deref()
            .map(|s| format!("'{s}' to find files"));
        let create = self
            .create
            .as_deref()
            .map(|c| format!("'{c}' to make a new file"));
        let parts: Vec<String> = [search, create].into_iter().flatten().collect();
        if parts.is_empty() {
            String::new()
        } else {
            format!(" Use {}.", parts.join(", or "))
        }
    }

    /// The file-tracker refusal of a file edited `count` times since it was last read.
    pub fn edited_unread(&self, count: u32) -> String {
        format!(
            "This file has been edited {count} times without being re-read. {} re-read the current file content before making more edits, to ensure you are working with the actual state of the file.",
            self.use_read()
        )
    }
}
