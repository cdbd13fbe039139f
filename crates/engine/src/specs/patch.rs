//! The patch tools: OpenAI's apply_patch envelope and apply_diff (unified diffs, SEARCH/REPLACE).

use super::{Access, Param, Serving, Shape, ToolSpec, WORKING_DIRECTORY};

pub const APPLY_PATCH: ToolSpec = ToolSpec {
    name: "apply_patch",
    factory: "applyPatchTool",
    access: Access::Write,
    serving: Serving::WhenNamed,
    summary: APPLY_PATCH_DESCRIPTION,
    description: APPLY_PATCH_DESCRIPTION,
    definition: None,
    params: &[
        Param::required(
            "input",
            Shape::String,
            "The whole patch, from \"*** Begin Patch\" to \"*** End Patch\"",
        ),
        WORKING_DIRECTORY,
    ],
    probe_params: None,
};

const APPLY_PATCH_DESCRIPTION: &str = r#"Apply a patch in the apply_patch format to one or more files. The input is one envelope:

*** Begin Patch
*** Add File: path/new.txt
+every line of the new file, each prefixed with +
*** Delete File: path/old.txt
*** Update File: path/file.py
*** Move to: path/renamed.py   (optional)
@@ class Outer                  (optional anchors, outermost first, to narrow the place)
@@     def method(self):
 context line (3 before and after each change)
-removed line
+added line
*** End Patch

Context and removed lines must match the file (trailing whitespace, indentation and typographic quotes are forgiven); hunks apply in order. All files change together or none does."#;

pub const APPLY_DIFF: ToolSpec = ToolSpec {
    name: "apply_diff",
    factory: "applyDiffTool",
    access: Access::Write,
    serving: Serving::WhenNamed,
    summary: APPLY_DIFF_DESCRIPTION,
    description: APPLY_DIFF_DESCRIPTION,
    definition: None,
    params: &[
        Param::required(
            "diff",
            Shape::String,
            "A unified diff or SEARCH/REPLACE blocks",
        ),
        Param::optional(
            "path",
            Shape::String,
            "The file the diff applies to when the diff does not name it",
        ),
        WORKING_DIRECTORY,
    ],
    probe_params: None,
};

const APPLY_DIFF_DESCRIPTION: &str = r#"Apply a diff to one or more files, in either form:
- a unified diff ("--- a/path", "+++ b/path", then "@@ -l,n +l,n @@" hunks of " ", "-", "+" lines); hunks are placed by their context, line numbers only break ties, so numbers may be off or missing ("@@" alone);
- SEARCH/REPLACE blocks: the file path on its own line (or the path parameter), then
<<<<<<< SEARCH
exact lines to find
=======
lines to put instead
>>>>>>> REPLACE
(an optional ":start_line:N" line after SEARCH says where the lines are expected).
All files change together or none does."#;
