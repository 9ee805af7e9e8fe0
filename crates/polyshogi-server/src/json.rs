//! JSON text read as serde_json's `Value`, refusing an object that names a key twice:
//! serde_json would keep the last one silently, and two readers of one body could disagree.

use std::fmt;

use serde::de::{Deserialize, Deserializer, Error, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};

/// Parses one JSON text. A repeated key is an error of the kind `is_data()`, unlike bad
/// syntax, so a caller can tell "not JSON" from "JSON that says a thing twice".
pub fn parse(text: &[u8]) -> Result<Value, serde_json::Error> {
    let mut deserializer = serde_json::Deserializer::from_slice(text);
    let UniqueKeys(value) = UniqueKeys::deserialize(&mut deserializer)?;
    deserializer.end()?;
    Ok(value)
}

/// Parses an HTTP request body, its error worded for the client: `body: …`.
pub fn parse_body(body: &[u8]) -> Result<Value, String> {
    parse(body).map_err(|e| if e.is_data() { format!("body: {e}") } else { format!("body: not JSON ({e})") })
}

/// A JSON value in which no object repeats a key.
struct UniqueKeys(Value);

impl<'de> Deserialize<'de> for UniqueKeys {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<UniqueKeys, D::Error> {
        deserializer.deserialize_any(UniqueKeysVisitor)
    }
}

struct UniqueKeysVisitor;

impl<'de> Visitor<'de> for UniqueKeysVisitor {
    type Value = UniqueKeys;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_unit<E: Error>(self) -> Result<UniqueKeys, E> {
        Ok(UniqueKeys(Value::Null))
    }

    fn visit_bool<E: Error>(self, value: bool) -> Result<UniqueKeys, E> {
        Ok(UniqueKeys(Value::Bool(value)))
    }

    fn visit_i64<E: Error>(self, value: i64) -> Result<UniqueKeys, E> {
        Ok(UniqueKeys(Value::from(value)))
    }

    fn visit_u64<E: Error>(self, value: u64) -> Result<UniqueKeys, E> {
        Ok(UniqueKeys(Value::from(value)))
    }

    fn visit_f64<E: Error>(self, value: f64) -> Result<UniqueKeys, E> {
        Ok(UniqueKeys(Value::from(value)))
    }

    fn visit_str<E: Error>(self, value: &str) -> Result<UniqueKeys, E> {
        Ok(UniqueKeys(Value::String(value.to_string())))
    }

    fn visit_string<E: Error>(self, value: String) -> Result<UniqueKeys, E> {
        Ok(UniqueKeys(Value::String(value)))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut items: A) -> Result<UniqueKeys, A::Error> {
        let mut array = Vec::new();
        while let Some(UniqueKeys(item)) = items.next_element()? {
            array.push(item);
        }
        Ok(UniqueKeys(Value::Array(array)))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut entries: A) -> Result<UniqueKeys, A::Error> {
        let mut object = Map::new();
        while let Some(key) = entries.next_key::<String>()? {
            if object.contains_key(&key) {
                let shown: String = key.chars().take(40).collect();
                return Err(A::Error::custom(format!("the key \"{shown}\" appears twice in one object")));
            }
            let UniqueKeys(value) = entries.next_value()?;
            object.insert(key, value);
        }
        Ok(UniqueKeys(Value::Object(object)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_what_serde_json_reads() {
        for text in [r#"{"a":[1,-2,3.5,true,null,"x"],"b":{"c":{}}}"#, "[]", "\"\\u00e9\"", "18446744073709551615", " 1e400 "] {
            let expected: Result<Value, _> = serde_json::from_str(text);
            assert_eq!(parse(text.as_bytes()).ok(), expected.ok(), "{text}");
        }
    }

    #[test]
    fn a_repeated_key_is_refused_at_any_depth() {
        for text in [r#"{"a":1,"a":1}"#, r#"{"a":[{"b":1,"c":2,"b":3}]}"#] {
            let error = parse(text.as_bytes()).unwrap_err();
            assert!(error.is_data() && error.to_string().contains("appears twice"), "{error}");
        }
        assert!(parse(br#"{"a":{"b":1},"b":{"a":1}}"#).is_ok());
    }

    #[test]
    fn bad_syntax_and_deep_nesting_are_errors_not_crashes() {
        assert!(parse(b"{\"a\":").unwrap_err().is_eof());
        assert!(parse(b"{} {}").unwrap_err().is_syntax());
        let deep = "[".repeat(100_000);
        assert!(parse(deep.as_bytes()).is_err());
    }
}
