//! The spec table as JSON, key order kept (hosts receive the schemas as written here).

use super::{Access, GivenBy, Param, Serving, Shape, ToolSpec, ALL};
use serde::ser::{SerializeMap, SerializeSeq, Serializer};
use serde::Serialize;

/// Every spec as a JSON array: `{ name, factory, access, serving, summary, description,
/// definition, inputSchema, probeSchema, params }`, where `inputSchema` is the JSON schema hosts
/// register, `probeSchema` Probe's own schema export (or null) and `params` every parameter
/// (host-only ones too) as `{ name, required, givenBy, description, tsType, schema }`.
pub fn to_json() -> String {
    serde_json::to_string(&Specs).expect("the spec table serializes")
}

struct Specs;

impl Serialize for Specs {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(ALL.len()))?;
        for spec in ALL {
            seq.serialize_element(&Spec(spec))?;
        }
        seq.end()
    }
}

struct Spec(&'static ToolSpec);

impl Serialize for Spec {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let spec = self.0;
        let mut map = s.serialize_map(None)?;
        map.serialize_entry("name", spec.name)?;
        map.serialize_entry("factory", spec.factory)?;
        map.serialize_entry("access", access_name(spec.access))?;
        map.serialize_entry("serving", serving_name(spec.serving))?;
        map.serialize_entry("summary", spec.summary)?;
        map.serialize_entry("description", spec.description)?;
        map.serialize_entry("definition", &spec.definition)?;
        map.serialize_entry("inputSchema", &ObjectSchema(spec.params))?;
        map.serialize_entry("probeSchema", &spec.probe_params.map(ObjectSchema))?;
        map.serialize_entry("params", &Params(spec.params))?;
        map.end()
    }
}

fn access_name(access: Access) -> &'static str {
    match access {
        Access::Read => "read",
        Access::Write => "write",
    }
}

fn serving_name(serving: Serving) -> &'static str {
    match serving {
        Serving::Default => "default",
        Serving::WhenNamed => "when_named",
        Serving::Never => "never",
    }
}

/// The parameters as a list, each with its own schema.
struct Params(&'static [Param]);

impl Serialize for Params {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.0.len()))?;
        for p in self.0 {
            seq.serialize_element(&ParamEntry(p))?;
        }
        seq.end()
    }
}

struct ParamEntry(&'static Param);

impl Serialize for ParamEntry {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let p = self.0;
        let mut map = s.serialize_map(Some(6))?;
        map.serialize_entry("name", p.name)?;
        map.serialize_entry("required", &p.required)?;
        let given_by = if p.given_by == GivenBy::Host {
            "host"
        } else {
            "model"
        };
        map.serialize_entry("givenBy", given_by)?;
        map.serialize_entry("description", p.description)?;
        map.serialize_entry("tsType", &p.ts_type)?;
        map.serialize_entry("schema", &Schema(&p.shape, p.description))?;
        map.end()
    }
}

/// The closed object schema of the parameters the model gives.
struct ObjectSchema(&'static [Param]);

impl Serialize for ObjectSchema {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(None)?;
        write_object(&mut map, self.0)?;
        map.end()
    }
}

/// `type`, `properties`, `required` and `additionalProperties: false` of an object of `params`.
fn write_object<M: SerializeMap>(map: &mut M, params: &'static [Param]) -> Result<(), M::Error> {
    let model: Vec<&Param> = params
        .iter()
        .filter(|p| p.given_by == GivenBy::Model)
        .collect();
    map.serialize_entry("type", "object")?;
    map.serialize_entry("properties", &Properties(&model))?;
    let required: Vec<&str> = model
        .iter()
        .filter(|p| p.required)
        .map(|p| p.name)
        .collect();
    map.serialize_entry("required", &required)?;
    map.serialize_entry("additionalProperties", &false)
}

struct Properties<'a>(&'a [&'static Param]);

impl Serialize for Properties<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for p in self.0 {
            map.serialize_entry(p.name, &Schema(&p.shape, p.description))?;
        }
        map.end()
    }
}

/// The schema of one shape with its description (empty: none). An array's description comes
/// before an object item schema and after scalar facets, as the schemas were first written.
struct Schema<'a>(&'a Shape, &'a str);

impl Serialize for Schema<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let Schema(shape, description) = *self;
        let mut map = s.serialize_map(None)?;
        let described_first = matches!(
            shape,
            Shape::Array {
                items: Shape::Object(_),
                ..
            }
        );
        write_shape(
            &mut map,
            shape,
            if described_first { description } else { "" },
        )?;
        if !description.is_empty() && !described_first {
            map.serialize_entry("description", description)?;
        }
        map.end()
    }
}

/// The keys of `shape`; `lead`, when not empty, is written as the description right after `type`.
fn write_shape<M: SerializeMap>(map: &mut M, shape: &Shape, lead: &str) -> Result<(), M::Error> {
    match shape {
        Shape::String => map.serialize_entry("type", "string"),
        Shape::Boolean => map.serialize_entry("type", "boolean"),
        Shape::Integer { minimum } => {
            map.serialize_entry("type", "integer")?;
            match minimum {
                Some(min) => map.serialize_entry("minimum", min),
                None => Ok(()),
            }
        }
        Shape::Enum(values) => {
            map.serialize_entry("type", "string")?;
            map.serialize_entry("enum", values)
        }
        Shape::Array {
            items,
            min_items,
            max_items,
        } => {
            map.serialize_entry("type", "array")?;
            if !lead.is_empty() {
                map.serialize_entry("description", lead)?;
            }
            map.serialize_entry("items", &Schema(items, ""))?;
            if let Some(n) = min_items {
                map.serialize_entry("minItems", n)?;
            }
            match max_items {
                Some(n) => map.serialize_entry("maxItems", n),
                None => Ok(()),
            }
        }
        Shape::Object(params) => write_object(map, params),
        Shape::OpenObject => {
            map.serialize_entry("type", "object")?;
            map.serialize_entry("additionalProperties", &true)
        }
        Shape::AnyOf(shapes) => {
            let all: Vec<Schema> = shapes.iter().map(|s| Schema(s, "")).collect();
            map.serialize_entry("anyOf", &all)
        }
    }
}
