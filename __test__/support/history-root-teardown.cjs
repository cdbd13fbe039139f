'use strict';
// Jest's global teardown: removes the run's undo-store folder.
module.exports = async () => require('./history-root.cjs').removeRunHistoryRoot();
