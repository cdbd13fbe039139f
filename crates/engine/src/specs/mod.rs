//! The tool specs: one entry per tool the package serves, with its name, what it may do to files,
//! the texts a host shows the model (summary, description, Probe's XML-style definition) and its
//! parameters, each with its type and description. The JSON schemas hosts receive, the JS
//! factories' names and descriptions, the adapters' tool lists and the TypeScript parameter types
//! all come from this table (see [`to_json`]); nothing else states a tool's contract.
//!
//! The parameters are data (not derived from the tools' request types), written so they could
//! be generated from those types' fields and doc comments later.

mod edit;
mod files;
mod host_tools;
mod patch;
mod render;
mod text_editor;

#[cfg(test)]
mod tests;

pub use host_tools::HostTools;
pub use render::to_json;

/// What a tool may do to the files under its root.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// Reads only: served by every adapter.
    Read,
    /// Writes files: served only when editing is allowed.
    Write,
}

/// When the adapters (MCP server, framework adapters, CLI) serve a tool.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Serving {
    /// In the default tool sets (write tools only when editing is allowed).
    Default,
    /// Only when a host names it (or a preset that names it): keeps the default sets small.
    WhenNamed,
    /// Never by the adapters: a variant its factory builds on request (an older text editor).
    Never,
}

/// The JSON-schema shape of a parameter.
#[derive(Debug)]
pub enum Shape {
    String,
    Boolean,
    /// An integer, with its least value when it has one.
    Integer {
        minimum: Option<u32>,
    },
    /// A string that must be one of these.
    Enum(&'static [&'static str]),
    /// An array of `items`, with optional length bounds.
    Array {
        items: &'static Shape,
        min_items: Option<u32>,
        max_items: Option<u32>,
    },
    /// An object with exactly these properties (`additionalProperties: false`).
    Object(&'static [Param]),
    /// An object with any properties.
    OpenObject,
    /// Any one of these shapes.
    AnyOf(&'static [Shape]),
}

/// Who gives a parameter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GivenBy {
    /// The model: the parameter is in the tool's schema.
    Model,
    /// Only the host calling the tool (never offered to the model, absent from the schema).
    Host,
}

/// One parameter of a tool (or a property of an object parameter).
#[derive(Debug)]
pub struct Param {
    pub name: &'static str,
    pub shape: Shape,
    pub required: bool,
    /// What the model is told about it (the schema's `description`); empty: none.
    pub description: &'static str,
    pub given_by: GivenBy,
    /// Its TypeScript type when wider than the schema's (values the engine also accepts).
    pub ts_type: Option<&'static str>,
}

impl Param {
    /// A parameter the call must give.
    pub const fn required(name: &'static str, shape: Shape, description: &'static str) -> Self {
        Param {
            name,
            shape,
            required: true,
            description,
            given_by: GivenBy::Model,
            ts_type: None,
        }
    }

    /// A parameter the call may leave out.
    pub const fn optional(name: &'static str, shape: Shape, description: &'static str) -> Self {
        Param {
            required: false,
            ..Param::required(name, shape, description)
        }
    }

    /// This parameter with a TypeScript type wider than its schema's.
    pub const fn ts(self, ts_type: &'static str) -> Self {
        Param {
            ts_type: Some(ts_type),
            ..self
        }
    }

    /// This parameter given by the host only (absent from the schema).
    pub const fn host_only(self) -> Self {
        Param {
            given_by: GivenBy::Host,
            ..self
        }
    }
}

/// The directory a relative path is resolved against, which every tool call accepts from its host.
pub const WORKING_DIRECTORY: Param = Param::optional(
    "workingDirectory",
    Shape::String,
    "Resolves a relative path; takes priority over the tool's `cwd` option.",
)
.host_only();

/// One tool's contract.
#[derive(Debug)]
pub struct ToolSpec {
    /// The name hosts register and the model calls.
    pub name: &'static str,
    /// The package export that builds the tool object.
    pub factory: &'static str,
    pub access: Access,
    pub serving: Serving,
    /// One sentence on what the tool does (Probe's short description exports).
    pub summary: &'static str,
    /// The tool object's `description`.
    pub description: &'static str,
    /// Probe's XML-style tool definition, for the tools Probe defines that way.
    pub definition: Option<&'static str>,
    pub params: &'static [Param],
    /// Probe's own schema export for the tool when it differs from the tool object's.
    pub probe_params: Option<&'static [Param]>,
}

/// Every tool spec, in the order the adapters serve the tools.
pub const ALL: &[ToolSpec] = &[
    files::VIEW,
    files::GREP,
    edit::EDIT,
    edit::CREATE,
    edit::MULTI_EDIT,
    files::EDIT_FILE,
    files::REPLACE_IN_FILE,
    text_editor::CURRENT,
    patch::APPLY_PATCH,
    patch::APPLY_DIFF,
    text_editor::WITH_UNDO,
];

/// The spec of the tool named `name`.
pub fn find(name: &str) -> Option<&'static ToolSpec> {
    ALL.iter().find(|s| s.name == name)
}
