// README's Anthropic example under tsc --strict, without a cast: the definition is a `ToolUnion`
// for each text editor version, and the tools' input schemas are `InputSchema`s.
import Anthropic from '@anthropic-ai/sdk';
import type { MessageParam, Tool, ToolUnion, ToolTextEditor20250124, ToolTextEditor20250429, ToolTextEditor20250728 } from '@anthropic-ai/sdk/resources/messages/messages';
import { createTextEditorHandler, textEditorDefinition } from 'edit-engine/anthropic';
import { editTool, grepTool } from 'edit-engine';

const client = new Anthropic({ apiKey: 'test' });
const root = '/repo';

export async function run(messages: MessageParam[]): Promise<void> {
  const editor = createTextEditorHandler({ allowedFolders: [root], cwd: root });
  const latest: ToolTextEditor20250728 = editor.definition;
  const message = await client.messages.create({ model: 'claude-sonnet-4-5', max_tokens: 4096, tools: [editor.definition], messages });
  const results = await editor.handleAll(message.content);
  messages.push({ role: 'assistant', content: message.content }, { role: 'user', content: results });
  const v1: ToolTextEditor20250124 = createTextEditorHandler({ version: '20250124' }).definition;
  const v2: ToolTextEditor20250429 = textEditorDefinition({ version: 'text_editor_20250429' });
  const edit = editTool({ cwd: root });
  const custom: Tool = { name: edit.name, description: edit.description, input_schema: edit.inputSchema };
  const grep = grepTool({ cwd: root });
  const tools: ToolUnion[] = [latest, v1, v2, custom, { name: grep.name, description: grep.description, input_schema: grep.inputSchema }];
  void tools;
}
