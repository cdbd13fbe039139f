'use strict';
// Approval before a write, for the framework adapters (`needsApproval`): when a call needs
// approval its preview is planned and stored under the call's id; the approved execution of that
// call applies exactly that preview (refused if a file changed in between), and a denied call is
// never executed, so nothing is written.

const { resultOf } = require('./tools.cjs');

/**
 * The approval gate of `engineTool` for the adapter option `needsApproval` (a boolean, or a
 * function the adapter calls with the SDK's own arguments), or null when calls need no approval
 * (option absent or false, or a tool that does not write).
 *
 * - `check(input, callId, decide)`: whether the call needs approval; `decide()` runs the host's
 *   function (or reads the boolean). A call that needs it is previewed under `callId`; a call
 *   whose preview changes no file (a view) needs none.
 * - `run(input, callId)`: the call's structured result: its stored preview applied when it has
 *   one (the failure itself when its preview failed), else (no preview: the call needed no
 *   approval) the call run directly.
 */
function approvalGate(engineTool, needsApproval) {
  if (needsApproval === undefined || needsApproval === false) return null;
  if (typeof engineTool.preview !== 'function') return null;
  const check = async (input, callId, decide) => {
    if (!(await decide()) || typeof callId !== 'string' || callId === '') return false;
    const shown = await engineTool.preview(input, { toolCallId: callId });
    return shown.files.length > 0;
  };
  const run = async (input, callId) => {
    if (typeof callId !== 'string' || callId === '') return resultOf(engineTool, input);
    const applied = await engineTool.applyPreview({ toolCallId: callId });
    return applied.kind === 'not_found' ? resultOf(engineTool, input) : applied;
  };
  return { check, run };
}

/** The host's `needsApproval` decision for one call: a boolean option, or its function's answer. */
const decision = (needsApproval, args) => async () =>
  typeof needsApproval === 'function' ? Boolean(await needsApproval(...args)) : Boolean(needsApproval);

module.exports = { approvalGate, decision };
