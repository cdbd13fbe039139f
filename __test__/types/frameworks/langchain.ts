// README's LangChain example under tsc --strict, without a cast.
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { HumanMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import type { StructuredToolInterface } from '@langchain/core/tools';
import { createLangChainTools } from 'edit-engine/langchain';

declare const model: BaseChatModel;
const root = '/repo';

export async function go(): Promise<BaseMessage[]> {
  const tools: StructuredToolInterface[] = createLangChainTools({ allowedFolders: [root], cwd: root, tools: ['edit', 'view'] });
  const byName = new Map(tools.map((t) => [t.name, t]));
  const bound = model.bindTools!(tools);
  const messages: BaseMessage[] = [new HumanMessage('Rename foo to bar in src/a.js')];
  const reply = await bound.invoke(messages);
  messages.push(reply);
  for (const call of reply.tool_calls ?? []) {
    const result: unknown = await byName.get(call.name)!.invoke(call);
    if (result instanceof ToolMessage) messages.push(result);
  }
  return messages;
}
