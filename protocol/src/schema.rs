//! The protocol's JSON form written down: a JSON Schema generated from the message types,
//! and the TypeScript declarations the browser page is type-checked against, generated
//! from that schema.
//!
//! - [`json_schema`]: the schema of [`ClientMsg`] and [`ServerMsg`] as serde writes them
//!   in JSON (the WebSocket's form; the TCP form is bincode of the same types). Every
//!   doc comment of a type or field is its `description`.
//! - [`typescript`]: a schema (this one, or a copy a test has changed) as TypeScript type
//!   declarations, for `web/js/protocol.d.ts`. The page's modules name these types in
//!   JSDoc and `tsc --noEmit` checks them, so a renamed field breaks the page's build.
//!
//! Both files are committed (`protocol/schema/protocol.schema.json`,
//! `web/js/protocol.d.ts`) and a test fails when either differs from what the code
//! generates. Regenerate both with
//! `UPDATE_SCHEMA=1 cargo test -p banco-protocol --test schema`.

use schemars::generate::SchemaSettings;
use serde_json::{Map, Value, json};
use std::fmt::Write;

use crate::{ClientMsg, PROTOCOL_VERSION, ServerMsg};

/// The JSON Schema (draft 2020-12) of every message of the JSON form: one of
/// `$defs/ClientMsg` (what a client sends) or `$defs/ServerMsg` (what it is sent).
pub fn json_schema() -> Value {
    let mut generator = SchemaSettings::draft2020_12().into_generator();
    let client = generator.subschema_for::<ClientMsg>();
    let server = generator.subschema_for::<ServerMsg>();
    let defs: Map<String, Value> = generator.take_definitions(true).into_iter().collect();
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "banco protocol, JSON form",
        "description": format!(
            "The messages of banco's protocol version {PROTOCOL_VERSION} as JSON (the WebSocket's text messages): \
             a client sends a ClientMsg, the server sends ServerMsgs. Generated from banco-protocol's types; \
             do not edit by hand."
        ),
        "x-protocol-version": PROTOCOL_VERSION,
        "oneOf": [client.to_value(), server.to_value()],
        "$defs": defs,
    })
}

/// The schema as committed: pretty-printed, one trailing newline.
pub fn json_schema_text() -> String {
    let mut text = serde_json::to_string_pretty(&json_schema()).unwrap_or_default();
    text.push('\n');
    text
}

/// A schema this generator cannot turn into types (a shape the protocol does not use).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the schema at {at} has a shape the type generator does not know: {shape}")]
pub struct SchemaError {
    /// Where: the definition and the path inside it.
    pub at: String,
    /// The JSON of the node, shortened.
    pub shape: String,
}

/// TypeScript declarations of every definition in `schema`'s `$defs`, one exported type
/// each, with the schema's descriptions as doc comments.
pub fn typescript(schema: &Value) -> Result<String, SchemaError> {
    let mut out = String::from(
        "// The protocol's JSON form as TypeScript types, generated from\n\
         // protocol/schema/protocol.schema.json by banco-protocol's `schema::typescript`.\n\
         // Do not edit: regenerate with `UPDATE_SCHEMA=1 cargo test -p banco-protocol --test schema`.\n\
         // The page's modules name these types in JSDoc (`import('./protocol').ServerMsg`).\n",
    );
    if let Some(version) = schema.get("x-protocol-version") {
        let _ = writeln!(out, "\n/** The protocol version these types describe. */");
        let _ = writeln!(out, "export type ProtocolVersion = {version};");
    }
    let defs = schema
        .get("$defs")
        .and_then(Value::as_object)
        .ok_or_else(|| SchemaError {
            at: "the root".into(),
            shape: "no $defs".into(),
        })?;
    for (name, def) in defs {
        out.push('\n');
        doc(&mut out, def, "");
        let ty = type_of(def, name, "")?;
        let _ = writeln!(out, "export type {name} = {ty};");
    }
    Ok(out)
}

/// A `/** description */` line (or block) at `indent`, if the node has one.
fn doc(out: &mut String, node: &Value, indent: &str) {
    let Some(text) = node.get("description").and_then(Value::as_str) else {
        return;
    };
    let text = text.replace("*/", "* /");
    let lines: Vec<&str> = text.lines().collect();
    if lines.len() == 1 {
        let _ = writeln!(out, "{indent}/** {} */", lines[0]);
    } else {
        let _ = writeln!(out, "{indent}/**");
        for line in lines {
            let _ = writeln!(out, "{indent} * {line}");
        }
        let _ = writeln!(out, "{indent} */");
    }
}

fn unknown(node: &Value, at: &str) -> SchemaError {
    let mut shape = node.to_string();
    if shape.len() > 200 {
        let mut end = 200;
        while !shape.is_char_boundary(end) {
            end -= 1;
        }
        shape.truncate(end);
    }
    SchemaError {
        at: at.to_string(),
        shape,
    }
}

/// The TypeScript type of one schema node. `indent` is the indentation of the line the
/// type starts on (object types are written over several lines).
fn type_of(node: &Value, at: &str, indent: &str) -> Result<String, SchemaError> {
    let obj = match node {
        Value::Bool(true) => return Ok("unknown".into()),
        Value::Bool(false) => return Ok("never".into()),
        Value::Object(obj) => obj,
        other => return Err(unknown(other, at)),
    };
    if let Some(reference) = obj.get("$ref").and_then(Value::as_str) {
        return reference
            .strip_prefix("#/$defs/")
            .map(str::to_string)
            .ok_or_else(|| unknown(node, at));
    }
    if let Some(value) = obj.get("const") {
        return Ok(value.to_string());
    }
    if let Some(values) = obj.get("enum").and_then(Value::as_array) {
        let parts: Vec<String> = values.iter().map(Value::to_string).collect();
        return Ok(parts.join(" | "));
    }
    for key in ["oneOf", "anyOf"] {
        if let Some(options) = obj.get(key).and_then(Value::as_array) {
            // The variants of an enum with data are objects of one key each (`{caro: ..}`
            // or `{xiangqi: ..}`): each is written with its siblings' keys as `?: never`,
            // so `if (mv.caro)` reads and narrows as the page writes it. (Not for the
            // messages themselves, dozens of variants, which the page tells apart with
            // `in`.)
            let mut tags: Vec<&str> = options.iter().filter_map(variant_tag).collect();
            if tags.len() > 4 {
                tags.clear();
            }
            let parts = options
                .iter()
                .enumerate()
                .map(|(i, o)| {
                    let at = format!("{at}/{key}/{i}");
                    match (variant_tag(o).filter(|t| tags.contains(t)), o.as_object()) {
                        (Some(tag), Some(variant)) => {
                            let others: Vec<&str> =
                                tags.iter().copied().filter(|t| *t != tag).collect();
                            object_type(variant, &at, indent, &others)
                        }
                        _ => type_of(o, &at, indent).map(|t| paren(&t)),
                    }
                })
                .collect::<Result<Vec<_>, _>>()?;
            return Ok(parts.join(" | "));
        }
    }
    if let Some(all) = obj.get("allOf").and_then(Value::as_array) {
        let parts = all
            .iter()
            .enumerate()
            .map(|(i, o)| type_of(o, &format!("{at}/allOf/{i}"), indent).map(|t| paren(&t)))
            .collect::<Result<Vec<_>, _>>()?;
        return Ok(parts.join(" & "));
    }
    match obj.get("type") {
        Some(Value::String(kind)) => single_type(obj, kind, at, indent),
        Some(Value::Array(kinds)) => {
            let parts = kinds
                .iter()
                .map(|k| match k.as_str() {
                    Some(kind) => single_type(obj, kind, at, indent).map(|t| paren(&t)),
                    None => Err(unknown(node, at)),
                })
                .collect::<Result<Vec<_>, _>>()?;
            Ok(parts.join(" | "))
        }
        _ => Err(unknown(node, at)),
    }
}

/// Parenthesised where a union member would otherwise bind wrongly (`(A | B)[]`).
fn paren(ty: &str) -> String {
    if ty.contains(" | ") && !ty.starts_with('{') {
        format!("({ty})")
    } else {
        ty.to_string()
    }
}

fn single_type(
    obj: &Map<String, Value>,
    kind: &str,
    at: &str,
    indent: &str,
) -> Result<String, SchemaError> {
    Ok(match kind {
        "string" => "string".into(),
        "integer" | "number" => "number".into(),
        "boolean" => "boolean".into(),
        "null" => "null".into(),
        "array" => array_type(obj, at, indent)?,
        "object" => object_type(obj, at, indent, &[])?,
        _ => return Err(unknown(&Value::Object(obj.clone()), at)),
    })
}

/// `T[]`, or a tuple `[A, B]` for fixed short arrays (a seat pair) and `prefixItems`.
fn array_type(obj: &Map<String, Value>, at: &str, indent: &str) -> Result<String, SchemaError> {
    if let Some(prefix) = obj.get("prefixItems").and_then(Value::as_array) {
        let parts = prefix
            .iter()
            .enumerate()
            .map(|(i, p)| type_of(p, &format!("{at}/prefixItems/{i}"), indent))
            .collect::<Result<Vec<_>, _>>()?;
        return Ok(format!("[{}]", parts.join(", ")));
    }
    let item = match obj.get("items") {
        Some(items) => type_of(items, &format!("{at}/items"), indent)?,
        None => "unknown".into(),
    };
    let min = obj.get("minItems").and_then(Value::as_u64);
    let max = obj.get("maxItems").and_then(Value::as_u64);
    match (min, max) {
        (Some(n), Some(m)) if n == m && n <= 4 => {
            let n = usize::try_from(n).unwrap_or(0);
            Ok(format!("[{}]", vec![item; n].join(", ")))
        }
        _ => Ok(format!("{}[]", paren(&item))),
    }
}

/// The key of an enum variant's object (`{"caro": ..}`): an object with exactly one
/// property, required.
fn variant_tag(node: &Value) -> Option<&str> {
    let obj = node.as_object()?;
    let properties = obj.get("properties")?.as_object()?;
    let required = obj.get("required")?.as_array()?;
    match (properties.len(), required.as_slice()) {
        (1, [only]) => only.as_str().filter(|k| properties.contains_key(*k)),
        _ => None,
    }
}

/// `{ name: T; other?: U }` over several lines, each field with its description; `never`
/// lists keys the object must not have (a sibling variant's), written `key?: never`.
fn object_type(
    obj: &Map<String, Value>,
    at: &str,
    indent: &str,
    never: &[&str],
) -> Result<String, SchemaError> {
    let properties = obj.get("properties").and_then(Value::as_object);
    let Some(properties) = properties.filter(|p| !p.is_empty()) else {
        return match obj.get("additionalProperties") {
            Some(Value::Bool(false)) | None => Ok("Record<string, never>".into()),
            Some(values) => Ok(format!(
                "Record<string, {}>",
                type_of(values, &format!("{at}/additionalProperties"), indent)?
            )),
        };
    };
    let required: Vec<&str> = obj
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let inner = format!("{indent}  ");
    let mut out = String::from("{\n");
    for (name, property) in properties {
        doc(&mut out, property, &inner);
        let optional = if required.contains(&name.as_str()) {
            ""
        } else {
            "?"
        };
        let ty = type_of(property, &format!("{at}/{name}"), &inner)?;
        let _ = writeln!(out, "{inner}{}{optional}: {ty};", property_name(name));
    }
    for name in never {
        let _ = writeln!(out, "{inner}{}?: never;", property_name(name));
    }
    out.push_str(indent);
    out.push('}');
    Ok(out)
}

/// A property name, quoted unless it is a plain identifier.
fn property_name(name: &str) -> String {
    let plain = name
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if plain {
        name.to_string()
    } else {
        serde_json::to_string(name).unwrap_or_default()
    }
}
