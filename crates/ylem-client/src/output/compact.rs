//! JSON text rewritten as compact JSON in one pass, byte for byte what
//! serde_json writes for the `Value` it would parse the text to, without
//! building that `Value` (a map and a string per object and key: most of
//! the time decoding a log's outputs took).

use std::borrow::Cow;
use std::collections::HashSet;
use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};

/// What became of the text.
#[derive(Debug, PartialEq, Eq)]
pub enum Compact {
    /// `out` holds the compact JSON.
    Done,
    /// The text is not JSON.
    NotJson,
    /// An object repeats a key: a `Value` keeps the last value in the first
    /// one's place, which only the `Value` itself can tell. The text is
    /// JSON (serde_json reads it).
    NeedsValue,
}

/// The marker of a repeated key among the errors.
const REPEATED: &str = "repeated key";

/// Write `text` to `out` as compact JSON (see `Compact`).
pub fn compact(text: &str, out: &mut Vec<u8>) -> Compact {
    let mut de = serde_json::Deserializer::from_str(text);
    let r = de.deserialize_any(Tx { out }).and_then(|()| de.end());
    match r {
        Ok(()) => Compact::Done,
        // The first repeated key stops the pass before the rest of the text
        // is read, and the rest may not be JSON (`{"a":1,"a":2` cut short,
        // found by the differential fuzzing): only serde_json reading it
        // whole can tell. Rare, so reading it twice (here and by the
        // caller) costs nothing that matters.
        Err(e) if e.to_string().starts_with(REPEATED) => {
            match serde_json::from_str::<serde_json::Value>(text) {
                Ok(_) => Compact::NeedsValue,
                Err(_) => Compact::NotJson,
            }
        }
        Err(_) => Compact::NotJson,
    }
}

/// Writes the value it visits to `out`.
struct Tx<'o> {
    out: &'o mut Vec<u8>,
}

impl<'de> DeserializeSeed<'de> for Tx<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

/// An object key, borrowed from the text when it has no escape.
struct Key;

impl<'de> DeserializeSeed<'de> for Key {
    type Value = Cow<'de, str>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Cow<'de, str>, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for Key {
    type Value = Cow<'de, str>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a key")
    }
    fn visit_borrowed_str<E>(self, s: &'de str) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Borrowed(s))
    }
    fn visit_str<E>(self, s: &str) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Owned(s.to_string()))
    }
}

fn put<T: serde::Serialize + ?Sized, E: de::Error>(out: &mut Vec<u8>, v: &T) -> Result<(), E> {
    serde_json::to_writer(out, v).map_err(E::custom)
}

impl<'de> Visitor<'de> for Tx<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("JSON")
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        self.out.extend_from_slice(b"null");
        Ok(())
    }
    fn visit_bool<E>(self, b: bool) -> Result<(), E> {
        self.out
            .extend_from_slice(if b { b"true" } else { b"false" });
        Ok(())
    }
    fn visit_i64<E: de::Error>(self, n: i64) -> Result<(), E> {
        put(self.out, &n)
    }
    fn visit_u64<E: de::Error>(self, n: u64) -> Result<(), E> {
        put(self.out, &n)
    }
    fn visit_f64<E: de::Error>(self, n: f64) -> Result<(), E> {
        // As `Value` has it: a number that is not finite is `null`.
        match serde_json::Number::from_f64(n) {
            Some(n) => put(self.out, &n),
            None => self.visit_unit(),
        }
    }
    fn visit_str<E: de::Error>(self, s: &str) -> Result<(), E> {
        put(self.out, s)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        self.out.push(b'[');
        let mut first = true;
        loop {
            let mark = self.out.len();
            if !first {
                self.out.push(b',');
            }
            if seq.next_element_seed(Tx { out: self.out })?.is_none() {
                self.out.truncate(mark);
                break;
            }
            first = false;
        }
        self.out.push(b']');
        Ok(())
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        // Most objects are small: a look through the keys seen is cheaper
        // than hashing, up to a few dozen.
        let mut keys: Vec<Cow<'de, str>> = Vec::new();
        let mut many: HashSet<Cow<'de, str>> = HashSet::new();
        self.out.push(b'{');
        while let Some(k) = map.next_key_seed(Key)? {
            if keys.len() == 32 {
                many.extend(keys.drain(..));
            }
            let repeated = if many.is_empty() {
                keys.contains(&k)
            } else {
                many.contains(&k)
            };
            if repeated {
                return Err(de::Error::custom(REPEATED));
            }
            if !(keys.is_empty() && many.is_empty()) {
                self.out.push(b',');
            }
            put(self.out, k.as_ref())?;
            self.out.push(b':');
            if many.is_empty() {
                keys.push(k);
            } else {
                many.insert(k);
            }
            map.next_value_seed(Tx { out: self.out })?;
        }
        self.out.push(b'}');
        Ok(())
    }
}
