'use strict';
// Strict-mode JSON schemas (OpenAI structured outputs): every property required, optional ones
// made nullable, `additionalProperties: false` at every object level. A model then sends `null`
// for a parameter it leaves out; `dropNulls` turns those back into absent parameters.

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

/** `prop` accepting null as well (for an optional property), or null when that is not expressible. */
function nullable(prop) {
  if (typeof prop.type === 'string') {
    const out = { ...prop, type: [prop.type, 'null'] };
    if (Array.isArray(prop.enum)) out.enum = [...prop.enum, null];
    return out;
  }
  if (Array.isArray(prop.anyOf)) return { ...prop, anyOf: [...prop.anyOf, { type: 'null' }] };
  return null;
}

/** `schema` (any level) in strict form, or null when it cannot be (a free-form object). */
function strictNode(schema) {
  if (!isObject(schema)) return schema;
  if (schema.type === 'object') return strictObject(schema);
  const out = { ...schema };
  if (schema.items !== undefined) {
    out.items = strictNode(schema.items);
    if (out.items === null) return null;
  }
  if (Array.isArray(schema.anyOf)) {
    out.anyOf = schema.anyOf.map(strictNode);
    if (out.anyOf.includes(null)) return null;
  }
  return out;
}

/** An object schema in strict form, or null when it allows properties it does not list. */
function strictObject(schema) {
  if (schema.additionalProperties !== false || !isObject(schema.properties)) return null;
  const required = new Set(schema.required || []);
  const properties = {};
  for (const [key, prop] of Object.entries(schema.properties)) {
    const strict = strictNode(prop);
    const entry = strict === null ? null : required.has(key) ? strict : nullable(strict);
    if (entry === null) return null;
    properties[key] = entry;
  }
  return { ...schema, properties, required: Object.keys(properties), additionalProperties: false };
}

/** The strict form of a tool's input schema, or null when the tool needs the non-strict one. */
function strictSchema(schema) {
  return isObject(schema) && schema.type === 'object' ? strictObject(schema) : null;
}

/** `value` with every null object property removed (at any depth): what a strict model sent as "absent". */
function dropNulls(value) {
  if (Array.isArray(value)) return value.map(dropNulls);
  if (!isObject(value)) return value;
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null).map(([k, v]) => [k, dropNulls(v)]));
}

module.exports = { strictSchema, dropNulls };
