// README's Anthropic example (the lines between the `README example` markers, copied verbatim into
// README.md; __test__/readme.test.mjs checks the copy) under tsc --strict, without a cast: the
// definition is a `ToolUnion` for each text editor version, and the tools' input schemas are
// `InputSchema`s.
// README example: begin
import Anthropic from '@anthropic-ai/sdk';
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages/messages';
import { createTextEditorHandler } from 'edit-engine/anthropic';

export async function renameFoo(root: string): Promise<MessageParam[]> {
  const client = new Anthropic();
  const editor = createTextEditorHandler({ allowedFolders: [root], cwd: root }); // text_editor_20250728
  const messages: MessageParam[] = [{ role: 'user', content: 'Rename foo to bar in src/a.js' }];
  for (;;) {
    const message = await client.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 4096, tools: [editor.definition], messages });
    messages.push({ role: 'assistant', content: message.content });
    if (message.stop_reason !== 'tool_use') return messages;
    messages.push({ role: 'user', content: await editor.handleAll(message.content) });
  }
}
// README example: end

import type { Tool, ToolUnion, ToolTextEditor20250124, ToolTextEditor20250429, ToolTextEditor20250728 } from '@anthropic-ai/sdk/resources/messages/messages';
import { textEditorDefinition } from 'edit-engine/anthropic';
import { editTool, grepTool } from 'edit-engine';

const root = '/repo';
const latest: ToolTextEditor20250728 = createTextEditorHandler({ allowedFolders: [root], cwd: root }).definition;
const v1: ToolTextEditor20250124 = createTextEditorHandler({ version: '20250124' }).definition;
const v2: ToolTextEditor20250429 = textEditorDefinition({ version: 'text_editor_20250429' });
const edit = editTool({ cwd: root });
const custom: Tool = { name: edit.name, description: edit.description, input_schema: edit.inputSchema };
const grep = grepTool({ cwd: root });
export const tools: ToolUnion[] = [latest, v1, v2, custom, { name: grep.name, description: grep.description, input_schema: grep.inputSchema }];
