// Each tool's contract has one home, the engine's tool spec table; lib/tool-params.d.ts is
// generated from it (scripts/tool-types.mjs). Checked here under tsc --strict: the parameter
// types hosts call with (the edit tool's per-mode union included, which is written by hand on top
// of the generated fields) have exactly the schema's properties and require its required keys.
import type { ToolParamsByName, ToolSchemaKeys } from '../../lib/tool-params.js';

type Params = ToolParamsByName;
/** Keys of any member of a union. */
type AnyKey<T> = T extends unknown ? keyof T : never;
/** Keys some member of a union requires... and every member requires `K`. */
type RequiredIn<T, K extends PropertyKey> = T extends unknown ? (K extends keyof T ? ({} extends Pick<T, K> ? false : true) : false) : never;
/** Parameters hosts may add that a schema may leave out (`view`'s `max_characters` is not offered to the model; the text editor's is). */
type HostOnly = 'workingDirectory' | 'max_characters';

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<T extends true> = T;

/** Every schema property is a typed parameter and vice versa (host-only ones aside). */
export type PropertiesAgree = Assert<
  Same<{ [N in keyof Params]: Same<Exclude<ToolSchemaKeys[N]['properties'], HostOnly>, Exclude<AnyKey<Params[N]>, HostOnly>> }[keyof Params], true>
>;
/** Every key the schema requires is required by the type (in every member of a union). */
export type RequiredAgree = Assert<
  Same<{ [N in keyof Params]: RequiredIn<Params[N], ToolSchemaKeys[N]['required']> }[keyof Params], true>
>;
/** The schema keys cover exactly the served tools. */
export type ToolsAgree = Assert<Same<keyof ToolSchemaKeys, keyof Params>>;
