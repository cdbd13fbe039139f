// Loads the package by its name from ESM (`import 'edit-engine'`, resolved through its exports)
// and replaces `const b = 1;` in <dir>/b.js; prints the tool's answer.
import { editTool } from 'edit-engine';

const [dir] = process.argv.slice(2);
const edit = editTool({ allowedFolders: [dir], cwd: dir });
console.log(await edit.execute({ file_path: 'b.js', old_string: 'const b = 1;', new_string: 'const b = 2;' }));
