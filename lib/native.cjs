'use strict';
// The napi-generated loader picks the right platform binary.
module.exports = require('../index.js');
