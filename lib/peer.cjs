'use strict';
// Optional peer dependencies: the frameworks an adapter serves are installed by the user, not by
// edit-engine. `requirePeer` loads one or says exactly what to install.

/** An error thrown when an adapter's framework is not installed; `peer` names the package. */
class MissingPeerError extends Error {
  constructor(peer, message, cause) {
    super(message);
    this.name = 'MissingPeerError';
    this.code = 'EDIT_ENGINE_MISSING_PEER';
    this.peer = peer;
    this.cause = cause;
  }
}

/** Whether `error` says that the package `peer` itself (not something inside it) cannot be found. */
function isMissing(error, peer) {
  return Boolean(error) && error.code === 'MODULE_NOT_FOUND' && String(error.message).includes(`'${peer}`);
}

/**
 * `require(request)`, where `request` is the package `peer` or a file inside it. When the package
 * is not installed, throws a `MissingPeerError` saying that `entry` needs it and how to install it
 * (`range`: the versions edit-engine supports).
 */
function requirePeer(request, { peer, range, entry, what }) {
  try {
    return require(request);
  } catch (error) {
    if (!isMissing(error, peer)) throw error;
    throw new MissingPeerError(
      peer,
      `${entry} needs ${what} (${peer} ${range}), which is not installed: npm install ${peer}`,
      error,
    );
  }
}

module.exports = { requirePeer, MissingPeerError };
