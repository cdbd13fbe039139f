// A scripted stand-in for an OpenAI Agents SDK model (no network), shared by the suites that drive
// a real `Runner` through edit-engine's OpenAI tools.
import { Usage } from '@openai/agents';

/** A function_call output item: the model calls tool `name` with `args` (JSON-encoded). */
export const functionCall = (id, name, args) => ({ type: 'function_call', callId: id, name, arguments: JSON.stringify(args), status: 'completed' });

/** An assistant message output item holding `text`. */
export const say = (text) => ({ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text }] });

/**
 * A model that answers each request with the next of `outputs` (consumed in order) and records
 * every request it saw in `requests`. Streaming is not supported.
 */
export function scriptedModel(outputs) {
  const requests = [];
  const model = {
    async getResponse(request) {
      requests.push(request);
      return { usage: new Usage(), output: [outputs.shift()], responseId: `r${requests.length}` };
    },
    async *getStreamedResponse() {
      throw new Error('not used');
    },
  };
  return { model, requests };
}
