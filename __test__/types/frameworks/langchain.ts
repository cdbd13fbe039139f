// README's LangChain example (the lines between the `README example` markers, copied verbatim into
// README.md; __test__/readme.test.mjs checks the copy) under tsc --strict, without a cast.
// README example: begin
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { HumanMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { createLangChainTools } from 'edit-engine/langchain';

export async function renameFoo(model: BaseChatModel, root: string): Promise<BaseMessage[]> {
  const tools = createLangChainTools({ allowedFolders: [root], cwd: root, tools: ['edit', 'view'] });
  const byName = new Map(tools.map((t) => [t.name, t]));
  const bound = model.bindTools!(tools);
  const messages: BaseMessage[] = [new HumanMessage('Rename foo to bar in src/a.js')];
  for (;;) {
    const reply = await bound.invoke(messages);
    messages.push(reply);
    if (!reply.tool_calls?.length) return messages;
    for (const call of reply.tool_calls) {
      const result = await byName.get(call.name)!.invoke(call); // a failure is a ToolMessage with status 'error'
      if (result instanceof ToolMessage) messages.push(result);
    }
  }
}
// README example: end

import type { StructuredToolInterface } from '@langchain/core/tools';

export const typed: StructuredToolInterface[] = createLangChainTools({ tools: 'editing' });
